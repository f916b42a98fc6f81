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
// so the first ratios are 1; and every slot of a rollout is a complete transition, with
// truncations bootstrapped.
func TestRolloutMatchesTrainingGraph(t *testing.T) {
	for _, tc := range []struct {
		name  string
		space envpool.Space
		batch int
	}{
		{"categorical-sync", envpool.DiscreteSpace(3), 0},
		{"gaussian-async", envpool.BoxSpace([]float32{0}, []float32{1}), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := newTrainer(walkSetup(tc.space, tc.batch))
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
