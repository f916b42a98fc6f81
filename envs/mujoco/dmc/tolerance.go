package dmc

import (
	"fmt"
	"math"
)

// Sigmoid is the shape of Tolerance's fall-off outside its bounds: a function of the
// distance d >= 0 from the bounds in units of the margin, 1 at d = 0 and the chosen
// value at d = 1.
type Sigmoid int

// The suite's sigmoids. Gaussian, Hyperbolic, LongTail, Reciprocal and TanhSquared
// are positive everywhere; Cosine, Linear and Quadratic reach 0 at a finite distance.
const (
	Gaussian Sigmoid = iota
	Hyperbolic
	LongTail
	Reciprocal
	Cosine
	Linear
	Quadratic
	TanhSquared
)

// sigmoidNames are the suite's names of the sigmoids, by value.
var sigmoidNames = [...]string{"gaussian", "hyperbolic", "long_tail", "reciprocal", "cosine", "linear", "quadratic", "tanh_squared"}

// String returns the suite's name of the sigmoid.
func (s Sigmoid) String() string {
	if s >= 0 && int(s) < len(sigmoidNames) {
		return sigmoidNames[s]
	}
	return fmt.Sprintf("Sigmoid(%d)", int(s))
}

// finite reports whether the sigmoid reaches 0 at a finite distance; those accept a
// value of 0 at the margin.
func (s Sigmoid) finite() bool { return s == Cosine || s == Linear || s == Quadratic }

// DefaultValueAtMargin is the suite's value of Tolerance at one margin from the bounds.
const DefaultValueAtMargin = 0.1

// Tol describes one Tolerance: the band [Lower, Upper] that scores 1, the Margin over
// which the score falls to ValueAtMargin, and the Sigmoid of the fall. A zero Margin is
// a hard band (1 inside, 0 outside).
type Tol struct {
	Lower, Upper  float64
	Margin        float64
	Sigmoid       Sigmoid
	ValueAtMargin float64
}

// Check reports a tolerance the suite would refuse: bounds in the wrong order, a
// negative margin, or a value at the margin outside (0, 1) ([0, 1) for the sigmoids
// that reach 0).
func (t Tol) Check() error {
	if t.Lower > t.Upper {
		return fmt.Errorf("dmc: tolerance bounds (%g, %g): the lower bound must not exceed the upper", t.Lower, t.Upper)
	}
	if t.Margin < 0 {
		return fmt.Errorf("dmc: tolerance margin %g: must be non-negative", t.Margin)
	}
	if t.Sigmoid < 0 || int(t.Sigmoid) >= len(sigmoidNames) {
		return fmt.Errorf("dmc: unknown sigmoid %v", t.Sigmoid)
	}
	v := t.ValueAtMargin
	if t.Sigmoid.finite() {
		if !(v >= 0 && v < 1) {
			return fmt.Errorf("dmc: %v tolerance: value at margin %g must be in [0, 1)", t.Sigmoid, v)
		}
	} else if !(v > 0 && v < 1) {
		return fmt.Errorf("dmc: %v tolerance: value at margin %g must be strictly between 0 and 1", t.Sigmoid, v)
	}
	return nil
}

// Of returns the tolerance of x: 1 within the bounds; outside them, with a margin, the
// sigmoid of the distance to the nearer bound divided by the margin; without one, 0.
// It assumes t passed Check (the tasks' tolerances are constants checked by tests).
func (t Tol) Of(x float64) float64 {
	if t.Lower <= x && x <= t.Upper {
		return 1
	}
	if t.Margin == 0 {
		return 0
	}
	d := x - t.Upper
	if x < t.Lower {
		d = t.Lower - x
	}
	return sigmoid(d/t.Margin, t.ValueAtMargin, t.Sigmoid)
}

// Tolerance is Tol{lower, upper, margin, s, valueAtMargin}.Of(x), the suite's
// rewards.tolerance.
func Tolerance(x, lower, upper, margin float64, s Sigmoid, valueAtMargin float64) float64 {
	return Tol{lower, upper, margin, s, valueAtMargin}.Of(x)
}

// sigmoid evaluates a fall-off at distance d >= 0 (in margins), scaled so that its
// value at d = 1 is v.
func sigmoid(d, v float64, s Sigmoid) float64 {
	switch s {
	case Gaussian:
		scale := math.Sqrt(-2 * math.Log(v))
		return math.Exp(-0.5 * (d * scale) * (d * scale))
	case Hyperbolic:
		scale := math.Acosh(1 / v)
		return 1 / math.Cosh(d*scale)
	case LongTail:
		scale := math.Sqrt(1/v - 1)
		return 1 / ((d*scale)*(d*scale) + 1)
	case Reciprocal:
		scale := 1/v - 1
		return 1 / (math.Abs(d)*scale + 1)
	case Cosine:
		scaled := d * math.Acos(2*v-1) / math.Pi
		if math.Abs(scaled) < 1 {
			return (1 + math.Cos(math.Pi*scaled)) / 2
		}
		return 0
	case Linear:
		scaled := d * (1 - v)
		if math.Abs(scaled) < 1 {
			return 1 - scaled
		}
		return 0
	case Quadratic:
		scaled := d * math.Sqrt(1-v)
		if math.Abs(scaled) < 1 {
			return 1 - scaled*scaled
		}
		return 0
	case TanhSquared:
		scale := math.Atanh(math.Sqrt(1 - v))
		t := math.Tanh(d * scale)
		return 1 - t*t
	}
	panic(fmt.Sprintf("dmc: unknown sigmoid %v", s))
}

// smallControlTol is the suite's per-actuator control penalty: 1 at zero control,
// falling quadratically to 0 at |u| = 1.
var smallControlTol = Tol{Lower: 0, Upper: 0, Margin: 1, Sigmoid: Quadratic, ValueAtMargin: 0}

// smallControl is the suite's small_control reward term, (4 + the mean tolerance of
// the controls) / 5, of the raw controls (the action as written, not clamped to the
// control range): it shaves at most a fifth off a reward for effort.
func smallControl(p *Physics) float64 {
	if len(p.D.Ctrl) == 0 {
		return 1
	}
	s := 0.0
	for _, u := range p.D.Ctrl {
		s += smallControlTol.Of(u)
	}
	return (4 + s/float64(len(p.D.Ctrl))) / 5
}
