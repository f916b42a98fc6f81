package dnnl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// convRun holds one Forward + Backward of a conv layer on random data.
type convRun struct {
	x              any
	xf             []float64 // x as the reference sees it (scaled)
	w, b, dy       []float32
	y, dw, db, dx  []float32
	impls          map[string]string
	scale          float32
	cfg            ConvConfig
	wantY          []float64
	wantDW, wantDB []float64
	wantDX         []float64
}

// newConvInputs draws a layer's inputs (x, w, b, dy) from seed and allocates its
// outputs.
func newConvInputs(cfg ConvConfig, u8 bool, seed uint64) *convRun {
	r := rand.New(rand.NewPCG(seed, 7))
	nx := cfg.Batch * cfg.Cin * cfg.H * cfg.W
	nw := cfg.Cout * cfg.Cin * cfg.K * cfg.K
	ny := cfg.Batch * cfg.Cout * cfg.OutH() * cfg.OutW()
	run := &convRun{cfg: cfg, scale: 1}
	if u8 {
		xb := randU8(r, nx)
		run.x, run.scale = xb, 1.0/255
		run.xf = make([]float64, nx)
		for i, v := range xb {
			run.xf[i] = float64(float32(v) * run.scale)
		}
	} else {
		xf := randF32(r, nx, 1)
		run.x, run.xf = xf, f64(xf)
	}
	fanIn := float64(cfg.Cin * cfg.K * cfg.K)
	run.w = randF32(r, nw, 1/math.Sqrt(fanIn))
	run.b = randF32(r, cfg.Cout, 0.1)
	run.dy = randF32(r, ny, 1)
	run.y = make([]float32, ny)
	run.dw = make([]float32, nw)
	run.db = make([]float32, cfg.Cout)
	if cfg.NeedDX {
		run.dx = make([]float32, nx)
	}
	return run
}

// runConv builds a layer for cfg and runs it on inputs drawn from seed.
func runConv(t *testing.T, cfg ConvConfig, u8 bool, seed uint64) *convRun {
	t.Helper()
	run := newConvInputs(cfg, u8, seed)
	c, err := NewConv(cfg)
	if err != nil {
		t.Fatalf("NewConv(%+v): %v", cfg, err)
	}
	defer c.Close()
	run.impls = c.Impls()
	if err := c.Forward(run.x, run.scale, run.w, run.b, run.y); err != nil {
		t.Fatalf("Forward: %v", err)
	}
	if err := c.Backward(run.x, run.scale, run.w, run.y, run.dy, run.dw, run.db, run.dx); err != nil {
		t.Fatalf("Backward: %v", err)
	}
	run.wantY = refConv(cfg, run.xf, f64(run.w), f64(run.b))
	run.wantDW, run.wantDB, run.wantDX = refConvBackward(cfg, run.xf, f64(run.w), run.wantY, f64(run.dy))
	return run
}

// check compares the run's outputs with the reference.
func (run *convRun) check(t *testing.T, tol float64) {
	t.Helper()
	errs := map[string]float64{
		"y":  relL2(run.y, run.wantY),
		"dw": relL2(run.dw, run.wantDW),
		"db": relL2(run.db, run.wantDB),
	}
	if run.cfg.NeedDX {
		errs["dx"] = relL2(run.dx, run.wantDX)
	}
	for k, e := range errs {
		if !(e <= tol) {
			t.Errorf("%s: relative L2 error %.3g > %.0e (impls %v)", k, e, tol, run.impls)
		}
	}
}

