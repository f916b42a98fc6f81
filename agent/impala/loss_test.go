package impala

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/gradcheck"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// randomLossState returns a loss over T steps of B unrolls with A actions, off-policy
// behaviour log-probs (so that rho is clipped somewhere), random rewards and episode
// ends.
func randomLossState(rng *rand.Rand, T, B, A int, dt tensor.Dtype) *lossState {
	st := newLossState(T, B, A, dt, LossConfig{VTrace: VTraceParams{RhoBar: 1, CBar: 0.9, RhoBarPG: 1.1},
		BaselineCost: 0.5, EntropyCost: 0.03})
	for i := range T * B {
		st.action[i] = rng.IntN(A)
		st.reward[i] = rng.NormFloat64()
		st.discount[i] = 0.95
		if rng.Float64() < 0.2 {
			st.discount[i] = 0
		}
		st.logMu[i] = math.Log(0.05 + 0.9*rng.Float64())
	}
	return st
}

// TestLossGradientFiniteDifferences checks the loss op's analytic gradient with respect
// to logits and values against central differences of the loss, with the V-trace
// targets held fixed (they are constants for the gradient, as in the reference code).
func TestLossGradientFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const T, B, A = 5, 3, 4
	st := randomLossState(rng, T, B, A, tensor.Float64)
	g := G.NewGraph()
	logitsN, logitsT := model.Input(g, tensor.Float64, "logits", st.rows(), A)
	valuesN, valuesT := model.Input(g, tensor.Float64, "values", st.rows())
	logits, values := logitsT.Data().([]float64), valuesT.Data().([]float64)
	for i := range logits {
		logits[i] = rng.NormFloat64()
	}
	for i := range values {
		values[i] = rng.NormFloat64()
	}
	loss, err := vtraceLoss(logitsN, valuesN, st)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := G.Grad(loss, logitsN, valuesN)
	if err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	dLogits := append([]float64(nil), grads[0].Value().Data().([]float64)...)
	dValues := append([]float64(nil), grads[1].Value().Data().([]float64)...)
	if got := model.ScalarValue(loss.Value()); math.Abs(got-st.total) > 1e-12 {
		t.Fatalf("loss node %g, state %g", got, st.total)
	}
	if st.rhoClipped == 0 {
		t.Fatal("test data never clips rho; make it more off-policy")
	}
	m.Reset()

	st.frozen = true
	lossAt := func() float64 {
		if err := st.forward(logits, values); err != nil {
			t.Fatal(err)
		}
		return st.total
	}
	checkFiniteDifferences(t, "logits", logits, "analytic", dLogits, lossAt, 1e-6)
	checkFiniteDifferences(t, "values", values, "analytic", dValues, lossAt, 1e-6)
	// The bootstrap rows enter only the targets: no gradient.
	for i := T * B; i < st.rows(); i++ {
		if dValues[i] != 0 {
			t.Errorf("d loss/d V(x_T) [%d] = %g, want 0 (the bootstrap value is a constant)", i, dValues[i])
		}
	}
}

// TestLossGradientThroughNetwork checks the whole learner graph, an MLP actor-critic
// feeding the loss op, against finite differences in its weights (float64 graph).
func TestLossGradientThroughNetwork(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const T, B = 4, 2
	spec := envpool.Spec{TaskID: "Test-v0", ObsSpace: envpool.UniformBox(-1, 1, envpool.Float32, 3),
		ActionSpace: envpool.DiscreteSpace(3)}
	pol, err := model.NewPolicy(&spec, model.NetConfig{Hidden: []int{5}, Activation: model.ActTanh, Head: model.HeadAuto}, tensor.Float64)
	if err != nil {
		t.Fatal(err)
	}
	st := randomLossState(rng, T, B, pol.ActDim, tensor.Float64)
	g := G.NewGraph()
	obsN, obsT := model.Input(g, tensor.Float64, "obs", st.rows(), pol.ObsDim)
	pn, err := pol.Build(g, obsN)
	if err != nil {
		t.Fatal(err)
	}
	loss, err := vtraceLoss(pn.Out, pn.Value, st)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := G.Grad(loss, pn.Params...)
	if err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g)
	defer m.Close()
	pol.Init(rng)
	// Larger output weights than the 0.01 init, so the policy is far from uniform.
	for _, p := range pol.Params() {
		d := p.T.Data().([]float64)
		for i := range d {
			d[i] += 0.5 * rng.NormFloat64()
		}
	}
	for i, d := 0, obsT.Data().([]float64); i < len(d); i++ {
		d[i] = rng.NormFloat64()
	}
	run := func() float64 {
		defer m.Reset()
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}
		return model.ScalarValue(loss.Value())
	}
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	var analytic [][]float64
	for _, gn := range grads {
		analytic = append(analytic, append([]float64(nil), gn.Value().Data().([]float64)...))
	}
	m.Reset()
	st.frozen = true
	for k, p := range pol.Params() {
		checkFiniteDifferences(t, p.Name, p.T.Data().([]float64), "graph", analytic[k], run, 1e-5)
	}
}

// checkFiniteDifferences compares grad (from source, the analytic side), the gradient
// of loss with respect to x (which loss reads), against central differences of step
// 1e-6, and reports each element further apart than tol times max(1, |difference|).
func checkFiniteDifferences(t *testing.T, name string, x []float64, source string, grad []float64, loss func() float64, tol float64) {
	t.Helper()
	for i := range x {
		num := gradcheck.Central(x, i, 1e-6, loss)
		if math.Abs(num-grad[i]) > tol*math.Max(1, math.Abs(num)) {
			t.Errorf("d loss/d %s[%d]: %s %.9g, finite differences %.9g", name, i, source, grad[i], num)
		}
	}
}
