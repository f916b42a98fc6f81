package gradcheck

import (
	"math"
	"testing"
)

// For a quadratic the central difference is exact: d/dx_i of sum(c_k x_k^2) is
// 2 c_i x_i. The value is restored, and the other elements are untouched.
func TestCentralQuadratic(t *testing.T) {
	x := []float64{1.5, -2, 0.25}
	c := []float64{3, 0.5, -4}
	f := func() float64 {
		s := 0.0
		for k, v := range x {
			s += c[k] * v * v
		}
		return s
	}
	for i := range x {
		got := Central(x, i, 1e-3, f)
		if want := 2 * c[i] * x[i]; math.Abs(got-want) > 1e-9 {
			t.Errorf("Central(x, %d) = %.12g, want %.12g", i, got, want)
		}
	}
	if x[0] != 1.5 || x[1] != -2 || x[2] != 0.25 {
		t.Errorf("x = %v after Central, want it restored to [1.5 -2 0.25]", x)
	}
}

// With float32 values the step is taken in float32: for f(x) = x^3 at 2 the central
// difference is 3*4 + h^2, and a step of 2^-4 is exact in float32.
func TestCentralFloat32(t *testing.T) {
	x := []float32{2}
	f := func() float64 { return float64(x[0]) * float64(x[0]) * float64(x[0]) }
	h := 1.0 / 16
	if got, want := Central(x, 0, h, f), 12+h*h; math.Abs(got-want) > 1e-12 {
		t.Errorf("Central = %.12g, want %.12g", got, want)
	}
	if x[0] != 2 {
		t.Errorf("x[0] = %g after Central, want 2", x[0])
	}
}
