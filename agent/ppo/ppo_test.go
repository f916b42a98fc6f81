package ppo

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"

	"github.com/rlpool/rlpool/agent/optim"
)

// walk is a tiny env for tests: a point that actions push around, episodes of random
// length (terminations) cut at 7 steps by the time limit (truncations).
type walk struct {
	rng *rand.Rand
	x   float64
}

func (w *walk) Reset() { w.x = w.rng.NormFloat64() }

func (w *walk) Step(a []float32) envpool.StepResult {
	w.x += float64(a[0]) - 0.5
	return envpool.StepResult{Reward: float32(-math.Abs(w.x)), Terminated: w.rng.Float64() < 0.1}
}

func (w *walk) Observe(obs envpool.Obs, _ []float32) {
	obs.F32[0], obs.F32[1] = float32(w.x), float32(w.rng.Float64())
}

// testSetup is a test's whole PPO setup: what New takes, in one value.
type testSetup struct {
	agent.Setup
	PPO Config
}

func newTrainer(s testSetup) (*Trainer, error) { return New(s.Setup, s.PPO) }

// startTrainer builds a test's trainer and closes it when the test ends.
func startTrainer(t *testing.T, s testSetup) *Trainer {
	t.Helper()
	tr, err := newTrainer(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

// resumeTrainer builds a test's trainer and loads a checkpoint into it.
func resumeTrainer(t *testing.T, s testSetup, c *agent.Checkpoint) *Trainer {
	t.Helper()
	tr := startTrainer(t, s)
	if _, err := tr.Load(c); err != nil {
		t.Fatal(err)
	}
	return tr
}

// loadFirstSlots writes r's first minibatch-size slots, observations and actions, into
// the training graph's inputs.
func loadFirstSlots(tr *Trainer, r *Rollout) {
	l := tr.train
	act := l.act.Data().([]float32)
	clear(act)
	for k := range l.m {
		tr.loadObs(r, k, k)
		if tr.policy.Head == model.HeadCategorical {
			act[k*tr.policy.ActDim+int(r.Act[k])] = 1
		} else {
			copy(act[k*tr.actWidth:], r.ActRow(k))
		}
	}
}

func walkSetup(space envpool.Space, batch int) testSetup {
	spec := envpool.Spec{TaskID: "Walk-v0", ObsSpace: envpool.UniformBox(-5, 5, envpool.Float32, 2),
		ActionSpace: space, MaxEpisodeSteps: 7, RewardThreshold: math.NaN()}
	cfg := DefaultConfig()
	cfg.NumSteps, cfg.NumMinibatches, cfg.UpdateEpochs = 16, 2, 2
	cfg.NormObs, cfg.NormReward = true, true
	return testSetup{Setup: agent.Setup{Spec: spec, Factory: func(_ int, seed int64) (envpool.Env, error) {
		return &walk{rng: rand.New(rand.NewPCG(uint64(seed), 5))}, nil
	}, Pool: envpool.Options{NumEnvs: 4, BatchSize: batch, NumThreads: 1},
		Net: model.NetConfig{Hidden: []int{8}, Activation: model.ActTanh, Head: model.HeadAuto, OrthoInit: true}, Seed: 1, TotalSteps: 1000}, PPO: cfg}
}

// The log-probabilities stored while acting (computed in Go when sampling) equal what
// the training graph computes for the same observations and actions before any update,
// so the first ratios are 1, also when a sampling temperature divides the logits; and
// every slot of a rollout is a complete transition, with truncations bootstrapped.
func TestRolloutMatchesTrainingGraph(t *testing.T) {
	for _, tc := range []struct {
		name  string
		space envpool.Space
		batch int
		temp  float64
	}{
		{"categorical-sync", envpool.DiscreteSpace(3), 0, 1},
		{"categorical-tempered", envpool.DiscreteSpace(3), 0, 0.25},
		{"gaussian-async", envpool.BoxSpace([]float32{0}, []float32{1}), 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := walkSetup(tc.space, tc.batch)
			s.PPO.Temperature = tc.temp
			tr, err := newTrainer(s)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			if err := tr.reset(); err != nil {
				t.Fatal(err)
			}
			if err := tr.collect(); err != nil {
				t.Fatal(err)
			}
			st := tr.store
			if st.N != 64 || tr.EnvSteps() != 64 {
				t.Fatalf("%d slots, %d env steps; want 64", st.N, tr.EnvSteps())
			}
			truncated, terminated := 0, 0
			for i := range st.N {
				if !st.Complete[i] {
					t.Fatalf("slot %d incomplete", i)
				}
				if st.Truncated[i] {
					truncated++
					if st.FinalValue[i] == 0 {
						t.Errorf("truncated slot %d has no V(final obs)", i)
					}
				}
				if st.Terminated[i] {
					terminated++
				}
			}
			if truncated == 0 || terminated == 0 {
				t.Fatalf("%d truncations, %d terminations: the test needs both", truncated, terminated)
			}
			l := tr.train
			loadFirstSlots(tr, st)
			l.setTemperature(st.Temperature)
			if err := tr.trainM.RunAll(); err != nil {
				t.Fatal(err)
			}
			defer tr.trainM.Reset()
			lp := l.logpOut.Data().([]float32)
			for k := range l.m {
				if d := math.Abs(float64(lp[k] - st.LogP[k])); d > 1e-5 {
					t.Errorf("slot %d: graph log-prob %v, sampled %v", k, lp[k], st.LogP[k])
				}
			}
			if tc.space.Kind != envpool.Discrete {
				return
			}
			// By hand: the stored log-probability is log softmax(z / T)[a] of the
			// acting pass's logits z for the slot's observation.
			if st.Temperature != tc.temp {
				t.Fatalf("rollout temperature %g, want %g", st.Temperature, tc.temp)
			}
			tr.clearInput()
			copy(tr.acting.Obs.Data().([]float32)[:tr.obsDim], st.ObsRow(0))
			out, _, err := tr.forward()
			if err != nil {
				t.Fatal(err)
			}
			z := make([]float32, tr.policy.ActDim)
			for j := range z {
				z[j] = float32(float64(out[j]) / tc.temp)
			}
			m, sum := model.SoftmaxShift(z)
			want := float64(z[int(st.Act[0])]) - m - math.Log(sum)
			if d := math.Abs(want - float64(st.LogP[0])); d > 1e-5 {
				t.Errorf("slot 0: stored log-prob %v, log softmax(z/%g)[a] = %v", st.LogP[0], tc.temp, want)
			}
		})
	}
}

// The learning rate anneals linearly to 0 over run.total_steps, or over
// ppo.anneal_steps when that is set (rollouts of 16 x 4 = 64 steps: 1000 steps are 16
// updates, 2560 are 40), and the clip coefficient follows the same schedule. A
// warm-up of 150 steps (3 updates) scales the learning rate by 1/3, 2/3, 1 on top, and
// leaves the clip coefficient alone.
func TestAnnealHorizon(t *testing.T) {
	for _, tc := range []struct {
		annealSteps, warmup int64
		updates             float64
	}{{0, 0, 16}, {2560, 0, 40}, {0, 150, 16}} {
		s := walkSetup(envpool.DiscreteSpace(3), 0)
		s.PPO.AnnealSteps = tc.annealSteps
		s.PPO.WarmupSteps = tc.warmup
		s.PPO.AnnealClip = true
		tr, err := newTrainer(s)
		if err != nil {
			t.Fatal(err)
		}
		for u := 0; u < 3; u++ {
			_, stats, err := tr.Iterate()
			if err != nil {
				t.Fatal(err)
			}
			frac, warm := 1-float64(u)/tc.updates, 1.0
			if tc.warmup > 0 {
				warm = min(1, float64(u+1)/3)
			}
			want := map[string]float64{"learning_rate": s.PPO.LearningRate * frac * warm, "clip_coef": s.PPO.ClipCoef * frac}
			for _, st := range stats {
				if w, ok := want[st.Name]; ok {
					if math.Abs(st.Value-w) > 1e-7*w {
						t.Errorf("anneal_steps %d, update %d: %s = %g, want %g", tc.annealSteps, u, st.Name, st.Value, w)
					}
					delete(want, st.Name)
				}
			}
			if len(want) != 0 {
				t.Fatalf("update %d: no stats %v", u, want)
			}
		}
		tr.Close()
	}
}

// rl_games' adaptive schedule, by hand: divide by 1.5 above twice the target, multiply
// by 1.5 below half of it, keep in between, and never leave [1e-6, 1e-2].
func TestAdaptLR(t *testing.T) {
	for _, c := range []struct{ lr, kl, want float64 }{
		{3e-4, 0.021, 2e-4},   // above 2 x 0.01
		{3e-4, 0.020, 3e-4},   // exactly 2 x target: kept
		{3e-4, 0.010, 3e-4},   // on target
		{3e-4, 0.005, 3e-4},   // exactly half: kept
		{3e-4, 0.004, 4.5e-4}, // below half
		{1.2e-6, 1, 1e-6},     // floor
		{8e-3, 0, 1e-2},       // ceiling
	} {
		if got := optim.AdaptKL(c.lr, c.kl, 0.01); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("AdaptKL(%g, kl %g) = %g, want %g", c.lr, c.kl, got, c.want)
		}
	}
}

