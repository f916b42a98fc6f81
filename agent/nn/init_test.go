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
