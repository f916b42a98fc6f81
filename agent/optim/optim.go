// Package optim holds the in-place optimisers rlpool's learners (PPO, IMPALA) share.
//
// Gorgonia's stock solvers clone every gradient several times per step (about 27 MB per
// step for the Nature CNN) and clip gradients element-wise only. These solvers update
// the parameter tensors directly from their gradients (the dual values a TapeMachine
// created with gorgonia.BindDualValues fills), clip by the global norm over all
// parameters as PyTorch's clip_grad_norm_ does, zero the gradients for the next step,
// and allocate nothing after the first step. Parameters are float32 or float64 tensors.
package optim

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Float is a parameter element type.
type Float interface{ float32 | float64 }

// param is one parameter's value and gradient storage, of float32 or float64.
type param struct {
	node   *G.Node
	w, g   any // []float32 or []float64
	s1, s2 any // optimiser state of the same type (first and second moment)
	n      int
}

// bind resolves each node's value and gradient slices. It is called at every step,
// because the tensors behind a node can be replaced (for example by gorgonia.Let).
func bind(ps []param) error {
	for i := range ps {
		p := &ps[i]
		v, ok := p.node.Value().(tensor.Tensor)
		if !ok {
			return fmt.Errorf("optim: %v has no tensor value", p.node)
		}
		gv, err := p.node.Grad()
		if err != nil {
			return fmt.Errorf("optim: %v has no gradient (bind it with gorgonia.BindDualValues): %w", p.node, err)
		}
		g, ok := gv.(tensor.Tensor)
		if !ok {
			return fmt.Errorf("optim: gradient of %v is %T, not a tensor", p.node, gv)
		}
		p.w, p.g = v.Data(), g.Data()
		switch w := p.w.(type) {
		case []float32:
			gg, ok := p.g.([]float32)
			if !ok || len(gg) != len(w) {
				return fmt.Errorf("optim: gradient of %v does not match its float32 value", p.node)
			}
			p.n = len(w)
			if p.s1 == nil {
				p.s1, p.s2 = make([]float32, p.n), make([]float32, p.n)
			}
		case []float64:
			gg, ok := p.g.([]float64)
			if !ok || len(gg) != len(w) {
				return fmt.Errorf("optim: gradient of %v does not match its float64 value", p.node)
			}
			p.n = len(w)
			if p.s1 == nil {
				p.s1, p.s2 = make([]float64, p.n), make([]float64, p.n)
			}
		default:
			return fmt.Errorf("optim: %v holds %T; want float32 or float64", p.node, p.w)
		}
	}
	return nil
}

func newParams(nodes []*G.Node) []param {
	ps := make([]param, len(nodes))
	for i, n := range nodes {
		ps[i].node = n
	}
	return ps
}

// GlobalNorm returns the L2 norm of all the nodes' gradients together.
func GlobalNorm(nodes []*G.Node) (float64, error) {
	ps := newParams(nodes)
	if err := bind(ps); err != nil {
		return 0, err
	}
	return globalNorm(ps), nil
}

func globalNorm(ps []param) float64 {
	var s float64
	for i := range ps {
		switch g := ps[i].g.(type) {
		case []float32:
			var part float32
			for _, v := range g {
				part += v * v
			}
			s += float64(part)
		case []float64:
			for _, v := range g {
				s += v * v
			}
		}
	}
	return math.Sqrt(s)
}

// clipScale is the factor gradients are multiplied by so that their global norm is at
// most maxNorm (PyTorch's clip_grad_norm_: maxNorm / (norm + 1e-6) when norm exceeds it).
func clipScale(norm, maxNorm float64) float64 {
	if maxNorm <= 0 || norm <= maxNorm {
		return 1
	}
	return maxNorm / (norm + 1e-6)
}

// span is a range of one parameter's elements, the unit of parallel work.
type span struct{ p, lo, hi int }

const spanLen = 1 << 15

func spans(ps []param) []span {
	var out []span
	for i := range ps {
		for lo := 0; lo < ps[i].n; lo += spanLen {
			out = append(out, span{i, lo, min(lo+spanLen, ps[i].n)})
		}
	}
	return out
}

// forSpans runs f over all spans on GOMAXPROCS goroutines.
func forSpans(sp []span, f func(span)) {
	nw := min(runtime.GOMAXPROCS(0), len(sp))
	if nw <= 1 {
		for _, s := range sp {
			f(s)
		}
		return
	}
	var wg sync.WaitGroup
	wg.Add(nw)
	for w := 0; w < nw; w++ {
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(sp); i += nw {
				f(sp[i])
			}
		}(w)
	}
	wg.Wait()
}
