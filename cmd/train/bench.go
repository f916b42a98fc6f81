package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/rlpool/rlpool/configs"
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// benchResult is what `train bench -json` prints: medians over the repeats, plus each
// repeat's figures so noise is visible.
type benchResult struct {
	Task             string    `json:"task"`
	NumEnvs          int       `json:"num_envs"`
	BatchSize        int       `json:"batch_size"`
	Threads          int       `json:"threads"`
	FrameSkip        int       `json:"frame_skip"`
	Seconds          float64   `json:"seconds"`
	Repeats          int       `json:"repeats"`
	WarmupSeconds    float64   `json:"warmup_seconds"`
	StepsPerSec      float64   `json:"steps_per_sec"`
	FramesPerSec     float64   `json:"frames_per_sec"`
	LoopStepsPerSec  float64   `json:"loop_steps_per_sec"`
	LoopFramesPerSec float64   `json:"loop_frames_per_sec"`
	Ratio            float64   `json:"ratio"`
	PoolRuns         []float64 `json:"pool_steps_per_sec_runs"`
	LoopRuns         []float64 `json:"loop_steps_per_sec_runs"`
	GOMAXPROCS       int       `json:"gomaxprocs"`
	// TestspeedStepsPerSec is Debian's mujoco-testspeed on the same model (one thread),
	// scaled to env steps (mj_step calls / frame skip); MuJoCo tasks with -testspeed only.
	TestspeedStepsPerSec float64   `json:"testspeed_env_steps_per_sec,omitempty"`
	TestspeedRuns        []float64 `json:"testspeed_env_steps_per_sec_runs,omitempty"`
}

// runBench implements `train bench`: the pool stepped with random actions against the
// same envs stepped by a plain loop in one goroutine, alternated and repeated in one
// process so that machine noise hits both alike.
func runBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	task := fs.String("task", configs.DefaultTask, "task id (see `train bench -list`)")
	numEnvs := fs.Int("num-envs", 8, "envs in the pool")
	batch := fs.Int("batch-size", 0, "rows per batch (0 = num-envs: sync mode)")
	threads := fs.Int("threads", 0, "worker threads (0 = min(batch, cores))")
	seconds := fs.Float64("seconds", 3, "seconds per measurement")
	repeats := fs.Int("repeat", 3, "measurements of each side; medians are reported")
	warmup := fs.Float64("warmup", 1, "seconds the pool steps, untimed, before its first measurement")
	affinity := fs.Int("affinity-offset", -1, "pin worker i to core offset+i (-1: no pinning)")
	noLoop := fs.Bool("no-loop", false, "skip the single-goroutine loop baseline")
	testspeed := fs.Bool("testspeed", false, "MuJoCo tasks: also time Debian's mujoco-testspeed on the same model (package libmujoco-samples)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	list := fs.Bool("list", false, "list the task ids and exit")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the timed measurements (pool and loop) to this file (go tool pprof FILE)")
	var envOpts multiFlag
	fs.Var(&envOpts, "env-opt", envOptHelp)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *list {
		fmt.Println(strings.Join(envs.List(), "\n"))
		return nil
	}
	switch {
	case !(*seconds > 0):
		return fmt.Errorf("-seconds %v: want a positive number of seconds per measurement", *seconds)
	case *repeats < 1:
		return fmt.Errorf("-repeat %d: want at least one measurement", *repeats)
	case !(*warmup >= 0):
		return fmt.Errorf("-warmup %v: want zero or more seconds", *warmup)
	}
	family, err := parseEnvOpts(envOpts)
	if err != nil {
		return err
	}
	opts := envs.Options{Options: envpool.Options{
		NumEnvs: *numEnvs, BatchSize: *batch, NumThreads: *threads, Seed: 1,
		ThreadAffinity: *affinity >= 0, ThreadAffinityOffset: max(*affinity, 0),
	}, Family: family}
	pool, err := envs.Make(*task, opts)
	if err != nil {
		return err
	}
	defer pool.Close()
	spec := pool.Spec()
	res := benchResult{
		Task: *task, NumEnvs: pool.NumEnvs(), BatchSize: pool.BatchSize(), Threads: pool.Options().NumThreads,
		FrameSkip: max(spec.FrameSkip, 1), Seconds: *seconds, Repeats: *repeats, WarmupSeconds: *warmup, GOMAXPROCS: runtime.GOMAXPROCS(0),
	}
	actions := newActionTable(spec, 4096)
	var loopEnvs []envpool.Env
	if !*noLoop {
		for i := range *numEnvs {
			e, _, err := envs.MakeEnv(*task, family, int64(1000+i))
			if err != nil {
				return err
			}
			if c, ok := e.(interface{ Close() error }); ok {
				defer c.Close()
			}
			loopEnvs = append(loopEnvs, e)
		}
	}
	d := time.Duration(*seconds * float64(time.Second))
	runner, err := newPoolRunner(pool)
	if err != nil {
		return err
	}
	// A new pool runs its first second or so well below its steady rate (measured on
	// an Atari task: 6-8k steps/s against 10-11k after it), so the first measurement would
	// be an outlier; step it untimed first.
	if *warmup > 0 {
		if _, err := runner.measure(actions, time.Duration(*warmup*float64(time.Second))); err != nil {
			return err
		}
	}
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	for range *repeats {
		r, err := runner.measure(actions, d)
		if err != nil {
			return err
		}
		res.PoolRuns = append(res.PoolRuns, r)
		if loopEnvs != nil {
			res.LoopRuns = append(res.LoopRuns, benchLoop(loopEnvs, spec, actions, d))
		}
		if *testspeed {
			// mujoco-testspeed runs about 20k mj_step calls per second per core here;
			// size its run to the measurement time.
			nstep := int(20000 * *seconds)
			ts, err := mujoco.RunTestspeed(context.Background(), *task, nstep, 0.5)
			if err != nil {
				return err
			}
			res.TestspeedRuns = append(res.TestspeedRuns, ts.EnvStepRate)
		}
	}
	res.TestspeedStepsPerSec = median(res.TestspeedRuns)
	res.StepsPerSec = median(res.PoolRuns)
	res.FramesPerSec = res.StepsPerSec * float64(res.FrameSkip)
	if loopEnvs != nil {
		res.LoopStepsPerSec = median(res.LoopRuns)
		res.LoopFramesPerSec = res.LoopStepsPerSec * float64(res.FrameSkip)
		res.Ratio = res.StepsPerSec / res.LoopStepsPerSec
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Printf("%s: %d envs, batch %d, %d threads, frame skip %d, median of %d x %.1fs after %.1fs warm-up\n",
		res.Task, res.NumEnvs, res.BatchSize, res.Threads, res.FrameSkip, res.Repeats, res.Seconds, res.WarmupSeconds)
	fmt.Printf("  pool: %12.0f steps/s %12.0f frames/s\n", res.StepsPerSec, res.FramesPerSec)
	if loopEnvs != nil {
		fmt.Printf("  loop: %12.0f steps/s %12.0f frames/s (one goroutine)\n", res.LoopStepsPerSec, res.LoopFramesPerSec)
		fmt.Printf("  pool/loop: %.2fx\n", res.Ratio)
	}
	if res.TestspeedRuns != nil {
		fmt.Printf("  mujoco-testspeed: %12.0f env steps/s (one thread); pool / (2 x testspeed) = %.2f\n",
			res.TestspeedStepsPerSec, res.StepsPerSec/(2*res.TestspeedStepsPerSec))
	}
	return nil
}

