package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The pendulum domain: a torque-limited pendulum to be swung up and held upright (the
// suite's pendulum.py).
//
// PendulumSwingup-v1: reward 1 while the pole is within 8 degrees of upright (the z
// component of its z axis at least cos 8°), else 0 (a tolerance with no margin). One
// physics step (0.02 s) per action. Reset: hinge angle uniform in [-pi, pi), zero
// velocity. Observation: orientation (2: the z then the x component of the pole's z
// axis, i.e. cos and sin of its angle), velocity (the hinge's angular velocity, 1).
func init() {
	register(suiteTask("pendulum", "swingup", 1, newPendulum))
}

// pendulumCosineBound is cos(8°), the least upright cosine that scores.
var pendulumCosineBound = math.Cos(8 * math.Pi / 180)

// pendulum is one env's logic of PendulumSwingup.
type pendulum struct {
	plainControl
	noTermination
	hinge Joint
	pole  int // body
}

// newPendulum makes the logic of PendulumSwingup.
func newPendulum(p *Physics, _ taskOptions) (logic, error) {
	r := newResolver(p, "pendulum")
	q := &pendulum{hinge: r.joint("hinge"), pole: r.id(mujoco.ObjBody, "pole")}
	return q, r.err()
}

// initEpisode draws the hinge angle uniformly from [-pi, pi).
func (q *pendulum) initEpisode(p *Physics) error {
	p.D.Qpos[q.hinge.Qpos] = p.Uniform(-math.Pi, math.Pi)
	return nil
}

// reward is 1 within 8 degrees of upright, else 0.
func (q *pendulum) reward(p *Physics) float64 {
	return Tolerance(bodyZAxisZ(p, q.pole), pendulumCosineBound, 1, 0, Gaussian, DefaultValueAtMargin)
}

// layout is orientation and velocity.
func (q *pendulum) layout(*Physics) []envpool.ObsField {
	return []envpool.ObsField{field("orientation", 2), field("velocity", 1)}
}

// observe writes the pole's z axis (z then x component) and the hinge's velocity.
func (q *pendulum) observe(p *Physics, o []float32) {
	put(o, bodyZAxisZ(p, q.pole), bodyZAxisX(p, q.pole), p.D.Qvel[q.hinge.Qvel])
}