// With adaptive_kl the trainer's rate follows adaptLR epoch by epoch (a target far
// above any KL the walk produces makes every epoch multiply by 1.5), the stat reports
// the rate the update's last epoch stepped with, a checkpoint carries the next one, and
// anneal_lr or warmup_steps alongside is refused, naming the key.
func TestAdaptiveKLSchedule(t *testing.T) {
	s := walkSetup(envpool.DiscreteSpace(3), 0)
	s.PPO.AnnealLR = true
	s.PPO.AdaptiveKL = 5
	if _, err := newTrainer(s); err == nil || !strings.Contains(err.Error(), "anneal_lr") {
		t.Fatalf("adaptive_kl with anneal_lr: %v, want an error naming anneal_lr", err)
	}
	s.PPO.AnnealLR = false
	s.PPO.WarmupSteps = 1000
	if _, err := newTrainer(s); err == nil || !strings.Contains(err.Error(), "warmup_steps") {
		t.Fatalf("adaptive_kl with warmup_steps: %v, want an error naming warmup_steps", err)
	}
	s.PPO.WarmupSteps = 0
	tr, err := newTrainer(s)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	want := s.PPO.LearningRate
	for u := 0; u < 2; u++ {
		_, stats, err := tr.Iterate()
		if err != nil {
			t.Fatal(err)
		}
		for range s.PPO.UpdateEpochs - 1 {
			want *= 1.5
		}
		for _, st := range stats {
			if st.Name == "learning_rate" && math.Abs(st.Value-want) > 1e-12 {
				t.Errorf("update %d: learning_rate %g, want %g", u, st.Value, want)
			}
		}
		want *= 1.5 // the last epoch's adaptation, for the next update
	}
	c, err := tr.Save()
	if err != nil {
		t.Fatal(err)
	}
	tr2 := resumeTrainer(t, s, c)
	if math.Abs(tr2.lr-want) > 1e-12 {
		t.Errorf("resumed rate %g, want %g", tr2.lr, want)
	}
}

