package optim

import (
	"math"

	G "gorgonia.org/gorgonia"
)

// AdamConfig configures Adam. Zero fields take PyTorch's defaults.
type AdamConfig struct {
	LR    float64 // learning rate; 0 means 1e-3
	Beta1 float64 // 0 means 0.9
	Beta2 float64 // 0 means 0.999
	// Eps is added to the square root of the second moment; 0 means 1e-8 (PyTorch's
	// default; CleanRL's PPO uses 1e-5).
	Eps float64
	// MaxGradNorm clips the gradients' global norm before the update; 0 means no
	// clipping.
	MaxGradNorm float64
}

// Adam is PyTorch's Adam (Kingma and Ba, with bias correction) updating the parameters'
// tensors in place. Not safe for concurrent use.
type Adam struct {
	cfg AdamConfig
	solver
	t int
}

// NewAdam returns an Adam solver over params, whose gradients a TapeMachine fills.
func NewAdam(params []*G.Node, cfg AdamConfig) *Adam {
	orDefault(&cfg.LR, 1e-3)
	orDefault(&cfg.Beta1, 0.9)
	orDefault(&cfg.Beta2, 0.999)
	orDefault(&cfg.Eps, 1e-8)
	return &Adam{cfg: cfg, solver: solver{params: newParams(params)}}
}

// SetLR changes the learning rate (for annealing schedules).
func (a *Adam) SetLR(lr float64) { a.cfg.LR = lr }

// LR returns the current learning rate.
func (a *Adam) LR() float64 { return a.cfg.LR }

// Steps returns how many updates Step has made.
func (a *Adam) Steps() int { return a.t }

// Step clips the gradients by their global norm, applies one Adam update to every
// parameter, zeroes the gradients, and returns the global norm before clipping.
func (a *Adam) Step() (gradNorm float64, err error) {
	norm, err := a.startStep()
	if err != nil {
		return 0, err
	}
	scale := clipScale(norm, a.cfg.MaxGradNorm)
	a.t++
	c := a.cfg
	bc1 := 1 - math.Pow(c.Beta1, float64(a.t))
	bc2 := 1 - math.Pow(c.Beta2, float64(a.t))
	h := adamHyper{
		lr: c.LR / bc1, b1: c.Beta1, b2: c.Beta2, eps: c.Eps,
		invSqrtBC2: 1 / math.Sqrt(bc2), scale: scale,
	}
	updateSpans(a.params, a.spans,
		func(w, g, m, v []float32) { adamSpan32(w, g, m, v, h) },
		func(w, g, m, v []float64) { adamSpan(w, g, m, v, h) })
	return norm, nil
}

type adamHyper struct {
	lr, b1, b2, eps, invSqrtBC2, scale float64
}

// adamSpan updates w from gradient g with moments m, v, and zeroes g.
func adamSpan[T Float](w, g, m, v []T, h adamHyper) {
	g, m, v = g[:len(w)], m[:len(w)], v[:len(w)]
	lr, b1, b2, eps := T(h.lr), T(h.b1), T(h.b2), T(h.eps)
	inv, scale := T(h.invSqrtBC2), T(h.scale)
	for i := range w {
		gi := g[i] * scale
		mi := b1*m[i] + (1-b1)*gi
		vi := b2*v[i] + (1-b2)*gi*gi
		m[i], v[i] = mi, vi
		w[i] -= lr * mi / (T(math.Sqrt(float64(vi)))*inv + eps)
		g[i] = 0
	}
}
