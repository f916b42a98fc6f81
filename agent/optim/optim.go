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
		if err := bindData(p); err != nil {
			return err
		}
	}
	return nil
}

// bindData checks p's freshly bound value and gradient slices against each other.
func bindData(p *param) error {
	switch w := p.w.(type) {
	case []float32:
		return bindTyped(p, w, "float32")
	case []float64:
		return bindTyped(p, w, "float64")
	}
	return fmt.Errorf("optim: %v holds %T; want float32 or float64", p.node, p.w)
}

// bindTyped checks that p's gradient has the type and length of its value w (whose
// element type is named by typ), and allocates p's state on the first bind.
func bindTyped[T Float](p *param, w []T, typ string) error {
	gg, ok := p.g.([]T)
	if !ok || len(gg) != len(w) {
		return fmt.Errorf("optim: gradient of %v does not match its %s value", p.node, typ)
	}
	p.n = len(w)
	if p.s1 == nil {
		p.s1, p.s2 = make([]T, p.n), make([]T, p.n)
	}
	return nil
}

// solver is what every solver holds: its parameters and their spans (nil until the
// first step or a restored state).
type solver struct {
	params []param
	spans  []span
}

// startStep begins a step: it binds the parameters, splits them into spans on the
// first step, and returns the gradients' global norm.
func (s *solver) startStep() (float64, error) {
	if err := bind(s.params); err != nil {
		return 0, err
	}
	if s.spans == nil {
		s.spans = spans(s.params)
	}
	return normOver(s.params, s.spans), nil
}

// orDefault sets a zero config value *v to its default d.
func orDefault(v *float64, d float64) {
	if *v == 0 {
		*v = d
	}
}

// updateSpans runs a solver's element-wise update over every span of ps on GOMAXPROCS
// goroutines. f32 and f64 are the same update for each element type; each gets one
// span's weights, gradients and the two state slices.
func updateSpans(ps []param, sp []span, f32 func(w, g, s1, s2 []float32), f64 func(w, g, s1, s2 []float64)) {
	forSpans(sp, func(s span) {
		p := &ps[s.p]
		switch w := p.w.(type) {
		case []float32:
			f32(spanOf(p, w, s))
		case []float64:
			f64(spanOf(p, w, s))
		}
	})
}

// spanOf returns span s of p's weights w, gradients and state.
func spanOf[T Float](p *param, w []T, s span) (ws, g, s1, s2 []T) {
	return w[s.lo:s.hi], p.g.([]T)[s.lo:s.hi], p.s1.([]T)[s.lo:s.hi], p.s2.([]T)[s.lo:s.hi]
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

func globalNorm(ps []param) float64 { return normOver(ps, spans(ps)) }

// normOver is the global L2 norm of the gradients of ps, summed span by span on
// GOMAXPROCS goroutines (sp is spans(ps)). A span's squares are summed in eight
// float32 lanes, independent chains the CPU overlaps (one chain is bound by the
// latency of each addition: 1.8 ms for the Nature CNN's 1.7M weights), and the spans'
// sums in float64, which keeps the total as accurate as a float64 sum of float32
// squares over 32K elements can be.
func normOver(ps []param, sp []span) float64 {
	parts := make([]float64, len(sp))
	forSpansIndexed(sp, func(i int, s span) {
		switch g := ps[s.p].g.(type) {
		case []float32:
			parts[i] = sumSquares32(g[s.lo:s.hi])
		case []float64:
			var sum float64
			for _, v := range g[s.lo:s.hi] {
				sum += v * v
			}
			parts[i] = sum
		}
	})
	var total float64
	for _, v := range parts {
		total += v
	}
	return math.Sqrt(total)
}

// sumSquares32 returns the sum of the squares of g.
func sumSquares32(g []float32) float64 {
	var a [8]float32
	i := 0
	for ; i+8 <= len(g); i += 8 {
		c := g[i : i+8 : i+8]
		a[0] += c[0] * c[0]
		a[1] += c[1] * c[1]
		a[2] += c[2] * c[2]
		a[3] += c[3] * c[3]
		a[4] += c[4] * c[4]
		a[5] += c[5] * c[5]
		a[6] += c[6] * c[6]
		a[7] += c[7] * c[7]
	}
	var sum float64
	for _, v := range a {
		sum += float64(v)
	}
	for ; i < len(g); i++ {
		sum += float64(g[i] * g[i])
	}
	return sum
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
	forSpansIndexed(sp, func(_ int, s span) { f(s) })
}

// forSpansIndexed runs f over all spans on GOMAXPROCS goroutines, with each span's
// index in sp.
func forSpansIndexed(sp []span, f func(int, span)) {
	nw := min(runtime.GOMAXPROCS(0), len(sp))
	if nw <= 1 {
		for i, s := range sp {
			f(i, s)
		}
		return
	}
	var wg sync.WaitGroup
	wg.Add(nw)
	for w := 0; w < nw; w++ {
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(sp); i += nw {
				f(i, sp[i])
			}
		}(w)
	}
	wg.Wait()
}
