package optim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// adamSpan32 (eight lanes in assembly where the CPU has AVX, the rest in Go) gives
// the same bits as the Go loop, for spans of every length modulo 8, with and without
// clipping, over several steps whose moments feed the next, and zeroes the gradients.
func TestAdamSpan32MatchesGo(t *testing.T) {
	if !hasAVX {
		t.Log("no AVX: adamSpan32 is the Go loop here; the comparison is trivial")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 8, 9, 15, 16, 63, 1000, 1031} {
		for _, scale := range []float64{1, 0.37} {
			fill := func() []float32 {
				s := make([]float32, n)
				for i := range s {
					s[i] = float32(rng.NormFloat64())
				}
				return s
			}
			w := fill()
			w2 := append([]float32(nil), w...)
			m, v := make([]float32, n), make([]float32, n)
			m2, v2 := make([]float32, n), make([]float32, n)
			for step := 1; step <= 3; step++ {
				g := fill()
				g2 := append([]float32(nil), g...)
				h := adamHyper{lr: 1e-3 / (1 - math.Pow(0.9, float64(step))), b1: 0.9, b2: 0.999, eps: 1e-5,
					invSqrtBC2: 1 / math.Sqrt(1-math.Pow(0.999, float64(step))), scale: scale}
				adamSpan32(w, g, m, v, h)
				adamSpan(w2, g2, m2, v2, h)
				for i := range n {
					if math.Float32bits(w[i]) != math.Float32bits(w2[i]) || m[i] != m2[i] || v[i] != v2[i] {
						t.Fatalf("n=%d scale=%g step %d element %d: w %v m %v v %v, the Go loop gives %v %v %v",
							n, scale, step, i, w[i], m[i], v[i], w2[i], m2[i], v2[i])
					}
					if g[i] != 0 {
						t.Fatalf("n=%d element %d: gradient %v left after the step", n, i, g[i])
					}
				}
			}
		}
	}
}

// BenchmarkAdamSpan32 times one update of the small CNN's dense weights (663,552
// float32s), adamSpan32 against the Go loop.
func BenchmarkAdamSpan32(b *testing.B) {
	const n = 2592 * 256
	w, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range w {
		w[i], v[i] = 0.01, 1e-4
	}
	h := adamHyper{lr: 1e-3, b1: 0.9, b2: 0.999, eps: 1e-5, invSqrtBC2: 1, scale: 1}
	for _, c := range []struct {
		name string
		f    func(w, g, m, v []float32, h adamHyper)
	}{{"span32", adamSpan32}, {"go", adamSpan[float32]}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.f(w, g, m, v, h)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/weight")
		})
	}
}