// TestConvMatchesReference compares outputs and gradients with naive loops over
// sizes, strides, ReLU, NeedDX, uint8 input and space-to-depth.
func TestConvMatchesReference(t *testing.T) {
	requireLib(t)
	shapes := []ConvConfig{
		{Batch: 3, Cin: 2, H: 13, W: 13, Cout: 5, K: 3, Stride: 2},
		{Batch: 2, Cin: 3, H: 12, W: 12, Cout: 7, K: 4, Stride: 2},
		{Batch: 1, Cin: 16, H: 9, W: 11, Cout: 17, K: 3, Stride: 1},
		{Batch: 2, Cin: 4, H: 84, W: 84, Cout: 32, K: 8, Stride: 4},
		{Batch: 3, Cin: 32, H: 20, W: 20, Cout: 64, K: 4, Stride: 2},
		{Batch: 3, Cin: 64, H: 9, W: 9, Cout: 64, K: 3, Stride: 1},
		{Batch: 2, Cin: 2, H: 12, W: 15, Cout: 3, K: 6, Stride: 3}, // space-to-depth by 3
	}
	seed := uint64(1)
	for _, base := range shapes {
		for _, relu := range []bool{false, true} {
			for _, needDX := range []bool{false, true} {
				for _, u8 := range []bool{false, true} {
					for _, s2d := range []bool{false, true} {
						if s2d && (base.Stride == 1 || base.K%base.Stride != 0 || base.H%base.Stride != 0 || base.W%base.Stride != 0) {
							continue
						}
						cfg := base
						cfg.ReLU, cfg.NeedDX, cfg.SpaceToDepth = relu, needDX, s2d
						name := fmt.Sprintf("b%d_%dx%dx%d_k%ds%d_o%d_relu%v_dx%v_u8%v_s2d%v",
							cfg.Batch, cfg.Cin, cfg.H, cfg.W, cfg.K, cfg.Stride, cfg.Cout, relu, needDX, u8, s2d)
						seed++
						t.Run(name, func(t *testing.T) {
							runConv(t, cfg, u8, seed).check(t, 1e-4)
						})
					}
				}
			}
		}
	}
}

// TestConvSpaceToDepthSame checks that the space-to-depth form gives the same outputs
// and gradients as the direct convolution (within 5e-4).
func TestConvSpaceToDepthSame(t *testing.T) {
	requireLib(t)
	for _, u8 := range []bool{false, true} {
		cfg := ConvConfig{Batch: 4, Cin: 4, H: 84, W: 84, Cout: 32, K: 8, Stride: 4, ReLU: true, NeedDX: true}
		a := runConv(t, cfg, u8, 99)
		cfg.SpaceToDepth = true
		b := runConv(t, cfg, u8, 99)
		for _, p := range []struct {
			name string
			x, y []float32
		}{{"y", a.y, b.y}, {"dw", a.dw, b.dw}, {"db", a.db, b.db}, {"dx", a.dx, b.dx}} {
			if e := relL2(p.y, f64(p.x)); e > 5e-4 {
				t.Errorf("u8=%v %s: space-to-depth differs from direct by %.3g", u8, p.name, e)
			}
		}
	}
}

// TestConvFiniteDifferences checks Backward against central differences of the float64
// reference loss sum(y * r).
func TestConvFiniteDifferences(t *testing.T) {
	requireLib(t)
	for _, cfg := range []ConvConfig{
		{Batch: 2, Cin: 2, H: 7, W: 7, Cout: 3, K: 3, Stride: 2, ReLU: true, NeedDX: true},
		{Batch: 2, Cin: 2, H: 8, W: 8, Cout: 3, K: 4, Stride: 2, ReLU: true, NeedDX: true, SpaceToDepth: true},
	} {
		run := runConv(t, cfg, false, 5)
		x, w, b := run.xf, f64(run.w), f64(run.b)
		loss := func() float64 { return weightedSum(refConv(cfg, x, w, b), run.dy) }
		checkFiniteDifferences(t, fmt.Sprintf("%+v ", cfg), loss, run.dw, run.db, run.dx, w, b, x)
	}
}

