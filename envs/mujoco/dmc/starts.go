package dmc

// Initial states: the suite's randomizers and the searches for a start in which
// nothing touches. Every draw comes from the env's own generator, in the suite's
// order, so that an env's episodes depend only on its seed.

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// maxStartTries bounds the searches for a collision-free start of the humanoids, the
// finger and the planar arms; the suite loops without a bound, and a try succeeds
// with a fair probability, so reaching it means something else is wrong.
const maxStartTries = 100000

// startWithoutContacts is the suite's rejection loop for initial states: it calls
// place (which sets a candidate state) and runs a forward pass with actuation
// disabled, until no contact exists or tries candidates were rejected.
func startWithoutContacts(p *Physics, domain string, tries int, place func() error) error {
	for range tries {
		if err := place(); err != nil {
			return err
		}
		if err := p.forwardPassive(); err != nil {
			return err
		}
		if p.D.NCon() == 0 {
			return nil
		}
	}
	return fmt.Errorf("dmc: %s: no contact-free start in %d tries", domain, tries)
}

// randomStartWithoutContacts is the humanoids' and the finger's initialize_episode:
// randomise the limited and rotational joints, run a forward pass with actuation
// disabled (the suite's after_reset), and repeat while any contact exists.
func randomStartWithoutContacts(p *Physics, domain string) error {
	return startWithoutContacts(p, domain, maxStartTries, func() error {
		p.RandomizeLimitedAndRotationalJoints()
		return nil
	})
}

// randomUnitVector fills v with standard normal draws and scales it to unit length: a
// direction uniform on the sphere, or (four values) a uniformly random orientation
// quaternion, as the suite draws them.
func randomUnitVector(p *Physics, v []float64) {
	for i := range v {
		v[i] = p.Normal()
	}
	n := norm(v...)
	for i := range v {
		v[i] /= n
	}
}

// RandomizeLimitedAndRotationalJoints is the suite's randomizers function of the same
// name: a limited hinge or slide joint gets a uniform value in its range, a limited
// ball joint a rotation about a random axis by an angle uniform in [0, range max], an
// unlimited hinge an angle uniform in [-pi, pi], an unlimited ball or free joint a
// random unit quaternion (a free joint keeps its position).
func (p *Physics) RandomizeLimitedAndRotationalJoints() {
	m := p.M
	types, limited := m.Int32s("jnt_type"), m.Bytes("jnt_limited")
	ranges, adr := m.Float64s("jnt_range"), m.Int32s("jnt_qposadr")
	q := p.D.Qpos
	for j := range types {
		a := int(adr[j])
		lo, hi := ranges[2*j], ranges[2*j+1]
		switch typ := int(types[j]); {
		case limited[j] != 0 && (typ == mujoco.JointHinge || typ == mujoco.JointSlide):
			q[a] = p.Uniform(lo, hi)
		case limited[j] != 0 && typ == mujoco.JointBall:
			axis := [3]float64{p.Normal(), p.Normal(), p.Normal()}
			n := norm(axis[:]...)
			angle := p.Uniform(0, hi)
			s := math.Sin(angle / 2)
			q[a], q[a+1], q[a+2], q[a+3] = math.Cos(angle/2), s*axis[0]/n, s*axis[1]/n, s*axis[2]/n
		case typ == mujoco.JointHinge:
			q[a] = p.Uniform(-math.Pi, math.Pi)
		case typ == mujoco.JointBall || typ == mujoco.JointFree:
			if typ == mujoco.JointFree {
				a += 3
			}
			var quat [4]float64
			for i := range quat {
				if typ == mujoco.JointBall {
					quat[i] = p.Normal()
				} else {
					quat[i] = p.Uniform(0, 1)
				}
			}
			n := norm(quat[:]...)
			for i := range quat {
				q[a+i] = quat[i] / n
			}
		}
	}
}
