package ppo

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/envpool"
)

// The PPO loss gradient of every weight, on a float64 graph, matches central finite
// differences: for both heads, with and without the clipped value loss, with ratios
// both inside and outside the clip range.
func TestLossGradientMatchesFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		name  string
		space envpool.Space
		clipV bool
	}{
		{"categorical", envpool.DiscreteSpace(3), true},
		{"categorical-noclipv", envpool.DiscreteSpace(3), false},
		{"gaussian", envpool.BoxSpace([]float32{-1, -1}, []float32{1, 1}), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := envpool.Spec{TaskID: "test", ObsSpace: envpool.UniformBox(-1, 1, envpool.Float32, 4), ActionSpace: tc.space}
			net := agent.NetConfig{Hidden: []int{5, 4}, Activation: agent.ActTanh, Head: agent.HeadAuto, InitLogStd: -0.3}
			p, err := agent.NewPolicy(&spec, net, tensor.Float64)
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
			vm := G.NewTapeMachine(l.g)
			defer vm.Close()
			fill := func(d *tensor.Dense, f func(i int) float64) {
				v := make([]float64, d.Shape().TotalSize())
				for i := range v {
					v[i] = f(i)
				}
				agent.SetFloat64s(d, v)
			}
			fill(l.obs, func(int) float64 { return rng.NormFloat64() })
			if p.Head == agent.HeadCategorical {
				fill(l.act, func(i int) float64 {
					if i%p.ActDim == (i/p.ActDim)%p.ActDim {
						return 1
					}
					return 0
				})
			} else {
				fill(l.act, func(int) float64 { return rng.NormFloat64() })
			}
			fill(l.adv, func(int) float64 { return rng.NormFloat64() })
			fill(l.ret, func(int) float64 { return rng.NormFloat64() })
			run := func() float64 {
				t.Helper()
				if err := vm.RunAll(); err != nil {
					t.Fatal(err)
				}
				defer vm.Reset()
				return scalarOf(l.lossOut)
			}
			// Old log-probs and values near the current ones, so that some ratios and
			// value changes fall inside the clip range and some outside.
			run()
			lp := l.logpOut.Data().([]float64)
			fill(l.oldLP, func(i int) float64 { return lp[i] + []float64{0.05, -0.5, 0.4, -0.02, 0.3, -0.1}[i] })
			fill(l.oldV, func(i int) float64 { return float64(i%3) * 0.3 })

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
			const h = 1e-6
			checked := 0
			for pi, par := range l.params {
				w := par.T.Data().([]float64)
				for j := range w {
					orig := w[j]
					w[j] = orig + h
					up := run()
					w[j] = orig - h
					down := run()
					w[j] = orig
					fd := (up - down) / (2 * h)
					if diff := math.Abs(fd - grads[pi][j]); diff > 1e-6+1e-4*math.Abs(fd) {
						t.Errorf("%s[%d]: gradient %.9g, finite difference %.9g", par.Name, j, grads[pi][j], fd)
					}
					checked++
				}
			}
			if checked < 50 {
				t.Fatalf("checked only %d weights", checked)
			}
		})
	}
}
