package dnnl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// denseRun holds one Forward + Backward of a dense layer on random data.
type denseRun struct {
	cfg                    DenseConfig
	x, w, b, dy            []float32
	y, dw, db, dx          []float32
	wantY                  []float64
	wantDW, wantDB, wantDX []float64
	impls                  map[string]string
}

// runDense builds a layer for cfg and runs it on inputs drawn from seed.
func runDense(t *testing.T, cfg DenseConfig, seed uint64) *denseRun {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 9))
	run := &denseRun{cfg: cfg}
	run.x = randF32(r, cfg.Batch*cfg.In, 1)
	run.w = randF32(r, cfg.In*cfg.Out, 1/math.Sqrt(float64(cfg.In)))
	run.b = randF32(r, cfg.Out, 0.1)
	run.dy = randF32(r, cfg.Batch*cfg.Out, 1)
	run.y = make([]float32, cfg.Batch*cfg.Out)
	run.dw = make([]float32, cfg.In*cfg.Out)
	run.db = make([]float32, cfg.Out)
	if cfg.NeedDX {
		run.dx = make([]float32, cfg.Batch*cfg.In)
	}
	d, err := NewDense(cfg)
	if cfg.BF16 && err != nil && strings.Contains(err.Error(), "no fast bfloat16") {
		t.Skipf("bf16 not offered on this CPU: %v", err)
	}
	if err != nil {
		t.Fatalf("NewDense(%+v): %v", cfg, err)
	}
	defer d.Close()
	run.impls = d.Impls()
	if err := d.Forward(run.x, run.w, run.b, run.y); err != nil {
		t.Fatalf("Forward: %v", err)
	}
	err = d.Backward(run.x, run.w, run.y, run.dy, run.dw, run.db, run.dx)
	if cfg.InferenceOnly {
		if err == nil {
			t.Error("Backward on an inference layer succeeded")
		}
	} else if err != nil {
		t.Fatalf("Backward: %v", err)
	}
	// The gradients' reference masks dy by the layer's own output, which rounding
	// (bf16 especially) may move across zero.
	run.wantY = refDense(cfg, f64(run.x), f64(run.w), f64(run.b))
	run.wantDW, run.wantDB, run.wantDX = refDenseBackward(cfg, f64(run.x), f64(run.w), f64(run.y), f64(run.dy))
	return run
}

// TestDenseMatchesReference compares outputs and gradients with naive loops.
func TestDenseMatchesReference(t *testing.T) {
	requireLib(t)
	shapes := []DenseConfig{
		{Batch: 3, In: 13, Out: 7},
		{Batch: 1, In: 5, Out: 1},
		{Batch: 17, In: 100, Out: 33},
		{Batch: 32, In: 512, Out: 6},
		{Batch: 4, In: 3136, Out: 512},
	}
	for _, base := range shapes {
		for _, relu := range []bool{false, true} {
			for _, needDX := range []bool{false, true} {
				cfg := base
				if cfg.In > 1000 && !(relu && needDX) {
					continue // the large shape once: its float64 reference is slow
				}
				cfg.ReLU, cfg.NeedDX = relu, needDX
				t.Run(fmt.Sprintf("b%d_%dx%d_relu%v_dx%v", cfg.Batch, cfg.In, cfg.Out, relu, needDX), func(t *testing.T) {
					run := runDense(t, cfg, uint64(cfg.Batch*1000+cfg.In))
					errs := map[string]float64{
						"y":  relL2(run.y, run.wantY),
						"dw": relL2(run.dw, run.wantDW),
						"db": relL2(run.db, run.wantDB),
					}
					if needDX {
						errs["dx"] = relL2(run.dx, run.wantDX)
					}
					for k, e := range errs {
						if !(e <= 1e-4) {
							t.Errorf("%s: relative L2 error %.3g (impls %v)", k, e, run.impls)
						}
					}
				})
			}
		}
	}
}

