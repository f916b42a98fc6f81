package dnnl

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
)

// natureNet is the Nature CNN (4x84x84 uint8 -> conv 32 8x8/4 -> conv 64 4x4/2 ->
// conv 64 3x3/1 -> dense 512 -> heads 6 and 1) on this package's layers, with every
// buffer allocated once.
type natureNet struct {
	batch      int
	train      bool
	c1, c2, c3 *Conv
	fc         *Dense
	pi, v      *Dense

	x                 []uint8
	w1, w2, w3, wf    []float32
	b1, b2, b3, bf    []float32
	wp, bp, wv, bv    []float32
	h1, h2, h3, h4    []float32
	outP, outV        []float32
	dOutP, dOutV      []float32
	dh1, dh2, dh3     []float32
	dh4, dh4p, dh4v   []float32
	gw1, gw2, gw3, gf []float32
	gb1, gb2, gb3, gb []float32
	gwp, gbp, gwv     []float32
	gbv               []float32
}

// newNatureNet builds the network for batch; train adds the backward primitives;
// native makes the three convolutions exchange activations in oneDNN's layouts.
func newNatureNet(tb testing.TB, batch int, train, native bool) *natureNet {
	tb.Helper()
	n := &natureNet{batch: batch, train: train}
	inf := !train
	var err error
	must := func(e error) {
		if e != nil {
			tb.Fatal(e)
		}
	}
	n.c1, err = NewConv(ConvConfig{Batch: batch, Cin: 4, H: 84, W: 84, Cout: 32, K: 8, Stride: 4, ReLU: true, SpaceToDepth: true,
		InferenceOnly: inf, NativeOut: native})
	must(err)
	var in2, in3 *Layout
	if native {
		in2 = n.c1.OutLayout()
	}
	n.c2, err = NewConv(ConvConfig{Batch: batch, Cin: 32, H: 20, W: 20, Cout: 64, K: 4, Stride: 2, ReLU: true, NeedDX: true,
		InferenceOnly: inf, NativeOut: native, InLayout: in2})
	must(err)
	if native {
		in3 = n.c2.OutLayout()
	}
	n.c3, err = NewConv(ConvConfig{Batch: batch, Cin: 64, H: 9, W: 9, Cout: 64, K: 3, Stride: 1, ReLU: true, NeedDX: true,
		InferenceOnly: inf, InLayout: in3})
	must(err)
	n.fc, err = NewDense(DenseConfig{Batch: batch, In: 3136, Out: 512, ReLU: true, NeedDX: true, InferenceOnly: inf})
	must(err)
	n.pi, err = NewDense(DenseConfig{Batch: batch, In: 512, Out: 6, NeedDX: true, InferenceOnly: inf})
	must(err)
	n.v, err = NewDense(DenseConfig{Batch: batch, In: 512, Out: 1, NeedDX: true, InferenceOnly: inf})
	must(err)

	r := rand.New(rand.NewPCG(3, 4))
	n.x = randU8(r, batch*4*84*84)
	init := func(fanIn, size int) []float32 { return randF32(r, size, math.Sqrt(2/float64(fanIn))) }
	n.w1, n.b1 = init(4*64, 32*4*64), make([]float32, 32)
	n.w2, n.b2 = init(32*16, 64*32*16), make([]float32, 64)
	n.w3, n.b3 = init(64*9, 64*64*9), make([]float32, 64)
	n.wf, n.bf = init(3136, 3136*512), make([]float32, 512)
	n.wp, n.bp = init(512, 512*6), make([]float32, 6)
	n.wv, n.bv = init(512, 512), make([]float32, 1)
	z := func(k int) []float32 { return make([]float32, k) }
	n.h1, n.h2, n.h3, n.h4 = z(n.c1.OutLen()), z(n.c2.OutLen()), z(batch*3136), z(batch*512)
	n.outP, n.outV = z(batch*6), z(batch)
	if train {
		n.dOutP, n.dOutV = randF32(r, batch*6, 1), randF32(r, batch, 1)
		n.dh1, n.dh2, n.dh3 = z(len(n.h1)), z(len(n.h2)), z(len(n.h3))
		n.dh4, n.dh4p, n.dh4v = z(len(n.h4)), z(len(n.h4)), z(len(n.h4))
		n.gw1, n.gw2, n.gw3, n.gf = z(len(n.w1)), z(len(n.w2)), z(len(n.w3)), z(len(n.wf))
		n.gb1, n.gb2, n.gb3, n.gb = z(32), z(64), z(64), z(512)
		n.gwp, n.gbp, n.gwv, n.gbv = z(len(n.wp)), z(6), z(len(n.wv)), z(1)
	}
	return n
}

// forward runs the network's forward pass.
func (n *natureNet) forward() error {
	const scale = 1.0 / 255
	return firstErrFn(
		func() error { return n.c1.Forward(n.x, scale, n.w1, n.b1, n.h1) },
		func() error { return n.c2.Forward(n.h1, 1, n.w2, n.b2, n.h2) },
		func() error { return n.c3.Forward(n.h2, 1, n.w3, n.b3, n.h3) },
		func() error { return n.fc.Forward(n.h3, n.wf, n.bf, n.h4) },
		func() error { return n.pi.Forward(n.h4, n.wp, n.bp, n.outP) },
		func() error { return n.v.Forward(n.h4, n.wv, n.bv, n.outV) },
	)
}

