package ppo

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// Geometry of the synthetic continuous pixel task: the smallest frames the Nature CNN
// takes, two stacked planes, one action dimension in [-1, 1].
const (
	aimC, aimH, aimW = 2, 36, 36
	aimTarget        = 0.5 // the action that pays best
	aimEpisodeSteps  = 8
	// A std of 0.37 to start: with std 1 a third of the actions fall outside the box,
	// and the best mean of the clipped actions lies above 1 rather than at the target.
	aimInitLogStd = -1.0
)

// aim is a synthetic pixel task with a continuous action, like the control suite's
// rendered ones: uint8 C x H x W frames of noise, and a reward of -|a - 0.5| on every
// step, so the policy's mean should move to 0.5 and its spread shrink. Episodes end
// (Terminated) after aimEpisodeSteps steps. Actions outside the box [-1, 1] are
// counted in outside, shared by all envs of a setup.
type aim struct {
	rng     *rand.Rand
	step    int
	outside *atomic.Int64
}

func (a *aim) Reset() { a.step = 0 }

func (a *aim) Step(act []float32) envpool.StepResult {
	if act[0] < -1 || act[0] > 1 {
		a.outside.Add(1)
	}
	a.step++
	return envpool.StepResult{Reward: -float32(math.Abs(float64(act[0]) - aimTarget)), Terminated: a.step == aimEpisodeSteps}
}

func (a *aim) Observe(obs envpool.Obs, _ []float32) {
	for i := range obs.U8 {
		obs.U8[i] = uint8(a.rng.IntN(256))
	}
}

// aimSetup returns the aim task's PPO setup and the count of actions outside the box
// its envs receive.
func aimSetup(batch int) (testSetup, *atomic.Int64) {
	outside := new(atomic.Int64)
	spec := envpool.Spec{TaskID: "Aim-v0", ObsSpace: envpool.UniformBox(0, 255, envpool.Uint8, aimC, aimH, aimW),
		ActionSpace: envpool.BoxSpace([]float32{-1}, []float32{1}), RewardThreshold: math.NaN()}
	cfg := DefaultConfig()
	cfg.NumSteps, cfg.NumMinibatches, cfg.UpdateEpochs = 16, 2, 4
	cfg.LearningRate, cfg.EntCoef = 1e-3, 0
	net := model.DefaultNetConfig()
	net.InitLogStd = aimInitLogStd
	return testSetup{Setup: agent.Setup{Spec: spec, Factory: func(_ int, seed int64) (envpool.Env, error) {
		return &aim{rng: rand.New(rand.NewPCG(uint64(seed), 9)), outside: outside}, nil
	}, Pool: envpool.Options{NumEnvs: 8, BatchSize: batch, NumThreads: 1},
		Net: net, Seed: 5, TotalSteps: 20 * 8 * 16}, PPO: cfg}, outside
}

// CheckSpec takes nature_cnn (and auto) on pixels with a Box action space, building a
// Gaussian CNN policy, and still refuses norm_obs on pixels.
func TestPixelGaussianSpec(t *testing.T) {
	s, _ := aimSetup(0)
	for _, network := range []string{model.NetworkNatureCNN, model.NetworkAuto} {
		s.Net.Network = network
		if err := CheckSpec(s.PPO, s.Net, &s.Spec); err != nil {
			t.Errorf("network %s on pixels with a Box: %v", network, err)
		}
		p, err := newPolicy(&s.Spec, s.Net, s.PPO)
		if err != nil {
			t.Fatal(err)
		}
		if p.Torso == nil || p.Head != model.HeadGaussian || p.ActDim != 1 || p.LogStd == nil {
			t.Errorf("network %s: torso %v, head %q, ActDim %d: want a Gaussian CNN", network, p.Torso != nil, p.Head, p.ActDim)
		}
	}
	s.PPO.NormObs = true
	if err := CheckSpec(s.PPO, s.Net, &s.Spec); err == nil || !strings.Contains(err.Error(), "ppo.norm_obs") {
		t.Errorf("CheckSpec norm_obs on pixels with a Box: %v", err)
	}
	s.PPO.NormObs = false
	s.Net.Head = model.HeadCategorical
	if err := CheckSpec(s.PPO, s.Net, &s.Spec); err == nil || !strings.Contains(err.Error(), "net.head") {
		t.Errorf("CheckSpec categorical head on a Box: %v", err)
	}
}

