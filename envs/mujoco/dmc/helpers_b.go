package dmc

// Helpers shared by the walker, hopper, humanoid, humanoid_CMU, swimmer and fish
// domains (helper file "b"): vectors in a body's frame, the suite's small-control
// reward term, and the humanoids' collision-free random start.

import (
	"fmt"
	"math"
)

// vecInFrame returns the world vector v expressed in the frame whose orientation matrix
// is mat (row-major 3x3, an xmat or geom_xmat row): v.dot(mat) in the suite's numpy
// terms, that is mat^T v.
func vecInFrame(v [3]float64, mat []float64) [3]float64 {
	var out [3]float64
	for j := range 3 {
		out[j] = v[0]*mat[j] + v[1]*mat[3+j] + v[2]*mat[6+j]
	}
	return out
}

// vecSub3 returns a - b for two 3-vectors (rows of xpos, geom_xpos, ...).
func vecSub3(a, b []float64) [3]float64 {
	return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]}
}

// smallControlTol is the suite's per-actuator control penalty: 1 at zero control,
// falling quadratically to 0 at |u| = 1.
var smallControlTol = Tol{Lower: 0, Upper: 0, Margin: 1, Sigmoid: Quadratic, ValueAtMargin: 0}

// smallControl is the suite's small_control term, (4 + mean tolerance of the controls)
// / 5, of the raw controls (the action as written, not clamped to the control range).
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

// maxStartTries bounds the humanoids' search for a collision-free start; the suite
// loops without a bound, and a try succeeds with a fair probability, so reaching it
// means something else is wrong.
const maxStartTries = 100000

// randomStartWithoutContacts is the humanoids' initialize_episode: randomise the
// limited and rotational joints, run a forward pass with actuation disabled (the
// suite's after_reset), and repeat while any contact exists.
func randomStartWithoutContacts(p *Physics, domain string) error {
	for range maxStartTries {
		p.RandomizeLimitedAndRotationalJoints()
		if err := p.forwardPassive(); err != nil {
			return err
		}
		if p.D.NCon() == 0 {
			return nil
		}
	}
	return fmt.Errorf("dmc: %s: no collision-free start in %d tries", domain, maxStartTries)
}

// euclidNorm returns the Euclidean norm of v, as numpy's linalg.norm sums it.
func euclidNorm(v ...float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// registerVariants registers tasks of a domain that compile the suite's file unedited
// and differ only in a parameter: task i is named names[i] and its logic is made by
// newLogic(p, i).
func registerVariants(domain string, frameSkip int, names []string, newLogic func(p *Physics, variant int) (logic, error)) {
	for i, name := range names {
		register(&taskDef{domain: domain, task: name, frameSkip: frameSkip, model: suiteModel(domain),
			newLogic: func(p *Physics, _ taskOptions) (logic, error) { return newLogic(p, i) }})
	}
}

// nameResolver resolves a task's names one by one, keeping the first error, so that a
// constructor checks once (err) after all its look-ups.
type nameResolver struct {
	p      *Physics
	domain string
	err    error
}

// id returns the id of a named object (mujoco.ObjBody, ObjGeom, ...), or -1 after an
// error.
func (r *nameResolver) id(objType int, name string) int {
	if r.err != nil {
		return -1
	}
	id, err := r.p.ID(objType, name)
	r.err = err
	return id
}

// sensor returns a named sensor (zero after an error).
func (r *nameResolver) sensor(name string) Sensor {
	if r.err != nil {
		return Sensor{}
	}
	s, err := r.p.Sensors(name)
	if err != nil {
		r.err = err
		return Sensor{}
	}
	return s[0]
}

// joints returns named joints (nil after an error).
func (r *nameResolver) joints(names ...string) []Joint {
	if r.err != nil {
		return nil
	}
	j, err := r.p.Joints(names...)
	r.err = err
	return j
}

// failed returns the first error, naming the domain.
func (r *nameResolver) failed() error { return mustBeNamed(r.domain, r.err) }