// TestConvBadInput checks that wrong slice lengths and types are errors, not panics.
func TestConvBadInput(t *testing.T) {
	requireLib(t)
	cfg := ConvConfig{Batch: 2, Cin: 3, H: 9, W: 9, Cout: 4, K: 3, Stride: 2, NeedDX: true}
	c := mustConv(t, cfg)
	nx, nw, ny := 2*3*9*9, 4*3*3*3, 2*4*4*4
	x, w, b, y := make([]float32, nx), make([]float32, nw), make([]float32, 4), make([]float32, ny)
	dy, dw, db, dx := make([]float32, ny), make([]float32, nw), make([]float32, 4), make([]float32, nx)
	bad := []struct {
		name string
		err  error
	}{
		{"short x", c.Forward(x[:5], 1, w, b, y)},
		{"nil x", c.Forward(nil, 1, w, b, y)},
		{"int x", c.Forward([]int{1}, 1, w, b, y)},
		{"short w", c.Forward(x, 1, w[:1], b, y)},
		{"empty b", c.Forward(x, 1, w, nil, y)},
		{"long y", c.Forward(x, 1, w, b, make([]float32, ny+1))},
		{"u8 scale 0", c.Forward(make([]uint8, nx), 0, w, b, y)},
		{"nil dx", c.Backward(x, 1, w, y, dy, dw, db, nil)},
		{"short dy", c.Backward(x, 1, w, y, dy[:3], dw, db, dx)},
	}
	for _, tc := range bad {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if err := c.Forward(x, 1, w, b, y); err != nil {
		t.Fatalf("valid Forward after bad calls: %v", err)
	}
	if _, err := NewConv(ConvConfig{Batch: 1, Cin: 1, H: 3, W: 3, Cout: 1, K: 5, Stride: 1}); err == nil {
		t.Error("filter larger than input: no error")
	}
	if _, err := NewConv(ConvConfig{Batch: 1, Cin: 1, H: 9, W: 9, Cout: 1, K: 3, Stride: 2, SpaceToDepth: true}); err == nil ||
		!strings.Contains(err.Error(), "SpaceToDepth") {
		t.Errorf("space-to-depth with K %% Stride != 0: error %v", err)
	}
	inf := mustConv(t, ConvConfig{Batch: 1, Cin: 1, H: 3, W: 3, Cout: 1, K: 3, Stride: 1, InferenceOnly: true})
	one := []float32{1}
	if err := inf.Backward(make([]float32, 9), 1, make([]float32, 9), one, one, make([]float32, 9), one, nil); err == nil {
		t.Error("Backward on an inference-only layer: no error")
	}
	c.Close()
	if err := c.Forward(x, 1, w, b, y); err == nil {
		t.Error("Forward after Close: no error")
	}
}

// TestConvChangedInputs checks that Backward notices x or w slices other than the
// last Forward's and converts them again.
func TestConvChangedInputs(t *testing.T) {
	requireLib(t)
	cfg := ConvConfig{Batch: 2, Cin: 4, H: 16, W: 16, Cout: 8, K: 4, Stride: 2, NeedDX: true, SpaceToDepth: true}
	ref := runConv(t, cfg, false, 11)
	other := runConv(t, cfg, false, 12)
	c := mustConv(t, cfg)
	y := make([]float32, len(ref.y))
	if err := c.Forward(other.x, 1, other.w, other.b, y); err != nil {
		t.Fatal(err)
	}
	dw, db, dx := make([]float32, len(ref.dw)), make([]float32, len(ref.db)), make([]float32, len(ref.dx))
	if err := c.Backward(ref.x, 1, ref.w, ref.y, ref.dy, dw, db, dx); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		name      string
		got, want []float32
	}{{"dw", dw, ref.dw}, {"db", db, ref.db}, {"dx", dx, ref.dx}} {
		if e := relL2(p.got, f64(p.want)); e > 1e-6 {
			t.Errorf("%s after changing x and w: differs by %.3g", p.name, e)
		}
	}
}

// TestReLUUnfused checks the separate-eltwise ReLU path (SeparateReLU) of both layer
// kinds, including an output in oneDNN's layout.
func TestReLUUnfused(t *testing.T) {
	requireLib(t)
	cfg := ConvConfig{Batch: 3, Cin: 4, H: 16, W: 16, Cout: 8, K: 4, Stride: 2, ReLU: true, NeedDX: true, SpaceToDepth: true, SeparateReLU: true}
	run := runConv(t, cfg, true, 41)
	run.check(t, 1e-4)
	if _, ok := run.impls["relu_forward"]; !ok {
		t.Errorf("no relu_forward primitive with SeparateReLU: %v", run.impls)
	}
	cfg.NativeOut = true
	c := mustConv(t, cfg)
	y := make([]float32, c.OutLen())
	if err := c.Forward(run.x, run.scale, run.w, run.b, y); err != nil {
		t.Fatal(err)
	}
	plain := make([]float32, len(run.y))
	if err := c.OutLayout().ToPlain(y, plain); err != nil {
		t.Fatal(err)
	}
	if e := relL2(plain, run.wantY); e > 1e-4 {
		t.Errorf("native output with unfused ReLU: relative L2 error %.3g", e)
	}
	d := runDense(t, DenseConfig{Batch: 5, In: 7, Out: 9, ReLU: true, NeedDX: true, SeparateReLU: true}, 42)
	if e := relL2(d.y, d.wantY); e > 1e-4 {
		t.Errorf("dense with unfused ReLU: relative L2 error %.3g", e)
	}
	if e := relL2(d.dx, d.wantDX); e > 1e-4 {
		t.Errorf("dense dx with unfused ReLU: relative L2 error %.3g", e)
	}
}