// On a float32 graph the PPO loss's gradients with respect to the Gaussian CNN
// policy's actor means (weights and biases) and its log std match central finite
// differences, with ratios both inside and outside the clip range. The step is large
// for float32 and the ratios keep well away from the clip bounds, so that no step
// crosses a kink of the clipped objective.
func TestPixelGaussianLossGradient(t *testing.T) {
	s, _ := aimSetup(0)
	s.Spec.ActionSpace = envpool.BoxSpace([]float32{-1, -1}, []float32{1, 1})
	s.Net.InitLogStd = -0.3
	s.Net.OrthoInit = false // PyTorch's init: actor means larger than orthogonal 0.01's
	p, err := model.NewCNNPolicy(&s.Spec, s.Net, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := s.PPO
	cfg.EntCoef = 0.05
	const m = 6
	l, err := buildLoss(p, cfg, m, tensor.Float32)
	if err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(l.g) // before the weights are set: creating it writes into them
	defer vm.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	p.Init(rng)
	for i := range l.obs.Data().([]uint8) {
		l.obs.Data().([]uint8)[i] = uint8(rng.IntN(256))
	}
	normal := func(int) float64 { return rng.NormFloat64() }
	fillTensor(l.act, normal)
	fillTensor(l.adv, normal)
	fillTensor(l.ret, normal)
	run := func() float64 { return lossOnce(t, vm, l) }
	run()
	// Log ratios of -0.05, 0.5, -0.4, 0.08, -0.3, 0.1 against the clip bounds
	// log 0.8 = -0.22 and log 1.2 = 0.18: three inside, three outside.
	lp := append([]float32(nil), l.logpOut.Data().([]float32)...)
	fillTensor(l.oldLP, func(i int) float64 { return float64(lp[i]) + []float64{0.05, -0.5, 0.4, -0.08, 0.3, -0.1}[i] })
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	grads := map[string][]float64{}
	for i, g := range l.grads {
		grads[l.params[i].Name] = model.Float64s(g.Value().(*tensor.Dense))
	}
	vm.Reset()

	checked, significant := 0, 0
	for _, par := range append(p.Actor.Params, *p.LogStd) {
		// Every entry of the biases and the log std; every 41st weight (a spread over
		// the 512 features and both action dimensions).
		stride := 1
		if par.Name == "actor.w0" {
			stride = 41
		}
		n, sig := checkFiniteDifferences(t, run, par.Name, par.F32(), grads[par.Name], stride, 1e-2,
			func(fd float64) float64 { return 2e-4 + 2e-3*math.Abs(fd) })
		checked, significant = checked+n, significant+sig
	}
	if checked < 25 || significant < checked/2 {
		t.Fatalf("checked %d weights, %d with a gradient above 1e-2: the test needs more", checked, significant)
	}
}

// PPO with the Gaussian Nature CNN learns the aim task within 2560 env steps: the mean
// return of an episode climbs from about -4.4 (means near 0, std 0.37) by at least 1.5
// (to about -2), the policy's mean moves to within 0.2 of 0.5 and its log std falls.
func TestPixelGaussianPPOLearnsAim(t *testing.T) {
	s, outside := aimSetup(4)
	tr := startTrainer(t, s)
	sampledOutside := 0
	rets := trainToEnd(t, tr, func() {
		for _, a := range tr.store.Act {
			if a < -1 || a > 1 {
				sampledOutside++
			}
		}
	})
	// The rollout keeps the sampled actions (their log-probabilities are of those), but
	// the envs see them clipped to the box.
	if sampledOutside == 0 || outside.Load() != 0 {
		t.Errorf("%d sampled actions outside the box, %d of them reached the envs: want some, and none", sampledOutside, outside.Load())
	}
	first, last := meanOf(rets[:16]), meanOf(rets[len(rets)-16:])
	// The policy's means on the envs' current frames.
	for k := range tr.batch {
		tr.inputHeld(k, k)
	}
	out, _, err := tr.forward()
	if err != nil {
		t.Fatal(err)
	}
	mu := 0.0
	for _, v := range out {
		mu += float64(v) / float64(len(out))
	}
	logStd := tr.policy.LogStd.F32()[0]
	t.Logf("mean return: first 16 episodes %.2f, last 16 %.2f; mean action %.2f, log std %.2f", first, last, mu, logStd)
	if last < first+1.5 {
		t.Errorf("mean return of the last 16 episodes %.2f, of the first 16 %.2f: want a rise of at least 1.5", last, first)
	}
	if math.Abs(mu-aimTarget) > 0.2 || float64(logStd) > aimInitLogStd-0.02 {
		t.Errorf("mean action %.2f, log std %.2f after training: want the mean within 0.2 of %g and the log std below its start at %g", mu, logStd, aimTarget, aimInitLogStd)
	}
}

// A Gaussian CNN trainer's checkpoint holds every weight, the log std among them, and
// brings them back through the file format both into a trainer (resume) and into the
// evaluation policy; a categorical CNN's checkpoint has no log std.
func TestPixelGaussianCheckpointRoundTrip(t *testing.T) {
	s, _ := aimSetup(0)
	tr := startTrainer(t, s)
	if _, _, err := tr.Iterate(); err != nil {
		t.Fatal(err)
	}
	saved, err := tr.Save()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := saved.Write(&buf); err != nil {
		t.Fatal(err)
	}
	c, err := agent.ReadCheckpoint(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if ls := c.F32["actor.logstd"]; len(ls) != 1 || ls[0] == aimInitLogStd {
		t.Fatalf("checkpoint log std %v: want the one trained value (moved from its start at %g)", ls, aimInitLogStd)
	}
	tr2 := resumeTrainer(t, s, c)
	pol, err := Algorithm.Policy(&s.PPO, s.Net, &s.Spec, c)
	if err != nil {
		t.Fatal(err)
	}
	want := tr.Policy().Params()
	for _, got := range [][]model.Param{tr2.Policy().Params(), pol.Policy.Params()} {
		if len(got) != len(want) {
			t.Fatalf("%d parameters restored, want %d", len(got), len(want))
		}
		for i, p := range got {
			if p.Name != want[i].Name || !equalF32(p.F32(), want[i].F32()) {
				t.Errorf("restored %s differs from the saved %s", p.Name, want[i].Name)
			}
		}
	}
	if pol.Policy.Head != model.HeadGaussian || pol.Policy.LogStd == nil {
		t.Errorf("evaluation policy head %q: want the Gaussian", pol.Policy.Head)
	}

	cc, err := startTrainer(t, cueSetup(0)).Save()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cc.F32["actor.logstd"]; ok {
		t.Error("a categorical CNN checkpoint holds actor.logstd")
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
