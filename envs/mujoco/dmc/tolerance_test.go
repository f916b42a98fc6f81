package dmc

import (
	"math"
	"strings"
	"testing"
)

// sigmoids are all the suite's sigmoids.
var sigmoids = []Sigmoid{Gaussian, Hyperbolic, LongTail, Reciprocal, Cosine, Linear, Quadratic, TanhSquared}

// closeTol is how near a tolerance, a value in [0, 1], must come to its hand-worked
// value.
const closeTol = 1e-12

// Inside the bounds every tolerance is 1, edges included; outside with no margin, 0.
func TestToleranceBand(t *testing.T) {
	for _, s := range sigmoids {
		for _, x := range []float64{-1, 0, 0.5, 2} {
			if got := Tolerance(x, -1, 2, 0.3, s, 0.1); got != 1 {
				t.Errorf("%v: tolerance(%g) in [-1, 2] = %g, want 1", s, x, got)
			}
		}
		if got := Tolerance(2.0001, -1, 2, 0, s, 0.1); got != 0 {
			t.Errorf("%v: outside a hard band: %g, want 0", s, got)
		}
	}
}

// One margin from either bound every sigmoid gives the value at the margin.
func TestToleranceValueAtMargin(t *testing.T) {
	for _, s := range sigmoids {
		for _, v := range []float64{0.1, 0.5, 0.9} {
			for _, x := range []float64{4 + 2, 1 - 2} { // bounds [1, 4], margin 2
				if got := Tolerance(x, 1, 4, 2, s, v); !near(got, v, closeTol) {
					t.Errorf("%v, value at margin %g: tolerance(%g) = %.15g", s, v, x, got)
				}
			}
		}
	}
	for _, s := range []Sigmoid{Cosine, Linear, Quadratic} {
		if got := Tolerance(3, 0, 1, 2, s, 0); got != 0 {
			t.Errorf("%v with value 0 at the margin: %g at one margin, want 0", s, got)
		}
	}
}

// Values at half a margin and at two margins, worked out by hand for a value of 0.1 at
// the margin (bounds [0, 0], margin 1, so the distance is |x|).
func TestToleranceHandValues(t *testing.T) {
	cases := []struct {
		s         Sigmoid
		half, two float64
	}{
		{Gaussian, math.Pow(0.1, 0.25), 1e-4},       // exp(-d^2/2 * -2 ln 0.1) = 0.1^(d^2)
		{Hyperbolic, 1 / math.Sqrt(5.5), 1.0 / 199}, // 1/cosh(d acosh 10); cosh(2a) = 2*10^2 - 1
		{LongTail, 1 / (0.25*9 + 1), 1.0 / 37},      // 1/((d*3)^2 + 1)
		{Reciprocal, 1 / (0.5*9 + 1), 1.0 / 19},     // 1/(9d + 1)
		{Cosine, (1 + math.Sqrt(0.1)) / 2, 0},       // (1 + cos(d acos(-0.8)))/2; 0 past acos(-0.8)/pi
		{Linear, 1 - 0.5*0.9, 0},                    // 1 - 0.9d, 0 past 1/0.9
		{Quadratic, 1 - 0.25*0.9, 0},                // 1 - 0.9d^2
		{TanhSquared, 1 - halfTanh(), 0.01 / 3.61},  // 1 - tanh(d a)^2, tanh(a) = sqrt(0.9); tanh(2a) = 2*sqrt(0.9)/1.9
	}
	for _, c := range cases {
		for _, x := range []float64{0.5, -0.5} {
			if got := Tolerance(x, 0, 0, 1, c.s, 0.1); !near(got, c.half, closeTol) {
				t.Errorf("%v at half a margin (x = %g): %.15g, want %.15g", c.s, x, got, c.half)
			}
		}
		if got := Tolerance(-2, 0, 0, 1, c.s, 0.1); !near(got, c.two, closeTol) {
			t.Errorf("%v at two margins: %.15g, want %.15g", c.s, got, c.two)
		}
	}
}

// halfTanh is tanh(a/2)^2 for a = atanh(sqrt(0.9)): with t = tanh(a/2),
// tanh(a) = 2t/(1+t^2), so t = (1 - sqrt(1 - 0.9)) / sqrt(0.9).
func halfTanh() float64 {
	t := (1 - math.Sqrt(0.1)) / math.Sqrt(0.9)
	return t * t
}

// TestToleranceChecks: Check refuses what the suite refuses, and the sigmoids carry
// the suite's names.
func TestToleranceChecks(t *testing.T) {
	bad := []struct {
		tol  Tol
		want string
	}{
		{Tol{Lower: 1, Upper: 0, Sigmoid: Gaussian, ValueAtMargin: 0.1}, "lower bound"},
		{Tol{Margin: -1, Sigmoid: Gaussian, ValueAtMargin: 0.1}, "non-negative"},
		{Tol{Margin: 1, Sigmoid: Gaussian, ValueAtMargin: 0}, "strictly between"},
		{Tol{Margin: 1, Sigmoid: LongTail, ValueAtMargin: 1}, "strictly between"},
		{Tol{Margin: 1, Sigmoid: Linear, ValueAtMargin: 1}, "[0, 1)"},
		{Tol{Margin: 1, Sigmoid: Sigmoid(42), ValueAtMargin: 0.1}, "unknown sigmoid"},
	}
	for _, b := range bad {
		if err := b.tol.Check(); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("Check(%+v) = %v, want an error saying %q", b.tol, err, b.want)
		}
	}
	for _, s := range sigmoids {
		if err := (Tol{Margin: 1, Sigmoid: s, ValueAtMargin: DefaultValueAtMargin}).Check(); err != nil {
			t.Errorf("%v with the default value at the margin: %v", s, err)
		}
	}
	if Cosine.String() != "cosine" || TanhSquared.String() != "tanh_squared" {
		t.Error("sigmoid names differ from the suite's")
	}
}