// TestConvBF16 checks the bfloat16 convolution against the float64 reference on the
// Nature CNN's layer shapes, for inference and for training. bfloat16 keeps 8 bits of
// mantissa, so each operand carries up to 0.4% relative error; outputs and gradients,
// sums of many such products, must stay within 1% relative L2, and must differ from
// the float32 layer's (which shows the bf16 kernels really ran). No primitive may be
// oneDNN's reference kernel, and an inference layer refuses Backward.
func TestConvBF16(t *testing.T) {
	requireLib(t)
	shapes := []struct {
		cfg ConvConfig
		u8  bool
	}{
		{ConvConfig{Batch: 3, Cin: 4, H: 84, W: 84, Cout: 32, K: 8, Stride: 4, SpaceToDepth: true}, true},
		{ConvConfig{Batch: 3, Cin: 32, H: 20, W: 20, Cout: 64, K: 4, Stride: 2, NeedDX: true}, false},
		{ConvConfig{Batch: 3, Cin: 64, H: 9, W: 9, Cout: 64, K: 3, Stride: 1, NeedDX: true}, false},
	}
	for i, s := range shapes {
		for _, relu := range []bool{false, true} {
			for _, inference := range []bool{false, true} {
				cfg := s.cfg
				cfg.ReLU, cfg.InferenceOnly = relu, inference
				if inference {
					cfg.NeedDX = false
				}
				t.Run(fmt.Sprintf("%dx%dx%d_k%ds%d_relu%v_inference%v", cfg.Cin, cfg.H, cfg.W, cfg.K, cfg.Stride, relu, inference), func(t *testing.T) {
					testConvBF16(t, cfg, s.u8, uint64(100+i))
				})
			}
		}
	}
}

