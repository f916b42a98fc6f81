package ppo

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// Geometry of the synthetic pixel task: the smallest frames the Nature CNN takes
// (36 -> 8 -> 3 -> 1 after its three convolutions), two stacked planes.
const (
	cueC, cueH, cueW = 2, 36, 36
	cueLifeSteps     = 5  // steps per life
	cueLives         = 3  // lives per game
	cueRawReward     = 10 // raw reward of a right answer; the learner sees 1
)

// cue is a synthetic Atari-like env with uint8 C x H x W observations: a bright block
// on the left or right half of the frame says which of two actions pays. Like an Atari
// task with episodic_life and reward_clip, a lost life ends the learner's episode
// (Terminated) every cueLifeSteps steps, a game has cueLives lives, the reward is
// clipped to 1 while the "reward" info carries the raw 10, and "terminated" marks the
// game's end. Pixel (0, 0, 0) holds the step count of the game, so tests can follow
// observations through the rollout.
type cue struct {
	rng         *rand.Rand
	side        int // 0: block on the left, 1: on the right
	step, lives int
	raw         float32
}

var cueInfo = []string{"lives", "reward", "terminated"}

func (c *cue) Reset() {
	if c.lives == 0 { // a new game; otherwise the next life of this one
		c.lives, c.step = cueLives, 0
	}
	c.side, c.raw = c.rng.IntN(2), 0
}

func (c *cue) Step(a []float32) envpool.StepResult {
	r := float32(0)
	c.raw = 0
	if int(a[0]) == c.side {
		r, c.raw = 1, cueRawReward
	}
	c.step++
	c.side = c.rng.IntN(2)
	lifeOver := c.step%cueLifeSteps == 0
	if lifeOver {
		c.lives--
	}
	return envpool.StepResult{Reward: r, Terminated: lifeOver}
}

func (c *cue) Observe(obs envpool.Obs, info []float32) {
	clear(obs.U8)
	for p := range cueC {
		for y := 8; y < 28; y++ {
			for x := 2; x < 16; x++ {
				obs.U8[(p*cueH+y)*cueW+x+c.side*18] = 200
			}
		}
	}
	obs.U8[0] = uint8(c.step)
	info[0], info[1] = float32(c.lives), c.raw
	info[2] = 0
	if c.lives == 0 {
		info[2] = 1
	}
}

func cueSetup(batch int) testSetup {
	spec := envpool.Spec{TaskID: "Cue-v0", ObsSpace: envpool.UniformBox(0, 255, envpool.Uint8, cueC, cueH, cueW),
		ActionSpace: envpool.DiscreteSpace(2), InfoKeys: cueInfo, RewardThreshold: math.NaN()}
	cfg := DefaultConfig()
	cfg.NumSteps, cfg.NumMinibatches, cfg.UpdateEpochs = 16, 2, 4
	cfg.LearningRate = 1e-3
	return testSetup{Setup: agent.Setup{Spec: spec, Factory: func(_ int, seed int64) (envpool.Env, error) {
		return &cue{rng: rand.New(rand.NewPCG(uint64(seed), 7))}, nil
	}, Pool: envpool.Options{NumEnvs: 8, BatchSize: batch, NumThreads: 1},
		Net: model.DefaultNetConfig(), Seed: 3, TotalSteps: 20 * 8 * 16}, PPO: cfg}
}

// The Nature CNN path keeps observations uint8 from the pool to the rollout: each
// slot holds exactly the frame the env showed when the action was taken, in sync and
// async mode; the acting log-probabilities match the training graph's; and episodes
// are logged per game with raw rewards, not per life with clipped ones.
func TestPixelRolloutAndRawEpisodes(t *testing.T) {
	for _, batch := range []int{0, 4} {
		tr, err := newTrainer(cueSetup(batch))
		if err != nil {
			t.Fatal(err)
		}
		if tr.policy.Torso == nil || tr.store.ObsU8 == nil || len(tr.store.Obs) != 0 {
			t.Fatalf("batch %d: want a CNN policy and a uint8 rollout", batch)
		}
		eps, _, err := tr.Iterate()
		if err != nil {
			t.Fatal(err)
		}
		// Slots follow each env's steps in order: the step counter in pixel 0 is the
		// game's step count, which runs over lives and restarts with each game.
		last := map[int32]int{}
		for i := range tr.store.N {
			e, got := tr.store.EnvID[i], int(tr.store.ObsRowU8(i)[0])
			want := 0
			if prev, ok := last[e]; ok {
				want = (prev + 1) % (cueLifeSteps * cueLives)
			}
			if got != want {
				t.Fatalf("batch %d: slot %d (env %d) holds the frame of step %d, want %d", batch, i, e, got, want)
			}
			last[e] = got
			if tr.store.Reward[i] != 0 && tr.store.Reward[i] != 1 {
				t.Fatalf("slot %d: the learner saw reward %v, want the clipped 0 or 1", i, tr.store.Reward[i])
			}
		}
		// 8 envs x 16 steps: each env finishes one 15-step game.
		if len(eps) != 8 {
			t.Fatalf("batch %d: %d episodes logged, want 8 whole games", batch, len(eps))
		}
		for _, ep := range eps {
			if ep.Length != cueLifeSteps*cueLives || math.Mod(ep.Return, cueRawReward) != 0 || ep.Return > cueRawReward*cueLifeSteps*cueLives {
				t.Errorf("batch %d: episode %+v: want length %d and a raw return in multiples of %d", batch, ep, cueLifeSteps*cueLives, cueRawReward)
			}
		}
		tr.Close()
	}
}

