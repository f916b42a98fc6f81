package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The reacher domain: a two-link planar arm whose fingertip must reach a target (the
// suite's reacher.py). Both tasks take one physics step (0.02 s) per action.
//
// ReacherEasy-v1 (target radius 0.05) and ReacherHard-v1 (0.015): reward 1 while the
// distance from the finger to the target (in the plane) is at most the sum of their
// radii, else 0 (a tolerance with no margin). Reset: the target geom's radius is set
// to the task's, the shoulder angle uniform in [-pi, pi), the wrist uniform in its
// range (±160°), zero velocity; the target moves to (r sin a, r cos a) with a uniform
// in [0, 2 pi) and r uniform in [0.05, 0.2].
// Observation: position (qpos, 2), to_target (target minus finger, x and y, 2),
// velocity (qvel, 2).
func init() {
	register(
		suiteTask("reacher", "easy", 1, newReacher(reacherBigTarget)),
		suiteTask("reacher", "hard", 1, newReacher(reacherSmallTarget)),
	)
}

// The target radii of the easy and hard tasks.
const (
	reacherBigTarget   = 0.05
	reacherSmallTarget = 0.015
)

// reacher is one env's logic of the reacher tasks.
type reacher struct {
	plainControl
	noTermination
	targetSize     float64
	finger, target int // geoms
}

// newReacher makes the logic of a task with the target radius targetSize.
func newReacher(targetSize float64) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "reacher")
		re := &reacher{targetSize: targetSize, finger: r.id(mujoco.ObjGeom, "finger"), target: r.id(mujoco.ObjGeom, "target")}
		return re, r.err()
	}
}

// initEpisode sets the target's radius, draws the arm and moves the target.
func (r *reacher) initEpisode(p *Physics) error {
	p.ModelRow("geom_size", r.target, 3)[0] = r.targetSize
	p.RandomizeLimitedAndRotationalJoints()
	angle := p.Uniform(0, 2*math.Pi)
	radius := p.Uniform(0.05, 0.2)
	pos := p.ModelRow("geom_pos", r.target, 3)
	pos[0], pos[1] = radius*math.Sin(angle), radius*math.Cos(angle)
	return nil
}

// toTarget returns the target minus the finger in the plane (x, y).
func (r *reacher) toTarget(p *Physics) (dx, dy float64) {
	t, f := vec3(p.GeomXpos, r.target), vec3(p.GeomXpos, r.finger)
	return t[0] - f[0], t[1] - f[1]
}

// reward is 1 while the finger touches the target, else 0.
func (r *reacher) reward(p *Physics) float64 {
	radii := p.ModelRow("geom_size", r.target, 3)[0] + p.ModelRow("geom_size", r.finger, 3)[0]
	return Tolerance(norm(r.toTarget(p)), 0, radii, 0, Gaussian, DefaultValueAtMargin)
}

// layout is position, to_target and velocity.
func (r *reacher) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("position", p.M.NQ), field("to_target", 2), field("velocity", p.M.NV)}
}

// observe writes qpos, the target minus the finger in the plane, and qvel.
func (r *reacher) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos...)
	dx, dy := r.toTarget(p)
	o = put(o, dx, dy)
	put(o, p.D.Qvel...)
}
