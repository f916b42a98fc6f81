package dnnl

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestConvNativeChain runs two convolutions exchanging the activation in oneDNN's
// layout (NativeOut -> InLayout) and compares everything with the plain chain,
// including a channel count (5) that blocked layouts pad.
func TestConvNativeChain(t *testing.T) {
	requireLib(t)
	for _, mid := range []int{5, 16} {
		a := ConvConfig{Batch: 3, Cin: 3, H: 15, W: 15, Cout: mid, K: 3, Stride: 2, ReLU: true, NeedDX: true}
		b := ConvConfig{Batch: 3, Cin: mid, H: 7, W: 7, Cout: 4, K: 3, Stride: 1, ReLU: true, NeedDX: true}
		r := rand.New(rand.NewPCG(uint64(mid), 1))
		x := randF32(r, 3*3*15*15, 1)
		wa, ba := randF32(r, mid*3*9, 0.3), randF32(r, mid, 0.1)
		wb, bb := randF32(r, 4*mid*9, 0.3), randF32(r, 4, 0.1)
		dyb := randF32(r, 3*4*5*5, 1)

		type result struct{ h, y, dh, dx, dwa, dba, dwb, dbb []float32 }
		run := func(native bool) result {
			ac := a
			ac.NativeOut = native
			la := mustConv(t, ac)
			bc := b
			if native {
				bc.InLayout = la.OutLayout()
			}
			lb := mustConv(t, bc)
			if la.OutLen() != lb.InLen() {
				t.Fatalf("native=%v: layer a's output has %d elements, layer b's input %d", native, la.OutLen(), lb.InLen())
			}
			var res result
			res.h, res.y = make([]float32, la.OutLen()), make([]float32, lb.OutLen())
			res.dh, res.dx = make([]float32, lb.InLen()), make([]float32, len(x))
			res.dwa, res.dba = make([]float32, len(wa)), make([]float32, len(ba))
			res.dwb, res.dbb = make([]float32, len(wb)), make([]float32, len(bb))
			must := func(err error) {
				if err != nil {
					t.Fatalf("native=%v: %v", native, err)
				}
			}
			must(la.Forward(x, 1, wa, ba, res.h))
			must(lb.Forward(res.h, 1, wb, bb, res.y))
			must(lb.Backward(res.h, 1, wb, res.y, dyb, res.dwb, res.dbb, res.dh))
			must(la.Backward(x, 1, wa, res.h, res.dh, res.dwa, res.dba, res.dx))
			if native {
				t.Logf("mid %d: layout %v, %d elements for %d values; b's impls %v", mid, la.OutLayout(), la.OutLen(), 3*mid*49, lb.Impls())
				plain := make([]float32, 3*mid*49)
				must(la.OutLayout().ToPlain(res.h, plain))
				res.h = plain
				plain = make([]float32, 3*mid*49)
				must(la.OutLayout().ToPlain(res.dh, plain))
				res.dh = plain
			}
			return res
		}
		p, n := run(false), run(true)
		for _, c := range []struct {
			name      string
			got, want []float32
		}{{"h", n.h, p.h}, {"y", n.y, p.y}, {"dh", n.dh, p.dh}, {"dx", n.dx, p.dx},
			{"dwa", n.dwa, p.dwa}, {"dba", n.dba, p.dba}, {"dwb", n.dwb, p.dwb}, {"dbb", n.dbb, p.dbb}} {
			if e := relL2(c.got, f64(c.want)); e > 1e-5 {
				t.Errorf("mid %d, %s: native differs from plain by %.3g", mid, c.name, e)
			}
		}
	}
}

// TestLayoutConversions checks ToPlain/FromPlain round trips, a plain InLayout (which
// the layer must convert) and the errors for misuse.
func TestLayoutConversions(t *testing.T) {
	requireLib(t)
	cfg := ConvConfig{Batch: 2, Cin: 3, H: 9, W: 9, Cout: 12, K: 3, Stride: 1, NativeOut: true}
	c := mustConv(t, cfg)
	l := c.OutLayout()
	if l.Shape() != [4]int{2, 12, 7, 7} {
		t.Errorf("Shape() = %v", l.Shape())
	}
	r := rand.New(rand.NewPCG(2, 2))
	plain := randF32(r, 2*12*49, 1)
	native, back := make([]float32, l.Len()), make([]float32, len(plain))
	if err := l.FromPlain(plain, native); err != nil {
		t.Fatal(err)
	}
	if err := l.ToPlain(native, back); err != nil {
		t.Fatal(err)
	}
	if e := relL2(back, f64(plain)); e != 0 {
		t.Errorf("round trip through %v differs by %g", l, e)
	}
	if err := l.ToPlain(native[:3], back); err == nil {
		t.Error("ToPlain with a short source: no error")
	}

	// A plain NCHW InLayout works (the layer converts it).
	pl, err := lib.newMD([]int{2, 12, 7, 7}, dtF32, tagABCD)
	if err != nil {
		t.Fatal(err)
	}
	plainLayout := newLayout(pl)
	if !plainLayout.Plain() || plainLayout.String() != "abcd" {
		t.Errorf("plain layout: Plain() %v, String() %q", plainLayout.Plain(), plainLayout)
	}
	next := ConvConfig{Batch: 2, Cin: 12, H: 7, W: 7, Cout: 4, K: 3, Stride: 2, NeedDX: true, ReLU: true}
	viaPlain := runConv(t, next, false, 31)
	next.InLayout = plainLayout
	viaLayout := runConv(t, next, false, 31)
	viaLayout.check(t, 1e-4)
	if e := relL2(viaLayout.dx, f64(viaPlain.dx)); e > 1e-6 {
		t.Errorf("dx through a plain InLayout differs by %.3g", e)
	}

	// Misuse.
	bad := next
	bad.Cin = 11
	if _, err := NewConv(bad); err == nil || !strings.Contains(err.Error(), "InLayout") {
		t.Errorf("InLayout of the wrong shape: error %v", err)
	}
	bad = next
	bad.SpaceToDepth, bad.Stride, bad.K, bad.H, bad.W = true, 1, 1, 7, 7
	if _, err := NewConv(bad); err == nil {
		t.Error("SpaceToDepth with InLayout: no error")
	}
	nc := mustConv(t, next)
	y := make([]float32, nc.OutLen())
	if err := nc.Forward(make([]uint8, nc.InLen()), 1, make([]float32, 4*12*9), make([]float32, 4), y); err == nil {
		t.Error("uint8 input with InLayout: no error")
	}
}