// The first minibatch's ratios are 1: the Go-side sampler and the training graph agree
// on log pi(a|s) for pixel observations read back from the uint8 rollout, in the first
// rollout and in one after an update (the acting graph, which holds its converted
// weights through a rollout, sees each update).
func TestPixelLogProbsMatchTrainingGraph(t *testing.T) {
	tr, err := newTrainer(cueSetup(0))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if err := tr.reset(); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		if err := tr.collect(); err != nil {
			t.Fatal(err)
		}
		l := tr.train
		act := l.act.Data().([]float32)
		clear(act)
		for k := range l.m {
			tr.loadObs(tr.store, k, k)
			act[k*tr.policy.ActDim+int(tr.store.Act[k])] = 1
		}
		if err := tr.trainM.RunAll(); err != nil {
			t.Fatal(err)
		}
		defer tr.trainM.Reset()
		lp := l.logpOut.Data().([]float32)
		for k := range l.m {
			if d := math.Abs(float64(lp[k] - tr.store.LogP[k])); d > 1e-4 {
				t.Fatalf("%s, row %d: graph log-prob %v, sampled with %v", when, k, lp[k], tr.store.LogP[k])
			}
		}
	}
	check("first rollout")
	before := append([]float32(nil), tr.params[0].F32()...)
	if _, _, err := tr.Iterate(); err != nil {
		t.Fatal(err)
	}
	if slices.Equal(before, tr.params[0].F32()) {
		t.Fatal("the update left the first weights unchanged")
	}
	check("after an update")
}

// PPO with either CNN torso learns the cue task: the raw return of a game climbs from
// chance (75) to near the 150 maximum within 2560 env steps.
func TestPixelPPOLearnsCue(t *testing.T) {
	for _, network := range []string{model.NetworkNatureCNN, model.NetworkSmallCNN} {
		t.Run(network, func(t *testing.T) {
			s := cueSetup(4)
			s.Net.Network = network
			tr, err := newTrainer(s)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			if got, want := len(tr.policy.Torso.Params), model.CNNArch(network).NumParams(); got != want {
				t.Fatalf("torso with %d parameters, want %d", got, want)
			}
			rets := trainToEnd(t, tr, nil)
			first, lastRets := meanOf(rets[:16]), meanOf(rets[len(rets)-16:])
			t.Logf("first %.1f last %.1f", first, lastRets)
			if lastRets < 130 {
				t.Fatalf("mean raw return of the last 16 games %.1f (first 16: %.1f); want at least 130 of 150", lastRets, first)
			}
		})
	}
}

// Settings that do not fit pixels, or a CNN that does not fit a task, are errors that
// name the key.
func TestPixelConfigErrors(t *testing.T) {
	s := cueSetup(0)
	s.PPO.NormObs = true
	if _, err := newTrainer(s); err == nil || !strings.Contains(err.Error(), "ppo.norm_obs") {
		t.Errorf("norm_obs on pixels: %v", err)
	}
	if err := CheckSpec(s.PPO, s.Net, &s.Spec); err == nil || !strings.Contains(err.Error(), "ppo.norm_obs") {
		t.Errorf("CheckSpec norm_obs on pixels: %v", err)
	}
	s = cueSetup(0)
	s.Net.Network = model.NetworkMLP
	if _, err := newTrainer(s); err == nil || !strings.Contains(err.Error(), "net.network = mlp") {
		t.Errorf("mlp on pixels: %v", err)
	}
	w := walkSetup(envpool.DiscreteSpace(2), 0)
	w.Net.Network = model.NetworkNatureCNN
	if err := CheckSpec(w.PPO, w.Net, &w.Spec); err == nil || !strings.Contains(err.Error(), "net.network = nature_cnn") {
		t.Errorf("nature_cnn on float32 vectors: %v", err)
	}
	w.Net.Network = model.NetworkSmallCNN
	if err := CheckSpec(w.PPO, w.Net, &w.Spec); err == nil || !strings.Contains(err.Error(), "net.network = small_cnn") {
		t.Errorf("small_cnn on float32 vectors: %v", err)
	}
	w.Net.Network = model.NetworkAuto
	if err := CheckSpec(w.PPO, w.Net, &w.Spec); err != nil {
		t.Errorf("auto on float32 vectors: %v", err)
	}
}

// trainToEnd runs a trainer's whole step budget, calling afterUpdate (when not nil)
// after each update, and returns the returns of the episodes that finished, in order.
func trainToEnd(t *testing.T, tr *Trainer, afterUpdate func()) []float64 {
	t.Helper()
	var rets []float64
	for tr.Updates() < tr.NumUpdates() {
		eps, _, err := tr.Iterate()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range eps {
			rets = append(rets, e.Return)
		}
		if afterUpdate != nil {
			afterUpdate()
		}
	}
	return rets
}

// meanOf is the mean of xs.
func meanOf(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
