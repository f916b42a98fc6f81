package ppo

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

// The PPO loss gradient of every weight, on a float64 graph, matches central finite
// differences: for both heads, with and without the clipped value loss, with a
// sampling temperature dividing the logits, with ratios both inside and outside the
// clip range.
func TestLossGradientMatchesFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		name  string
		space envpool.Space
		clipV bool
		temp  float64
	}{
		{"categorical", envpool.DiscreteSpace(3), true, 1},
		{"categorical-noclipv", envpool.DiscreteSpace(3), false, 1},
		{"categorical-tempered", envpool.DiscreteSpace(3), true, 0.4},
		{"gaussian", envpool.BoxSpace([]float32{-1, -1}, []float32{1, 1}), true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := envpool.Spec{TaskID: "test", ObsSpace: envpool.UniformBox(-1, 1, envpool.Float32, 4), ActionSpace: tc.space}
			net := model.NetConfig{Hidden: []int{5, 4}, Activation: model.ActTanh, Head: model.HeadAuto, InitLogStd: -0.3}
			p, err := model.NewPolicy(&spec, net, tensor.Float64)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(7, 8))
			p.Init(rng) // PyTorch-default init: larger outputs than orthogonal 0.01
			cfg := DefaultConfig()
			cfg.ClipVLoss = tc.clipV
			cfg.EntCoef = 0.05
			const m = 6
			l, err := buildLoss(p, cfg, m, tensor.Float64)
			if err != nil {
				t.Fatal(err)
			}
			l.setTemperature(tc.temp)
			vm := G.NewTapeMachine(l.g)
			defer vm.Close()
			fillTensor(l.obs, func(int) float64 { return rng.NormFloat64() })
			if p.Head == model.HeadCategorical {
				fillTensor(l.act, func(i int) float64 {
					if i%p.ActDim == (i/p.ActDim)%p.ActDim {
						return 1
					}
					return 0
				})
			} else {
				fillTensor(l.act, func(int) float64 { return rng.NormFloat64() })
			}
			fillTensor(l.adv, func(int) float64 { return rng.NormFloat64() })
			fillTensor(l.ret, func(int) float64 { return rng.NormFloat64() })
			run := func() float64 { return lossOnce(t, vm, l) }
			// Old log-probs and values near the current ones, so that some ratios and
			// value changes fall inside the clip range and some outside.
			run()
			lp := l.logpOut.Data().([]float64)
			fillTensor(l.oldLP, func(i int) float64 { return lp[i] + []float64{0.05, -0.5, 0.4, -0.02, 0.3, -0.1}[i] })
			fillTensor(l.oldV, func(i int) float64 { return float64(i%3) * 0.3 })

			if err := vm.RunAll(); err != nil {
				t.Fatal(err)
			}
			inside, outside := 0, 0
			newLP, oldLP := l.logpOut.Data().([]float64), l.oldLP.Data().([]float64)
			for i := range m {
				if r := math.Exp(newLP[i] - oldLP[i]); math.Abs(r-1) > cfg.ClipCoef {
					outside++
				} else {
					inside++
				}
			}
			if inside == 0 || outside == 0 {
				t.Fatalf("ratios: %d inside and %d outside the clip range; the test needs both", inside, outside)
			}
			grads := make([][]float64, len(l.grads))
			for i, g := range l.grads {
				grads[i] = append([]float64(nil), g.Value().Data().([]float64)...)
			}
			vm.Reset()
			checked := 0
			for pi, par := range l.params {
				n, _ := checkFiniteDifferences(t, run, par.Name, par.T.Data().([]float64), grads[pi], 1, 1e-6,
					func(fd float64) float64 { return 1e-6 + 1e-4*math.Abs(fd) })
				checked += n
			}
			if checked < 50 {
				t.Fatalf("checked only %d weights", checked)
			}
		})
	}
}

// fillTensor sets element i of d to f(i).
func fillTensor(d *tensor.Dense, f func(i int) float64) {
	v := make([]float64, d.Shape().TotalSize())
	for i := range v {
		v[i] = f(i)
	}
	model.SetFloat64s(d, v)
}

// lossOnce runs a loss graph's machine once and returns the loss.
func lossOnce(t *testing.T, vm G.VM, l *lossGraph) float64 {
	t.Helper()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	defer vm.Reset()
	return model.ScalarValue(l.lossOut)
}

// checkFiniteDifferences compares grad, the gradient of loss with respect to the
// weights w of parameter name, with central differences of step h at every stride-th
// weight; tol(fd) is the error allowed. It returns how many weights it checked and how
// many of those have a gradient above 1e-2.
func checkFiniteDifferences[E float32 | float64](t *testing.T, loss func() float64, name string, w []E, grad []float64, stride int, h float64, tol func(fd float64) float64) (checked, significant int) {
	t.Helper()
	for j := 0; j < len(w); j += stride {
		fd := gradcheck.Central(w, j, h, loss)
		if math.Abs(fd-grad[j]) > tol(fd) {
			t.Errorf("%s[%d]: gradient %.9g, finite difference %.9g", name, j, grad[j], fd)
		}
		checked++
		if math.Abs(grad[j]) > 1e-2 {
			significant++
		}
	}
	return checked, significant
}
