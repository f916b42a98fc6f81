package model

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/nn"
)

// The fused Dense MLP computes the same outputs and gradients as the same MLP built
// from stock Gorgonia ops, for tanh and relu, float32 and float64, run twice (the op
// reuses its buffers).
func TestDenseMatchesStockOps(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		for _, act := range []string{ActTanh, ActReLU} {
			m, err := NewMLP("m", []int{5, 7, 3}, act, 1, dt)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			m.Init(rng, false)
			run := func(fused bool, obs []float64) (out []float64, grads [][]float64) {
				g := G.NewGraph()
				x, xt := Input(g, dt, "x", 4, 5)
				SetFloat64s(xt, obs)
				y, params, err := m.build(g, x, nn.BackendGo, fused)
				if err != nil {
					t.Fatal(err)
				}
				sq, err := G.Square(y)
				if err != nil {
					t.Fatal(err)
				}
				loss, err := G.Sum(sq)
				if err != nil {
					t.Fatal(err)
				}
				var yv G.Value
				G.Read(y, &yv)
				gn, err := G.Grad(loss, append(G.Nodes{x}, params...)...)
				if err != nil {
					t.Fatal(err)
				}
				vm := G.NewTapeMachine(g)
				defer vm.Close()
				for range 2 {
					vm.Reset()
					if err := vm.RunAll(); err != nil {
						t.Fatal(err)
					}
				}
				out = Float64s(yv.(*tensor.Dense))
				for _, n := range gn {
					grads = append(grads, Float64s(n.Value().(*tensor.Dense)))
				}
				return out, grads
			}
			obs := make([]float64, 20)
			for i := range obs {
				obs[i] = rng.NormFloat64()
			}
			fo, fg := run(true, obs)
			so, sg := run(false, obs)
			tol := 1e-5
			if dt == tensor.Float64 {
				tol = 1e-12
			}
			close := func(a, b []float64, what string) {
				for i := range a {
					if math.Abs(a[i]-b[i]) > tol*(1+math.Abs(b[i])) {
						t.Errorf("%v %s: %s[%d] = %v, stock %v", dt, act, what, i, a[i], b[i])
						return
					}
				}
			}
			close(fo, so, "output")
			for i := range fg {
				close(fg[i], sg[i], []string{"dx", "dw0", "db0", "dw1", "db1"}[i])
			}
		}
	}
}
