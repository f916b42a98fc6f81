package ppo

import (
	"math"

	"github.com/rlpool/rlpool/agent"
)

// adam is a temporary in-place Adam (Kingma & Ba, PyTorch's bias-corrected form) with
// configurable eps, used until agent/optim lands; Gorgonia's AdamSolver clones every
// gradient several times per step and defaults eps to 1e-8.
type adam struct {
	params       []agent.Param
	m, v         [][]float32
	t            int64
	beta1, beta2 float64
	eps          float64
}

func newAdam(params []agent.Param, eps float64) *adam {
	a := &adam{params: params, beta1: 0.9, beta2: 0.999, eps: eps}
	for _, p := range params {
		a.m = append(a.m, make([]float32, len(p.F32())))
		a.v = append(a.v, make([]float32, len(p.F32())))
	}
	return a
}

// step applies one update with learning rate lr; grads are in params order.
func (a *adam) step(grads [][]float32, lr float64) {
	a.t++
	bc1 := 1 - math.Pow(a.beta1, float64(a.t))
	bc2 := 1 - math.Pow(a.beta2, float64(a.t))
	b1, b2 := float32(a.beta1), float32(a.beta2)
	stepSize := float32(lr / bc1)
	sqrtBC2 := float32(math.Sqrt(bc2))
	eps := float32(a.eps)
	for i, p := range a.params {
		w, g, m, v := p.F32(), grads[i], a.m[i], a.v[i]
		for j := range w {
			m[j] = b1*m[j] + (1-b1)*g[j]
			v[j] = b2*v[j] + (1-b2)*g[j]*g[j]
			denom := float32(math.Sqrt(float64(v[j])))/sqrtBC2 + eps
			w[j] -= stepSize * m[j] / denom
		}
	}
}
