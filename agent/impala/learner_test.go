package impala

import (
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// guessEnv shows one of two targets (a one-hot vector, or the left or right half of a
// 1x36x36 image lit) and pays 1 for naming it; episodes last 5 steps. A random policy
// earns 2.5 per episode, the best one 5.
type guessEnv struct {
	rng    *rand.Rand
	pixels bool
	target int
	steps  int
}

const guessLen = 5

func (e *guessEnv) Reset() { e.steps = 0; e.target = e.rng.IntN(2) }

func (e *guessEnv) Step(a []float32) envpool.StepResult {
	r := float32(0)
	if int(a[0]) == e.target {
		r = 1
	}
	e.steps++
	e.target = e.rng.IntN(2)
	return envpool.StepResult{Reward: r, Terminated: e.steps == guessLen}
}

func (e *guessEnv) Observe(obs envpool.Obs, _ []float32) {
	if !e.pixels {
		clear(obs.F32)
		obs.F32[e.target] = 1
		return
	}
	for y := range 36 {
		for x := range 36 {
			v := uint8(0)
			if (x < 18) == (e.target == 0) {
				v = 255
			}
			obs.U8[y*36+x] = v
		}
	}
}

func guessSpec(pixels bool) envpool.Spec {
	s := envpool.Spec{TaskID: "Guess-v0", ObsSpace: envpool.UniformBox(0, 1, envpool.Float32, 2),
		ActionSpace: envpool.DiscreteSpace(2), RewardThreshold: math.NaN()}
	if pixels {
		s.ObsSpace = envpool.UniformBox(0, 255, envpool.Uint8, 1, 36, 36)
	}
	return s
}

func guessFactory(pixels bool) envpool.Factory {
	return func(_ int, seed int64) (envpool.Env, error) {
		return &guessEnv{rng: rand.New(rand.NewPCG(uint64(seed), 7)), pixels: pixels}, nil
	}
}

// testSetup is a test's whole IMPALA setup: what New takes, in one value.
type testSetup struct {
	agent.Setup
	IMPALA Config
}

func newLearner(s testSetup) (*Learner, error) { return New(s.Setup, s.IMPALA) }

func guessSetup(pixels bool, mod func(*Config)) testSetup {
	c := DefaultConfig()
	c.UnrollLength, c.BatchSize, c.QueueSize = 5, 4, 8
	c.LearningRate, c.RewardClip = 3e-3, 0
	if mod != nil {
		mod(&c)
	}
	return testSetup{Setup: agent.Setup{Spec: guessSpec(pixels), Factory: guessFactory(pixels),
		Pool: envpool.Options{NumEnvs: 8, BatchSize: 4, NumThreads: 1},
		Net:  model.NetConfig{Hidden: []int{16}, Activation: model.ActTanh, Head: model.HeadAuto, OrthoInit: true},
		Seed: 1, TotalSteps: 1_000_000}, IMPALA: c}
}

// TestLearnsGuessTask trains on the guessing task until the mean return of the last 40
// episodes is at least 4.5 of 5 (random play earns 2.5), and checks the bookkeeping:
// versions advance, actors follow them, and episodes carry their env step.
func TestLearnsGuessTask(t *testing.T) {
	l, err := newLearner(guessSetup(false, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var recent []float64
	names := StatNames()
	for it := 0; it < 2000; it++ {
		eps, stats, err := l.Iterate()
		if err != nil {
			t.Fatal(err)
		}
		if len(stats) != len(names) {
			t.Fatalf("%d stats, %d names", len(stats), len(names))
		}
		for i, s := range stats {
			if s.Name != names[i] || math.IsNaN(s.Value) {
				t.Fatalf("stat %d: %s = %v (want name %s, a number)", i, s.Name, s.Value, names[i])
			}
			if s.Name == "policy_lag" && s.Value < 0 {
				t.Fatalf("negative policy lag %v", s.Value)
			}
		}
		for _, e := range eps {
			if e.Length != guessLen || e.EnvStep <= 0 || e.EnvStep > l.EnvSteps() {
				t.Fatalf("episode %+v: want length %d and an env step in (0, %d]", e, guessLen, l.EnvSteps())
			}
			recent = append(recent, e.Return)
		}
		if len(recent) > 40 {
			recent = recent[len(recent)-40:]
		}
		if len(recent) == 40 && mean(recent) >= 4.5 {
			if l.Version() != int64(it+1) {
				t.Fatalf("version %d after %d updates", l.Version(), it+1)
			}
			return
		}
	}
	t.Fatalf("no learning: mean return of the last 40 episodes %.2f after %d updates", mean(recent), l.Version())
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// TestNatureCNNLearner trains the Nature CNN on the pixel version of the guessing task
// (uint8 images through the fused convolution ops) until the mean return of the last 40
// episodes is at least 4.5 of 5, then checks that the actor acted with snapshots newer
// than the initial weights.
func TestNatureCNNLearner(t *testing.T) {
	l, err := newLearner(guessSetup(true, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.net.policy.Torso == nil {
		t.Fatal("no Nature CNN torso for pixels")
	}
	var recent []float64
	newest := int64(-1)
	for it := 0; it < 500; it++ {
		eps, stats, err := l.Iterate()
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(stats[0].Value) || math.IsInf(stats[0].Value, 0) {
			t.Fatalf("policy loss %v at update %d", stats[0].Value, it)
		}
		for _, v := range l.versions {
			newest = max(newest, v)
		}
		for _, e := range eps {
			recent = append(recent, e.Return)
		}
		if len(recent) > 40 {
			recent = recent[len(recent)-40:]
		}
		if len(recent) == 40 && mean(recent) >= 4.5 {
			if newest < 1 {
				t.Fatalf("learned, but every unroll came from version %d", newest)
			}
			return
		}
	}
	t.Fatalf("no learning from pixels: mean return of the last 40 episodes %.2f after %d updates", mean(recent), l.Version())
}

// TestQueueBoundWithSlowLearner stalls the learner and checks that the actors stop
// producing once the queue is full: the env steps taken and the unroll buffers
// allocated stay within what the queue, the envs' unrolls in progress and one blocked
// push can hold. Then the learner resumes and the bound still holds.
func TestQueueBoundWithSlowLearner(t *testing.T) {
	s := guessSetup(false, nil)
	l, err := newLearner(s)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	gate := make(chan struct{})
	l.beforeStep = func() { <-gate }
	done := make(chan error, 1)
	go func() {
		for range 4 {
			if _, _, err := l.Iterate(); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	c, T, envs := s.IMPALA.QueueSize, s.IMPALA.UnrollLength, s.Pool.NumEnvs
	// Wait (without a time bound on the result) for the actor to fill the queue.
	for deadline := time.Now().Add(2 * time.Minute); len(l.queue.ch) < c; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the queue never filled: %d of %d", len(l.queue.ch), c)
		}
	}
	// Give a leaky actor every chance to overrun the bound.
	time.Sleep(200 * time.Millisecond)
	// Every env step is in exactly one unroll: queued (T steps each), blocked in push
	// (T), or in progress (at most T-1 per env).
	maxSteps := int64((c+1)*T + envs*(T-1))
	maxAlloc := int64(c + 1 + envs)
	if got := l.EnvSteps(); got > maxSteps {
		t.Fatalf("stalled learner: actors took %d env steps, bound %d", got, maxSteps)
	}
	if got := l.queue.allocated.Load(); got > maxAlloc {
		t.Fatalf("stalled learner: %d unroll buffers allocated, bound %d", got, maxAlloc)
	}
	if got := len(l.queue.ch); got > c {
		t.Fatalf("queue holds %d unrolls, capacity %d", got, c)
	}
	for range 4 {
		gate <- struct{}{}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// With the learner holding a batch at times, one more batch of buffers may exist.
	if got := l.queue.allocated.Load(); got > maxAlloc+int64(s.IMPALA.BatchSize) {
		t.Fatalf("%d unroll buffers allocated, bound %d", got, maxAlloc+int64(s.IMPALA.BatchSize))
	}
	if l.Version() != 4 {
		t.Fatalf("version %d after 4 learner steps", l.Version())
	}
}

// TestSnapshotsConsistent has one publisher and several readers race over snapshots:
// every snapshot a reader holds is whole (all elements from one version) and versions
// never go backwards. Run with -race to check the publication protocol.
func TestSnapshotsConsistent(t *testing.T) {
	var s snapshots
	w := [][]float32{make([]float32, 64), make([]float32, 3)}
	s.publish(w, 0)
	const last = 2000
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev := int64(-1)
			for prev < last {
				sn := s.acquire()
				v := sn.version
				for _, a := range sn.weights {
					for _, x := range a {
						if x != float32(v) {
							errs <- "a reader saw a snapshot being rewritten"
							sn.release()
							return
						}
					}
				}
				sn.release()
				if v < prev {
					errs <- "versions went backwards"
					return
				}
				prev = v
			}
		}()
	}
	for v := int64(1); v <= last; v++ {
		for _, a := range w {
			for i := range a {
				a[i] = float32(v)
			}
		}
		s.publish(w, v)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if len(s.all) > 6 {
		t.Errorf("%d snapshot buffers for 4 readers; want at most 6 (latest, one per reader, one free)", len(s.all))
	}
}

// TestSaveLoad checks that a checkpoint carries the weights, the optimiser state and
// the counters: a learner loaded from it continues from the same weights and version.
func TestSaveLoad(t *testing.T) {
	l, err := newLearner(guessSetup(false, nil))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, _, err := l.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	c, err := l.Save()
	l.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.F64) == 0 {
		t.Fatal("checkpoint has no optimiser state")
	}
	l2, err := newLearner(guessSetup(false, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if _, err := l2.Load(c); err != nil {
		t.Fatal(err)
	}
	if l2.Version() != 3 || l2.EnvSteps() != c.EnvSteps {
		t.Fatalf("loaded version %d, env steps %d; want 3, %d", l2.Version(), l2.EnvSteps(), c.EnvSteps)
	}
	for _, p := range l2.net.params {
		for j, x := range p.F32() {
			if x != c.F32[p.Name][j] {
				t.Fatalf("%s[%d] = %v after Load, saved %v", p.Name, j, x, c.F32[p.Name][j])
			}
		}
	}
	c2, err := l2.Save()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range c.F64 {
		if len(c2.F64[k]) != len(v) {
			t.Fatalf("optimiser state %s lost between Load and the first step", k)
		}
	}
	if _, _, err := l2.Iterate(); err != nil {
		t.Fatal(err)
	}
}

// A Box action space is refused, with the Nature CNN on pixels as with the MLP, both
// before a run (CheckSpec) and when the network is built, by an error that says IMPALA
// needs Discrete actions and what trains a Box.
func TestRefusesBoxActions(t *testing.T) {
	box := envpool.BoxSpace([]float32{-1, -1}, []float32{1, 1})
	for _, tc := range []struct {
		pixels  bool
		network string
	}{{true, model.NetworkNatureCNN}, {true, model.NetworkAuto}, {false, model.NetworkMLP}} {
		spec := guessSpec(tc.pixels)
		spec.ActionSpace = box
		net := model.NetConfig{Network: tc.network, Hidden: []int{8}, Activation: model.ActTanh, Head: model.HeadAuto}
		errs := map[string]error{"CheckSpec": CheckSpec(net, &spec)}
		_, errs["newNet"] = newNet(&spec, net, 1)
		for where, err := range errs {
			if err == nil || !strings.Contains(err.Error(), "needs Discrete actions") || !strings.Contains(err.Error(), `run.algo = "ppo"`) {
				t.Errorf("%s, %s on a Box: %v", where, tc.network, err)
			}
		}
	}
}

// TestAnnealEntropy checks the entropy cost each learner step uses: with
// anneal_entropy it falls linearly from entropy_cost to 0 over the run's steps, on the
// learning rate's schedule (steps consumed before the update), or over entropy_steps
// when that is set, reaching 0 and staying there while the learning rate goes on; without
// anneal_entropy it stays, entropy_steps or not.
func TestAnnealEntropy(t *testing.T) {
	cases := []struct {
		anneal  bool
		steps   int64
		horizon float64 // 0: no anneal
	}{{false, 0, 0}, {true, 0, 200}, {true, 60, 60}, {false, 60, 0}}
	for _, tc := range cases {
		s := guessSetup(false, func(c *Config) { c.AnnealEntropy, c.EntropySteps, c.EntropyCost = tc.anneal, tc.steps, 0.04 })
		s.TotalSteps = 200 // ten updates of T*B = 20 steps
		l, err := newLearner(s)
		if err != nil {
			t.Fatal(err)
		}
		for it := range 5 {
			if _, _, err := l.Iterate(); err != nil {
				l.Close()
				t.Fatal(err)
			}
			want := 0.04
			if tc.horizon > 0 {
				want = 0.04 * max(0, 1-float64(20*it)/tc.horizon)
			}
			if got := l.st.cfg.EntropyCost; math.Abs(got-want) > 1e-12 {
				l.Close()
				t.Fatalf("anneal_entropy=%v entropy_steps=%d, update %d: entropy cost %v, want %v", tc.anneal, tc.steps, it+1, got, want)
			}
			// The learning rate keeps the run's schedule whatever entropy_steps says.
			if got, want := l.opt.LR(), 3e-3*(1-float64(20*it)/200); math.Abs(got-want) > 1e-12 {
				l.Close()
				t.Fatalf("entropy_steps=%d, update %d: learning rate %v, want %v", tc.steps, it+1, got, want)
			}
		}
		l.Close()
	}
}