// The sampling temperature stays 1 until temperature_start, falls linearly to
// ppo.temperature over temperature_steps, then stays; every update reports the
// temperature its rollout was sampled at (rollouts of 64 steps: updates 0, 1, 2, 3
// start at steps 0, 64, 128, 192).
func TestTemperatureSchedule(t *testing.T) {
	c := DefaultConfig()
	c.Temperature, c.TemperatureStart, c.TemperatureSteps = 0.5, 64, 128
	for _, tc := range []struct {
		step int64
		want float64
	}{{0, 1}, {63, 1}, {64, 1}, {128, 0.75}, {160, 0.625}, {192, 0.5}, {1 << 40, 0.5}} {
		if got := c.TemperatureAt(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("TemperatureAt(%d) = %g, want %g", tc.step, got, tc.want)
		}
	}
	c.TemperatureSteps = 0
	if got := c.TemperatureAt(63); got != 1 {
		t.Errorf("temperature_steps 0: TemperatureAt(63) = %g, want 1", got)
	}
	if got := c.TemperatureAt(64); got != 0.5 {
		t.Errorf("temperature_steps 0: TemperatureAt(64) = %g, want 0.5 at once", got)
	}

	s := walkSetup(envpool.DiscreteSpace(3), 0)
	s.PPO.Temperature, s.PPO.TemperatureStart, s.PPO.TemperatureSteps = 0.5, 64, 128
	tr := startTrainer(t, s)
	for u, want := range []float64{1, 1, 0.75, 0.5} {
		_, stats, err := tr.Iterate()
		if err != nil {
			t.Fatal(err)
		}
		got := math.NaN()
		for _, st := range stats {
			if st.Name == "temperature" {
				got = st.Value
			}
		}
		if got != want {
			t.Errorf("update %d: temperature %g, want %g", u, got, want)
		}
	}
}

// A temperature other than 1 needs a categorical head: a Gaussian policy is refused
// with the key to change.
func TestTemperatureNeedsCategorical(t *testing.T) {
	s := walkSetup(envpool.BoxSpace([]float32{0}, []float32{1}), 0)
	s.PPO.Temperature = 0.5
	tr, err := newTrainer(s)
	if err == nil {
		tr.Close()
		t.Fatal("a Gaussian policy with ppo.temperature = 0.5 was accepted")
	}
	if !strings.Contains(err.Error(), "ppo.temperature") {
		t.Errorf("error %q does not name ppo.temperature", err)
	}
}