// TestDenseWeightsLayout checks that the plain (In, Out) weights keep oneDNN's gemm
// kernels, so no weight reorder is needed, and that letting oneDNN choose gives the
// same results.
func TestDenseWeightsLayout(t *testing.T) {
	requireLib(t)
	cfg := DenseConfig{Batch: 8, In: 3136, Out: 512, ReLU: true, NeedDX: true}
	plain := runDense(t, cfg, 4)
	for name, impl := range plain.impls {
		if name == "reorder_w" || name == "reorder_dw" || name == "reorder_w_bwd_data" {
			t.Errorf("plain weights need %s (%s)", name, impl)
		}
	}
	t.Logf("plain weights: %v", plain.impls)
	cfg.WeightsAny = true
	chosen := runDense(t, cfg, 4)
	t.Logf("weights layout chosen by oneDNN: %v", chosen.impls)
	for _, p := range []struct {
		name string
		a, b []float32
	}{{"y", plain.y, chosen.y}, {"dw", plain.dw, chosen.dw}, {"dx", plain.dx, chosen.dx}} {
		if e := relL2(p.b, f64(p.a)); e > 1e-5 {
			t.Errorf("%s differs between weight layouts by %.3g", p.name, e)
		}
	}
}

// TestDenseFiniteDifferences checks Backward against central differences of the
// float64 reference loss sum(y * r).
func TestDenseFiniteDifferences(t *testing.T) {
	requireLib(t)
	cfg := DenseConfig{Batch: 3, In: 6, Out: 4, ReLU: true, NeedDX: true}
	run := runDense(t, cfg, 8)
	x, w, b := f64(run.x), f64(run.w), f64(run.b)
	loss := func() float64 { return weightedSum(refDense(cfg, x, w, b), run.dy) }
	checkFiniteDifferences(t, "", loss, run.dw, run.db, run.dx, w, b, x)
}

// TestDenseBadInput checks that wrong slice lengths are errors, not panics.
func TestDenseBadInput(t *testing.T) {
	requireLib(t)
	d, err := NewDense(DenseConfig{Batch: 2, In: 3, Out: 4, NeedDX: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	x, w, b, y := make([]float32, 6), make([]float32, 12), make([]float32, 4), make([]float32, 8)
	dy, dw, db, dx := make([]float32, 8), make([]float32, 12), make([]float32, 4), make([]float32, 6)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"nil x", d.Forward(nil, w, b, y)},
		{"short w", d.Forward(x, w[:11], b, y)},
		{"long b", d.Forward(x, w, make([]float32, 5), y)},
		{"short y", d.Forward(x, w, b, y[:1])},
		{"nil dx", d.Backward(x, w, y, dy, dw, db, nil)},
		{"short db", d.Backward(x, w, y, dy, dw, db[:1], dx)},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := NewDense(DenseConfig{Batch: 0, In: 3, Out: 4}); err == nil {
		t.Error("batch 0: no error")
	}
	if err := d.Forward(x, w, b, y); err != nil {
		t.Fatalf("valid Forward: %v", err)
	}
}

// TestDenseBF16 checks the bfloat16 inner products (inference and training) against
// the float64 reference within 1% relative L2, and that they differ from float32's
// (the bf16 kernels ran); none may be oneDNN's reference kernel.
func TestDenseBF16(t *testing.T) {
	requireLib(t)
	for _, base := range []DenseConfig{{Batch: 16, In: 3136, Out: 512, ReLU: true}, {Batch: 32, In: 512, Out: 6}} {
		for _, inference := range []bool{false, true} {
			cfg := base
			cfg.InferenceOnly, cfg.NeedDX = inference, !inference
			t.Run(fmt.Sprintf("b%d_%dx%d_inference%v", cfg.Batch, cfg.In, cfg.Out, inference), func(t *testing.T) {
				f32 := runDense(t, cfg, 5)
				cfg.BF16 = true
				bf := runDense(t, cfg, 5)
				for name, impl := range bf.impls {
					if strings.HasPrefix(impl, "ref") {
						t.Errorf("bf16 %s runs on oneDNN's reference kernel %q", name, impl)
					}
				}
				type pair struct {
					got, f32 []float32
					want     []float64
				}
				outs := map[string]pair{"y": {bf.y, f32.y, bf.wantY}}
				if !inference {
					outs["dw"] = pair{bf.dw, f32.dw, bf.wantDW}
					outs["dx"] = pair{bf.dx, f32.dx, bf.wantDX}
					outs["db"] = pair{bf.db, f32.db, bf.wantDB}
				}
				for k, p := range outs {
					e := relL2(p.got, p.want)
					if e > 1e-2 {
						t.Errorf("bf16 %s: relative L2 error %.3g > 1e-2", k, e)
					}
					if d := relL2(p.got, f64(p.f32)); d < 1e-6 && k != "db" {
						t.Errorf("bf16 %s equals float32's (relative difference %.3g): no bf16 arithmetic ran", k, d)
					}
					t.Logf("bf16 %s relative L2 error %.3g", k, e)
				}
			})
		}
	}
}
