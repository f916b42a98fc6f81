package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gorgonia.org/tensor"
)

func TestOrthogonal(t *testing.T) {
	cases := []struct {
		name       string
		rows, cols int
		gain       float64
	}{
		{"square", 16, 16, 1},
		{"wide conv kernel", 32, 256, math.Sqrt2},
		{"tall dense", 300, 64, math.Sqrt2},
		{"vector", 1, 8, 0.01},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := Orthogonal(c.rows, c.cols, c.gain, rand.New(rand.NewPCG(1, 2)))
			// The smaller Gram matrix must be gain^2 I.
			n, m := c.rows, c.cols
			at := func(i, j int) float64 { return w[i*c.cols+j] }
			if c.rows > c.cols { // columns orthonormal
				n, m = c.cols, c.rows
				at = func(i, j int) float64 { return w[j*c.cols+i] }
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					var s float64
					for k := 0; k < m; k++ {
						s += at(i, k) * at(j, k)
					}
					want := 0.0
					if i == j {
						want = c.gain * c.gain
					}
					if math.Abs(s-want) > 1e-9 {
						t.Fatalf("Gram[%d][%d] = %g, want %g", i, j, s, want)
					}
				}
			}
		})
	}
}

func TestOrthogonalInitShapes(t *testing.T) {
	init := OrthogonalInit(math.Sqrt2, rand.New(rand.NewPCG(3, 4)))
	cases := []struct {
		dt    tensor.Dtype
		shape []int
	}{
		{tensor.Float32, []int{32, 4, 8, 8}},
		{tensor.Float64, []int{64, 10}},
	}
	for _, c := range cases {
		v := init(c.dt, c.shape...)
		n := tensor.Shape(c.shape).TotalSize()
		switch d := v.(type) {
		case []float32:
			if c.dt != tensor.Float32 || len(d) != n {
				t.Fatalf("%v %v: got %d float32s", c.dt, c.shape, len(d))
			}
		case []float64:
			if c.dt != tensor.Float64 || len(d) != n {
				t.Fatalf("%v %v: got %d float64s", c.dt, c.shape, len(d))
			}
		default:
			t.Fatalf("%v: unexpected %T", c.dt, v)
		}
	}
}

// gramSchmidt is the orthogonal initialiser written the textbook way: k = min(rows,
// cols) Gaussian vectors of length max(rows, cols), drawn one after the other and
// orthonormalised in turn.
func gramSchmidt(rows, cols int, gain float64, rng *rand.Rand) []float64 {
	n, k := max(rows, cols), min(rows, cols)
	v := make([][]float64, k)
	for j := range v {
		v[j] = make([]float64, n)
		for i := range v[j] {
			v[j][i] = rng.NormFloat64()
		}
		for p := 0; p < j; p++ {
			d := 0.0
			for i := range v[j] {
				d += v[j][i] * v[p][i]
			}
			for i := range v[j] {
				v[j][i] -= d * v[p][i]
			}
		}
		norm := 0.0
		for _, x := range v[j] {
			norm += x * x
		}
		for i := range v[j] {
			v[j][i] /= math.Sqrt(norm)
		}
	}
	out := make([]float64, rows*cols)
	for r := range rows {
		for c := range cols {
			if rows >= cols {
				out[r*cols+c] = gain * v[c][r]
			} else {
				out[r*cols+c] = gain * v[r][c]
			}
		}
	}
	return out
}

// Orthogonal (QR) equals Gram-Schmidt on the same draws: the MLPs' initial weights are
// the same whichever way they are computed.
func TestOrthogonalIsGramSchmidtOfTheSameDraws(t *testing.T) {
	for _, sh := range [][2]int{{8, 3}, {3, 8}, {5, 5}, {64, 2}} {
		got := Orthogonal(sh[0], sh[1], 1.5, rand.New(rand.NewPCG(7, 8)))
		want := gramSchmidt(sh[0], sh[1], 1.5, rand.New(rand.NewPCG(7, 8)))
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("%dx%d: element %d = %v, Gram-Schmidt %v", sh[0], sh[1], i, got[i], want[i])
			}
		}
	}
}