// actionTable is a ring of pre-drawn random actions, so drawing them costs both sides
// of the comparison the same (nearly nothing).
type actionTable struct {
	values []float32
	dim    int
	next   int
}

func newActionTable(spec *envpool.Spec, rows int) *actionTable {
	sp := spec.ActionSpace
	t := &actionTable{dim: sp.Size(), values: make([]float32, rows*sp.Size())}
	rng := rand.New(rand.NewPCG(42, 42))
	for i := range t.values {
		if sp.Kind == envpool.Discrete {
			t.values[i] = float32(rng.IntN(sp.N))
			continue
		}
		j := i % t.dim
		t.values[i] = sp.Low[j] + float32(rng.Float64())*(sp.High[j]-sp.Low[j])
	}
	return t
}

// take returns n consecutive actions.
func (t *actionTable) take(n int) []float32 {
	rows := len(t.values) / t.dim
	if t.next+n > rows {
		t.next = 0
	}
	a := t.values[t.next*t.dim : (t.next+n)*t.dim]
	t.next += n
	return a
}

// poolRunner keeps a pool cycling between measurements: the batch in hand is sent back
// at the start of the next one, so no env is ever left in flight or reset.
type poolRunner struct {
	pool *envpool.Pool
	b    *envpool.Batch
	ids  []int32
}

func newPoolRunner(p *envpool.Pool) (*poolRunner, error) {
	if err := p.AsyncReset(); err != nil {
		return nil, err
	}
	b, err := p.Recv()
	if err != nil {
		return nil, err
	}
	return &poolRunner{pool: p, b: b, ids: make([]int32, p.BatchSize())}, nil
}

// measure steps the pool with random actions for d and returns env steps per second.
func (r *poolRunner) measure(actions *actionTable, d time.Duration) (float64, error) {
	steps := 0
	start := time.Now()
	for time.Since(start) < d {
		for range 16 {
			copy(r.ids, r.b.EnvID)
			b, err := r.pool.Step(actions.take(len(r.ids)), r.ids)
			if err != nil {
				return 0, err
			}
			r.b = b
			steps += len(r.ids)
		}
	}
	return float64(steps) / time.Since(start).Seconds(), nil
}

func benchLoop(es []envpool.Env, spec *envpool.Spec, actions *actionTable, d time.Duration) float64 {
	obs := envpool.Obs{}
	if spec.ObsSpace.DType == envpool.Uint8 {
		obs.U8 = make([]uint8, spec.ObsSpace.Size())
	} else {
		obs.F32 = make([]float32, spec.ObsSpace.Size())
	}
	info := make([]float32, spec.InfoWidth())
	elapsed := make([]int, len(es))
	for _, e := range es {
		e.Reset()
		e.Observe(obs, info)
	}
	steps := 0
	start := time.Now()
	for time.Since(start) < d {
		for i, e := range es {
			r := e.Step(actions.take(1))
			elapsed[i]++
			e.Observe(obs, info)
			if r.Terminated || r.Truncated || (spec.MaxEpisodeSteps > 0 && elapsed[i] >= spec.MaxEpisodeSteps) {
				e.Reset()
				e.Observe(obs, info)
				elapsed[i] = 0
			}
			steps++
		}
	}
	return float64(steps) / time.Since(start).Seconds()
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