// newConvOrSkip creates a layer for cfg, skipping the test where the CPU has no fast
// bf16 kernels for a BF16 one.
func newConvOrSkip(t *testing.T, cfg ConvConfig) *Conv {
	t.Helper()
	c, err := NewConv(cfg)
	if cfg.BF16 && err != nil && strings.Contains(err.Error(), "no fast bfloat16") {
		t.Skipf("bf16 not offered on this CPU: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testConvBF16 runs one layer in float32 and in bf16 on the same inputs and compares
// both with the reference.
func testConvBF16(t *testing.T, cfg ConvConfig, u8 bool, seed uint64) {
	runs := make([]*convRun, 2)
	for j, bf := range []bool{false, true} {
		cfg.BF16 = bf
		c := newConvOrSkip(t, cfg)
		defer c.Close()
		for name, impl := range c.Impls() {
			if strings.HasPrefix(impl, "ref") {
				t.Errorf("%s runs on oneDNN's reference kernel %q", name, impl)
			}
		}
		run := newConvInputs(cfg, u8, seed)
		runs[j] = run
		if err := c.Forward(run.x, run.scale, run.w, run.b, run.y); err != nil {
			t.Fatal(err)
		}
		err := c.Backward(run.x, run.scale, run.w, run.y, run.dy, run.dw, run.db, run.dx)
		if cfg.InferenceOnly {
			if err == nil {
				t.Error("Backward on an inference layer succeeded")
			}
		} else if err != nil {
			t.Fatal(err)
		}
		// The gradients' reference masks dy by the layer's own output: where bf16
		// rounding moves an output across zero, the mask legitimately differs.
		run.wantY = refConv(cfg, run.xf, f64(run.w), f64(run.b))
		run.wantDW, run.wantDB, run.wantDX = refConvBackward(cfg, run.xf, f64(run.w), f64(run.y), f64(run.dy))
	}
	outs := func(r *convRun) map[string][]float32 {
		m := map[string][]float32{"y": r.y}
		if !cfg.InferenceOnly {
			m["dw"], m["db"] = r.dw, r.db
			if cfg.NeedDX {
				m["dx"] = r.dx
			}
		}
		return m
	}
	wants := func(r *convRun) map[string][]float64 {
		return map[string][]float64{"y": r.wantY, "dw": r.wantDW, "db": r.wantDB, "dx": r.wantDX}
	}
	f32, bf := outs(runs[0]), outs(runs[1])
	for k, got := range bf {
		if e := relL2(f32[k], wants(runs[0])[k]); e > 1e-4 {
			t.Errorf("float32 %s: relative L2 error %.3g", k, e)
		}
		e := relL2(got, wants(runs[1])[k])
		if e > 1e-2 {
			t.Errorf("bf16 %s: relative L2 error %.3g > 1e-2", k, e)
		}
		// The bias gradient sums dy, which the bf16 layer rounds only when it is masked
		// by ReLU; the others must show bf16 rounding.
		if d := relL2(got, f64(f32[k])); d < 1e-6 && k != "db" {
			t.Errorf("bf16 %s equals float32's (relative difference %.3g): no bf16 arithmetic ran", k, d)
		}
		t.Logf("bf16 %s relative L2 error %.3g", k, e)
	}
}

// FixWeights makes a layer convert its weights once: after FixWeights, changing the
// weights in place does not change the output (the held conversion is used), and the
// next FixWeights picks the change up. Without FixWeights every call converts. Both
// kinds of layer, float32 and (where offered) bf16, whose weights always need
// converting.
func TestFixWeights(t *testing.T) {
	requireLib(t)
	for _, bf := range []bool{false, true} {
		t.Run(fmt.Sprintf("bf16_%v", bf), func(t *testing.T) {
			cc := ConvConfig{Batch: 2, Cin: 32, H: 9, W: 9, Cout: 64, K: 3, Stride: 1, ReLU: true, InferenceOnly: true, BF16: bf}
			c := newConvOrSkip(t, cc)
			defer c.Close()
			run := newConvInputs(cc, false, 11)
			d, err := NewDense(DenseConfig{Batch: 2, In: 64, Out: 10, InferenceOnly: true, BF16: bf, WeightsAny: true})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			r := rand.New(rand.NewPCG(3, 4))
			dx, dw, db := randF32(r, 2*64, 1), randF32(r, 64*10, 0.1), randF32(r, 10, 0.1)
			forward := func() ([]float32, []float32) {
				y, z := make([]float32, c.OutLen()), make([]float32, 20)
				if err := c.Forward(run.x, run.scale, run.w, run.b, y); err != nil {
					t.Fatal(err)
				}
				if err := d.Forward(dx, dw, db, z); err != nil {
					t.Fatal(err)
				}
				return y, z
			}
			change := func() {
				for i := range run.w {
					run.w[i] *= -1.5
				}
				for i := range dw {
					dw[i] *= -1.5
				}
			}
			y0, z0 := forward()
			change() // not fixed: every call converts
			y1, z1 := forward()
			if relL2(y1, f64(y0)) < 1e-3 || relL2(z1, f64(z0)) < 1e-3 {
				t.Fatal("without FixWeights, a change of the weights did not reach the output")
			}
			c.FixWeights()
			d.FixWeights()
			y2, z2 := forward()
			if relL2(y2, f64(y1)) != 0 || relL2(z2, f64(z1)) != 0 {
				t.Fatal("FixWeights changed the output")
			}
			change() // fixed: the held conversion is used
			y3, z3 := forward()
			if relL2(y3, f64(y2)) != 0 || relL2(z3, f64(z2)) != 0 {
				t.Errorf("after FixWeights, an in-place change reached the output: the weights were converted again")
			}
			c.FixWeights() // the next call converts the changed weights
			d.FixWeights()
			y4, z4 := forward()
			c2, _ := NewConv(cc)
			defer c2.Close()
			want := make([]float32, c.OutLen())
			if err := c2.Forward(run.x, run.scale, run.w, run.b, want); err != nil {
				t.Fatal(err)
			}
			if e := relL2(y4, f64(want)); e != 0 {
				t.Errorf("conv after a second FixWeights differs from a fresh layer by %.3g", e)
			}
			if e := relL2(z4, refDense(DenseConfig{Batch: 2, In: 64, Out: 10}, f64(dx), f64(dw), f64(db))); e > 1e-2 {
				t.Errorf("dense after a second FixWeights differs from the reference by %.3g", e)
			}
		})
	}
}
