package mujoco

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// BenchmarkStep times one env step (frame_skip mj_step calls, mj_rnePostConstraint,
// reward and observation) of each task in a plain loop, with random actions.
// ns/op is per env step; divide by the task's frame skip for per-mj_step figures
// comparable with mujoco-testspeed.
func BenchmarkStep(b *testing.B) {
	requireMuJoCo(b)
	for _, id := range TaskIDs() {
		b.Run(id, func(b *testing.B) {
			e, spec := makeEnv(b, id, nil, 1)
			obs := make([]float32, spec.ObsSpace.Size())
			info := make([]float32, spec.InfoWidth())
			rng := rand.New(rand.NewPCG(1, 1))
			n := spec.ActionSpace.Size()
			actions := make([]float32, 64*n)
			for i := range actions {
				lo, hi := spec.ActionSpace.Low[i%n], spec.ActionSpace.High[i%n]
				actions[i] = lo + float32(rng.Float64())*(hi-lo)
			}
			e.Reset()
			elapsed := 0
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			defer func() { reportCPU(b, cpu0) }()
			for i := range b.N {
				k := i % 64
				r := e.Step(actions[k*n : (k+1)*n])
				e.Observe(envpool.Obs{F32: obs}, info)
				elapsed++
				if r.Terminated || r.Truncated || elapsed == spec.MaxEpisodeSteps {
					e.Reset()
					elapsed = 0
				}
			}
		})
	}
}

// BenchmarkPoolAnt times Ant-v4 in an async pool (8 envs, batches of 4, 2 threads):
// ns/op is per env step, so compare it with BenchmarkStep/Ant-v4 times the threads.
func BenchmarkPoolAnt(b *testing.B) {
	requireMuJoCo(b)
	pool, err := envs.Make("Ant-v4", envs.Options{Options: envpool.Options{NumEnvs: 8, BatchSize: 4, NumThreads: 2, Seed: 1}})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	actions := make([]float32, 4*8)
	rng := rand.New(rand.NewPCG(1, 1))
	batch, err := pool.Reset()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { reportCPU(b, cpu0) }()
	for done := 0; done < b.N; done += batch.Size {
		for i := range actions {
			actions[i] = float32(rng.Float64()*2 - 1)
		}
		if batch, err = pool.Step(actions, batch.EnvID); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds env steps per CPU-second: on a machine shared with other work the
// wall-clock rate depends on the load, while this one shows whether the pool spends
// more CPU per step than the plain loop (its ratio to the loop's bounds the pool's
// speedup on idle cores).
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if d := cpuTime() - cpu0; d > 0 {
		b.ReportMetric(float64(b.N)/d.Seconds(), "steps/cpu-s")
	}
}
