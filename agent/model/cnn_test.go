package model

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// The Nature CNN policy on a Box action space has the MLP policy's Gaussian head: its
// actor outputs the means f W + b of the torso's features f, and the log-probabilities
// and entropy of the graph, and the log-probability Sample returns, are the diagonal
// Gaussian's, computed here by hand in float64 for fixed weights, pixels and actions.
func TestGaussianCNNLogProbEntropy(t *testing.T) {
	const c, h, w, batch = 2, 36, 36, 3
	spec := envpool.Spec{TaskID: "Pix-v0", ObsSpace: envpool.UniformBox(0, 255, envpool.Uint8, c, h, w),
		ActionSpace: envpool.BoxSpace([]float32{-1, -1, -1}, []float32{1, 1, 1})}
	cfg := DefaultNetConfig()
	cfg.InitLogStd = -0.4
	p, err := NewCNNPolicy(&spec, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Head != HeadGaussian || p.ActDim != 3 || p.LogStd == nil {
		t.Fatalf("head %q, ActDim %d, log std %v: want a 3-dimensional Gaussian", p.Head, p.ActDim, p.LogStd)
	}
	var names []string
	for _, q := range p.Params() {
		names = append(names, q.Name)
	}
	if i := slices.Index(names, "actor.logstd"); i < 0 || names[i-1] != "actor.b0" || names[i+1] != "critic.w0" {
		t.Fatalf("parameters %v: want actor.logstd between the actor and the critic", names)
	}

	// The policy's graph and, on the same weights, the torso alone (its features).
	g := G.NewGraph()
	obs, obsT := p.ObsInput(g, tensor.Float32, "obs", batch)
	act, actT := Input(g, tensor.Float32, "act", batch, p.ActDim)
	pn, err := p.Build(g, obs)
	if err != nil {
		t.Fatal(err)
	}
	logp, ent, err := p.LogProbEntropy(g, pn, act)
	if err != nil {
		t.Fatal(err)
	}
	var outV, logpV, entV G.Value
	G.Read(pn.Out, &outV)
	G.Read(logp, &logpV)
	G.Read(ent, &entV)
	gf := G.NewGraph()
	fobs := G.NewTensor(gf, tensor.Uint8, 4, G.WithShape(obsT.Shape()...), G.WithName("obs"), G.WithValue(obsT))
	feat, _, err := p.Torso.Build(gf, fobs, TorsoKernels{Backend: nn.BackendGo})
	if err != nil {
		t.Fatal(err)
	}
	var featV G.Value
	G.Read(feat, &featV)
	vm, fvm := G.NewTapeMachine(g), G.NewTapeMachine(gf)
	defer vm.Close()
	defer fvm.Close()

	rng := rand.New(rand.NewPCG(11, 12))
	p.Init(rng)
	// Actor weights large enough that the means differ clearly between rows, and a log
	// std that differs per dimension.
	wa := p.Actor.Params[0].F32()
	for i := range wa {
		wa[i] = float32(rng.NormFloat64() * 0.05)
	}
	copy(p.Actor.Params[1].F32(), []float32{0.3, -0.2, 0.1})
	copy(p.LogStd.F32(), []float32{-0.5, 0.2, -1.1})
	for i := range obsT.Data().([]uint8) {
		obsT.Data().([]uint8)[i] = uint8(rng.IntN(256))
	}
	acts := []float64{0.5, -0.7, 0.2, -1.5, 0.9, 0, 0.05, 0.3, -0.4}
	SetFloat64s(actT, acts)

	for _, m := range []G.VM{vm, fvm} {
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}
	}
	f := Float64s(featV.(*tensor.Dense))
	wv, bv, ls := Float64s(p.Actor.Params[0].T), Float64s(p.Actor.Params[1].T), Float64s(p.LogStd.T)
	out := Float64s(outV.(*tensor.Dense))
	gotLP := Float64s(logpV.(*tensor.Dense))
	nonzero := 0
	for _, v := range f {
		if v != 0 {
			nonzero++
		}
	}
	if nonzero < len(f)/10 {
		t.Fatalf("only %d of %d features are nonzero: the test needs a torso that responds", nonzero, len(f))
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-5*(1+math.Abs(want)) {
			t.Errorf("%s = %.7g, want %.7g", what, got, want)
		}
	}
	const d = 3
	for r := range batch {
		lp := 0.0
		for j := range d {
			mu := bv[j]
			for i := range nn.NatureArch.Features {
				mu += f[r*nn.NatureArch.Features+i] * wv[i*d+j]
			}
			near("mean", out[r*d+j], mu)
			sigma := math.Exp(ls[j])
			z := (acts[r*d+j] - mu) / sigma
			lp += -0.5*z*z - math.Log(sigma) - 0.5*math.Log(2*math.Pi)
		}
		near("log-prob", gotLP[r], lp)
	}
	// The entropy of a diagonal Gaussian: the sum over dimensions of
	// 0.5 log(2 pi e sigma^2).
	wantH := 0.0
	for _, l := range ls {
		wantH += 0.5 * math.Log(2*math.Pi*math.E*math.Exp(2*l))
	}
	near("entropy", ScalarValue(entV), wantH)

	// Acting: Sample's log-probability is the same Gaussian's for the action it draws,
	// and Greedy acts with the mean.
	outF := outV.Data().([]float32)[:d]
	a := make([]float32, d)
	lp := p.Sample(outF, rng, a)
	want := 0.0
	for j := range d {
		z := (float64(a[j]) - float64(outF[j])) / math.Exp(ls[j])
		want += -0.5*z*z - ls[j] - 0.5*math.Log(2*math.Pi)
	}
	near("sampled log-prob", float64(lp), want)
	p.Greedy(outF, a)
	if !slices.Equal(a, outF) {
		t.Errorf("greedy action %v, want the mean %v", a, outF)
	}
}

// The small torso has the first DQN paper's layers under the same names as the Nature
// CNN's (agent's checkpoint tests check that one does not load into the other).
func TestSmallCNNPolicy(t *testing.T) {
	spec := envpool.Spec{TaskID: "Pix-v0", ObsSpace: envpool.UniformBox(0, 255, envpool.Uint8, 4, 84, 84),
		ActionSpace: envpool.DiscreteSpace(6)}
	small, err := NewCNNPolicy(&spec, DefaultNetConfig(), &nn.SmallArch)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int{"conv1_w": {16, 4, 8, 8}, "conv1_b": {16}, "conv2_w": {32, 16, 4, 4}, "conv2_b": {32},
		"dense_w": {32 * 9 * 9, 256}, "dense_b": {256}, "actor.w0": {256, 6}, "actor.b0": {6}, "critic.w0": {256, 1}, "critic.b0": {1}}
	ps := small.Params()
	if len(ps) != len(want) {
		t.Fatalf("%d parameters, want %d", len(ps), len(want))
	}
	for _, p := range ps {
		if sh, ok := want[p.Name]; !ok || !slices.Equal([]int(p.T.Shape()), sh) {
			t.Errorf("%s: shape %v, want %v", p.Name, p.T.Shape(), sh)
		}
	}
	if _, err := ResolveNetwork(NetworkSmallCNN, &spec); err != nil {
		t.Errorf("small_cnn on pixels: %v", err)
	}
}
