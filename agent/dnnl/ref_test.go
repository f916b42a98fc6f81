package dnnl

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rlpool/rlpool/agent/gradcheck"
)

// Straightforward float64 reference implementations the tests compare oneDNN with.

// refConv computes y = conv(x, w) + b (then ReLU) for plain NCHW / OIHW tensors.
func refConv(cfg ConvConfig, x, w, b []float64) []float64 {
	oh, ow := cfg.OutH(), cfg.OutW()
	y := make([]float64, cfg.Batch*cfg.Cout*oh*ow)
	for n := 0; n < cfg.Batch; n++ {
		for o := 0; o < cfg.Cout; o++ {
			for i := 0; i < oh; i++ {
				for j := 0; j < ow; j++ {
					s := b[o]
					for c := 0; c < cfg.Cin; c++ {
						for p := 0; p < cfg.K; p++ {
							for q := 0; q < cfg.K; q++ {
								s += x[((n*cfg.Cin+c)*cfg.H+i*cfg.Stride+p)*cfg.W+j*cfg.Stride+q] *
									w[((o*cfg.Cin+c)*cfg.K+p)*cfg.K+q]
							}
						}
					}
					if cfg.ReLU && s < 0 {
						s = 0
					}
					y[((n*cfg.Cout+o)*oh+i)*ow+j] = s
				}
			}
		}
	}
	return y
}

// refConvBackward computes dw, db and dx from x, w, the output y and its gradient dy.
func refConvBackward(cfg ConvConfig, x, w, y, dy []float64) (dw, db, dx []float64) {
	oh, ow := cfg.OutH(), cfg.OutW()
	dw = make([]float64, len(w))
	db = make([]float64, cfg.Cout)
	dx = make([]float64, len(x))
	for n := 0; n < cfg.Batch; n++ {
		for o := 0; o < cfg.Cout; o++ {
			for i := 0; i < oh; i++ {
				for j := 0; j < ow; j++ {
					k := ((n*cfg.Cout+o)*oh+i)*ow + j
					g := dy[k]
					if cfg.ReLU && y[k] <= 0 {
						g = 0
					}
					db[o] += g
					for c := 0; c < cfg.Cin; c++ {
						for p := 0; p < cfg.K; p++ {
							for q := 0; q < cfg.K; q++ {
								xi := ((n*cfg.Cin+c)*cfg.H+i*cfg.Stride+p)*cfg.W + j*cfg.Stride + q
								wi := ((o*cfg.Cin+c)*cfg.K+p)*cfg.K + q
								dw[wi] += g * x[xi]
								dx[xi] += g * w[wi]
							}
						}
					}
				}
			}
		}
	}
	return dw, db, dx
}

// refDense computes y = x w + b (then ReLU), w being (In, Out).
func refDense(cfg DenseConfig, x, w, b []float64) []float64 {
	y := make([]float64, cfg.Batch*cfg.Out)
	for n := 0; n < cfg.Batch; n++ {
		for o := 0; o < cfg.Out; o++ {
			s := b[o]
			for i := 0; i < cfg.In; i++ {
				s += x[n*cfg.In+i] * w[i*cfg.Out+o]
			}
			if cfg.ReLU && s < 0 {
				s = 0
			}
			y[n*cfg.Out+o] = s
		}
	}
	return y
}

// refDenseBackward computes dw, db and dx.
func refDenseBackward(cfg DenseConfig, x, w, y, dy []float64) (dw, db, dx []float64) {
	dw = make([]float64, len(w))
	db = make([]float64, cfg.Out)
	dx = make([]float64, len(x))
	for n := 0; n < cfg.Batch; n++ {
		for o := 0; o < cfg.Out; o++ {
			g := dy[n*cfg.Out+o]
			if cfg.ReLU && y[n*cfg.Out+o] <= 0 {
				g = 0
			}
			db[o] += g
			for i := 0; i < cfg.In; i++ {
				dw[i*cfg.Out+o] += g * x[n*cfg.In+i]
				dx[n*cfg.In+i] += g * w[i*cfg.Out+o]
			}
		}
	}
	return dw, db, dx
}

// randF32 returns n normal random numbers times scale.
func randF32(r *rand.Rand, n int, scale float64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64() * scale)
	}
	return s
}

// randU8 returns n random bytes.
func randU8(r *rand.Rand, n int) []uint8 {
	s := make([]uint8, n)
	for i := range s {
		s[i] = uint8(r.IntN(256))
	}
	return s
}

// f64 widens a float32 slice.
func f64(s []float32) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

// relL2 is |got - want| / |want| in the L2 norm (|got - want| when want is 0).
func relL2(got []float32, want []float64) float64 {
	var num, den float64
	for i := range want {
		d := float64(got[i]) - want[i]
		num += d * d
		den += want[i] * want[i]
	}
	if den == 0 {
		return math.Sqrt(num)
	}
	return math.Sqrt(num / den)
}

// requireLib skips the test when oneDNN cannot be loaded.
func requireLib(tb testing.TB) {
	tb.Helper()
	if err := Load(); err != nil {
		tb.Skipf("oneDNN not available (%v): skipping", err)
	}
}

// weightedSum is sum(y * r), the scalar loss whose gradient with respect to y is r.
func weightedSum(y []float64, r []float32) float64 {
	s := 0.0
	for i, v := range y {
		s += v * float64(r[i])
	}
	return s
}

// checkFiniteDifferences compares a layer's gradients dw, db and dx against central
// differences of loss, which reads the float64 weights w, bias b and input x, and
// reports (prefixed by label) each one further than 1e-3 in relative L2 error.
func checkFiniteDifferences(t *testing.T, label string, loss func() float64, dw, db, dx []float32, w, b, x []float64) {
	t.Helper()
	const eps = 1e-4
	fd := func(v []float64) []float64 {
		g := make([]float64, len(v))
		for i := range v {
			g[i] = gradcheck.Central(v, i, eps, loss)
		}
		return g
	}
	for _, p := range []struct {
		name string
		got  []float32
		v    []float64
	}{{"dw", dw, w}, {"db", db, b}, {"dx", dx, x}} {
		if e := relL2(p.got, fd(p.v)); e > 1e-3 {
			t.Errorf("%s%s: relative L2 error against finite differences %.3g", label, p.name, e)
		}
	}
}

// mustConv returns a new convolution layer closed when the test ends, failing the
// test when cfg is refused.
func mustConv(t *testing.T, cfg ConvConfig) *Conv {
	t.Helper()
	c, err := NewConv(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