// TestDenseInLayout feeds a dense inference layer a convolution's output in oneDNN's
// layout (NativeOut -> DenseConfig.InLayout) and compares its output with the plain
// chain and with the float64 reference of the plain chain, in float32 and bfloat16,
// with a channel count that is a multiple of oneDNN's blocks (16) and one that is not
// (5). A case whose convolution does not write channels-last here is skipped.
func TestDenseInLayout(t *testing.T) {
	requireLib(t)
	for _, bf16 := range []bool{false, true} {
		for _, cout := range []int{5, 16} {
			t.Run(fmt.Sprintf("bf16_%v_c%d", bf16, cout), func(t *testing.T) { testDenseInLayout(t, bf16, cout) })
		}
	}
}

// testDenseInLayout is one case of TestDenseInLayout.
func testDenseInLayout(t *testing.T, bf16 bool, cout int) {
	conv := ConvConfig{Batch: 4, Cin: 3, H: 11, W: 11, Cout: cout, K: 3, Stride: 2, ReLU: true, InferenceOnly: true, BF16: bf16}
	in := cout * 5 * 5
	dense := DenseConfig{Batch: 4, In: in, Out: 7, ReLU: true, InferenceOnly: true, BF16: bf16}
	r := rand.New(rand.NewPCG(uint64(cout), 2))
	x := randF32(r, 4*3*11*11, 1)
	wc, bc := randF32(r, cout*3*9, 0.3), randF32(r, cout, 0.1)
	wd, bd := randF32(r, in*7, 0.2), randF32(r, 7, 0.1)
	run := func(native bool) []float32 {
		cc := conv
		cc.NativeOut = native
		c := newConvOrSkip(t, cc)
		defer c.Close()
		dc := dense
		if native {
			if l := c.OutLayout(); !l.ChannelsLast() {
				t.Skipf("the convolution writes %v here, not channels-last: no dense layer reads it", l)
			}
			dc.InLayout = c.OutLayout()
		}
		d, err := NewDense(dc)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if c.OutLen() != d.InLen() {
			t.Fatalf("native=%v: the conv writes %d elements, the dense reads %d", native, c.OutLen(), d.InLen())
		}
		h, y := make([]float32, c.OutLen()), make([]float32, 4*7)
		if err := c.Forward(x, 1, wc, bc, h); err != nil {
			t.Fatal(err)
		}
		if err := d.Forward(h, wd, bd, y); err != nil {
			t.Fatal(err)
		}
		return y
	}
	plain, native := run(false), run(true)
	want := refDense(dense, refConv(conv, f64(x), f64(wc), f64(bc)), f64(wd), f64(bd))
	tol := 1e-5
	if bf16 {
		tol = 2e-2
	}
	if e := relL2(native, want); e > tol {
		t.Errorf("bf16 %v, %d channels: native chain differs from the reference by %.2g (tolerance %g)", bf16, cout, e, tol)
	}
	if e := relL2(native, f64(plain)); e > tol {
		t.Errorf("bf16 %v, %d channels: native chain differs from the plain one by %.2g", bf16, cout, e)
	}
}

// TestDenseInLayoutRefused checks the configurations an InLayout cannot serve.
func TestDenseInLayoutRefused(t *testing.T) {
	requireLib(t)
	c := mustConv(t, ConvConfig{Batch: 2, Cin: 3, H: 9, W: 9, Cout: 8, K: 3, Stride: 2, InferenceOnly: true, NativeOut: true})
	l := c.OutLayout()
	for _, tc := range []struct {
		cfg  DenseConfig
		want string
	}{
		{DenseConfig{Batch: 2, In: 128, Out: 3, InLayout: l}, "InferenceOnly"},
		{DenseConfig{Batch: 2, In: 100, Out: 3, InLayout: l, InferenceOnly: true}, "shape"},
		{DenseConfig{Batch: 3, In: 128, Out: 3, InLayout: l, InferenceOnly: true}, "shape"},
		{DenseConfig{Batch: 2, In: 128, Out: 3, InLayout: l, InferenceOnly: true, BF16: true}, "data type"},
	} {
		d, err := NewDense(tc.cfg)
		if err == nil {
			d.Close()
			t.Errorf("%+v: no error", tc.cfg)
		} else if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %q does not mention %q", tc.cfg, err, tc.want)
		}
	}
}