// backward runs the backward pass of every layer (no optimiser).
func (n *natureNet) backward() error {
	const scale = 1.0 / 255
	return firstErrFn(
		func() error { return n.pi.Backward(n.h4, n.wp, n.outP, n.dOutP, n.gwp, n.gbp, n.dh4p) },
		func() error { return n.v.Backward(n.h4, n.wv, n.outV, n.dOutV, n.gwv, n.gbv, n.dh4v) },
		func() error {
			for i := range n.dh4 {
				n.dh4[i] = n.dh4p[i] + n.dh4v[i]
			}
			return nil
		},
		func() error { return n.fc.Backward(n.h3, n.wf, n.h4, n.dh4, n.gf, n.gb, n.dh3) },
		func() error { return n.c3.Backward(n.h2, 1, n.w3, n.h3, n.dh3, n.gw3, n.gb3, n.dh2) },
		func() error { return n.c2.Backward(n.h1, 1, n.w2, n.h2, n.dh2, n.gw2, n.gb2, n.dh1) },
		func() error { return n.c1.Backward(n.x, scale, n.w1, n.h1, n.dh1, n.gw1, n.gb1, nil) },
	)
}

// layers lists the network's layers by name with their implementation maps.
func (n *natureNet) impls() map[string]map[string]string {
	return map[string]map[string]string{
		"conv1": n.c1.Impls(), "conv2": n.c2.Impls(), "conv3": n.c3.Impls(),
		"dense": n.fc.Impls(), "head_pi": n.pi.Impls(), "head_v": n.v.Impls(),
	}
}

// close destroys every layer.
func (n *natureNet) close() {
	for _, c := range []*Conv{n.c1, n.c2, n.c3} {
		c.Close()
	}
	for _, d := range []*Dense{n.fc, n.pi, n.v} {
		d.Close()
	}
}

// firstErrFn runs fns in order and stops at the first error.
func firstErrFn(fns ...func() error) error {
	for _, f := range fns {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// TestNatureImplsNotRef checks that no primitive of the Nature CNN, for training at
// batch 256 and 16 and inference at batch 16, falls to oneDNN's reference
// implementation (forcing a plain layout on conv1 does, at seconds a step).
func TestNatureImplsNotRef(t *testing.T) {
	requireLib(t)
	for _, c := range []struct {
		name   string
		batch  int
		train  bool
		native bool
	}{{"train-b256", 256, true, false}, {"train-b16", 16, true, false}, {"infer-b16", 16, false, false},
		{"train-b256-native", 256, true, true}, {"infer-b16-native", 16, false, true}} {
		n := newNatureNet(t, c.batch, c.train, c.native)
		// One step first: it builds the uint8 input reorder, and a kernel that only
		// fails at execution shows up here.
		start := time.Now()
		if err := n.forward(); err != nil {
			t.Fatal(err)
		}
		if c.train {
			if err := n.backward(); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: first step %v", c.name, time.Since(start))
		var lines []string
		for layer, m := range n.impls() {
			for prim, impl := range m {
				lines = append(lines, layer+"."+prim+" = "+impl)
				if impl == "" || strings.HasPrefix(impl, "ref") {
					t.Errorf("%s: %s.%s uses implementation %q", c.name, layer, prim, impl)
				}
			}
		}
		sort.Strings(lines)
		t.Logf("%s:\n  %s", c.name, strings.Join(lines, "\n  "))
		n.close()
	}
}

// TestNatureNativeMatchesPlain checks that exchanging activations in oneDNN's layouts
// gives the same outputs and gradients as plain NCHW, on the whole Nature CNN.
func TestNatureNativeMatchesPlain(t *testing.T) {
	requireLib(t)
	p := newNatureNet(t, 8, true, false)
	defer p.close()
	q := newNatureNet(t, 8, true, true)
	defer q.close()
	for _, n := range []*natureNet{p, q} {
		if err := n.forward(); err != nil {
			t.Fatal(err)
		}
		if err := n.backward(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("conv1 output layout %v (%d elements), conv2 output layout %v", q.c1.OutLayout(), q.c1.OutLen(), q.c2.OutLayout())
	if !q.c1.OutLayout().Plain() {
		if imp, ok := q.c2.Impls()["reorder_x"]; ok {
			t.Logf("conv2 still reorders its native input (%s): layouts differ", imp)
		}
	}
	h1 := make([]float32, len(p.h1))
	if err := q.c1.OutLayout().ToPlain(q.h1, h1); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want []float32
	}{
		{"conv1 output", h1, p.h1}, {"value", q.outV, p.outV}, {"policy", q.outP, p.outP},
		{"dw1", q.gw1, p.gw1}, {"db1", q.gb1, p.gb1}, {"dw2", q.gw2, p.gw2}, {"dw3", q.gw3, p.gw3}, {"dwf", q.gf, p.gf},
	} {
		if e := relL2(c.got, f64(c.want)); e > 1e-5 {
			t.Errorf("%s: native differs from plain by %.3g", c.name, e)
		}
	}
	// The gradient of conv2's input, converted back to plain.
	dh1 := make([]float32, len(p.dh1))
	if err := q.c1.OutLayout().ToPlain(q.dh1, dh1); err != nil {
		t.Fatal(err)
	}
	if e := relL2(dh1, f64(p.dh1)); e > 1e-5 {
		t.Errorf("conv2 input gradient: native differs from plain by %.3g", e)
	}
}
