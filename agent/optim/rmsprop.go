package optim

import (
	"math"

	G "gorgonia.org/gorgonia"
)

// RMSPropConfig configures RMSProp. IMPALA (Espeholt et al. 2018) used TensorFlow 1's
// RMSProp with LR 6e-4 (annealed), Rho 0.99, Eps 0.01, Momentum 0, InitMS 1.
type RMSPropConfig struct {
	LR  float64 // learning rate; 0 means 1e-3
	Rho float64 // decay of the mean square; 0 means 0.9 (TensorFlow's default)
	// Eps is added to the mean square inside the square root (TensorFlow's convention;
	// PyTorch adds it outside). 0 means 1e-10 (TensorFlow's default).
	Eps      float64
	Momentum float64 // 0 means none
	// InitMS is the mean square's initial value: TensorFlow 1 started it at 1, Keras and
	// PyTorch at 0 (the zero value).
	InitMS float64
	// MaxGradNorm clips the gradients' global norm before the update; 0 means none.
	MaxGradNorm float64
}

// RMSProp is TensorFlow's RMSProp updating the parameters' tensors in place:
// ms = rho*ms + (1-rho)*g^2; mom = momentum*mom + lr*g/sqrt(ms+eps); w -= mom.
// Not safe for concurrent use.
type RMSProp struct {
	cfg RMSPropConfig
	solver
	inited bool
}

// NewRMSProp returns an RMSProp solver over params, whose gradients a TapeMachine fills.
func NewRMSProp(params []*G.Node, cfg RMSPropConfig) *RMSProp {
	orDefault(&cfg.LR, 1e-3)
	orDefault(&cfg.Rho, 0.9)
	orDefault(&cfg.Eps, 1e-10)
	return &RMSProp{cfg: cfg, solver: solver{params: newParams(params)}}
}

// SetLR changes the learning rate (for annealing schedules).
func (r *RMSProp) SetLR(lr float64) { r.cfg.LR = lr }

// LR returns the current learning rate.
func (r *RMSProp) LR() float64 { return r.cfg.LR }

// Step clips the gradients by their global norm, applies one update to every parameter,
// zeroes the gradients, and returns the global norm before clipping.
func (r *RMSProp) Step() (gradNorm float64, err error) {
	norm, err := r.startStep()
	if err != nil {
		return 0, err
	}
	if !r.inited {
		for i := range r.params {
			switch s := r.params[i].s1.(type) {
			case []float32:
				fill(s, float32(r.cfg.InitMS))
			case []float64:
				fill(s, r.cfg.InitMS)
			}
		}
		r.inited = true
	}
	h := rmsHyper{lr: r.cfg.LR, rho: r.cfg.Rho, eps: r.cfg.Eps, mom: r.cfg.Momentum, scale: clipScale(norm, r.cfg.MaxGradNorm)}
	updateSpans(r.params, r.spans,
		func(w, g, ms, mom []float32) { rmsSpan(w, g, ms, mom, h) },
		func(w, g, ms, mom []float64) { rmsSpan(w, g, ms, mom, h) })
	return norm, nil
}

// fill sets every element of s to v.
func fill[T Float](s []T, v T) {
	for j := range s {
		s[j] = v
	}
}

type rmsHyper struct{ lr, rho, eps, mom, scale float64 }

// rmsSpan updates w from gradient g with mean square ms and momentum buffer mom, and
// zeroes g.
func rmsSpan[T Float](w, g, ms, mom []T, h rmsHyper) {
	g, ms, mom = g[:len(w)], ms[:len(w)], mom[:len(w)]
	lr, rho, eps, mu, scale := T(h.lr), T(h.rho), T(h.eps), T(h.mom), T(h.scale)
	for i := range w {
		gi := g[i] * scale
		s := rho*ms[i] + (1-rho)*gi*gi
		ms[i] = s
		d := lr * gi / T(math.Sqrt(float64(s+eps)))
		if mu != 0 {
			d += mu * mom[i]
			mom[i] = d
		}
		w[i] -= d
		g[i] = 0
	}
}
