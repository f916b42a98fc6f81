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
		&taskDef{domain: "reacher", task: "easy", frameSkip: 1, model: suiteModel("reacher"), newLogic: newReacher(reacherBigTarget)},
		&taskDef{domain: "reacher", task: "hard", frameSkip: 1, model: suiteModel("reacher"), newLogic: newReacher(reacherSmallTarget)},
	)
}

// The target radii of the easy and hard tasks.
const (
	reacherBigTarget   = 0.05
	reacherSmallTarget = 0.015
)

type reacher struct {
	plainControl
	noTermination
	targetSize     float64
	finger, target int // geoms
}

func newReacher(targetSize float64) func(*Physics, taskOptions) (logic, error) {
	return func(p *Physics, _ taskOptions) (logic, error) {
		g, err := p.Names(mujoco.ObjGeom, "finger", "target")
		if err != nil {
			return nil, mustBeNamed("reacher", err)
		}
		return &reacher{targetSize: targetSize, finger: g[0], target: g[1]}, nil
	}
}

func (r *reacher) initEpisode(p *Physics) error {
	p.ModelRow("geom_size", r.target, 3)[0] = r.targetSize
	p.RandomizeLimitedAndRotationalJoints()
	angle := p.Uniform(0, 2*math.Pi)
	radius := p.Uniform(0.05, 0.2)
	pos := p.ModelRow("geom_pos", r.target, 3)
	pos[0], pos[1] = radius*math.Sin(angle), radius*math.Cos(angle)
	return nil
}

// targetAndFinger returns the target's and the finger's positions in the plane.
func (r *reacher) targetAndFinger(p *Physics) (target, finger []float64) {
	return p.Row("geom_xpos", r.target, 3)[:2], p.Row("geom_xpos", r.finger, 3)[:2]
}

func (r *reacher) reward(p *Physics) float64 {
	radii := p.ModelRow("geom_size", r.target, 3)[0] + p.ModelRow("geom_size", r.finger, 3)[0]
	return Tolerance(pointDistance(r.targetAndFinger(p)), 0, radii, 0, Gaussian, DefaultValueAtMargin)
}

func (r *reacher) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("position", p.M.NQ), field("to_target", 2), field("velocity", p.M.NV)}
}

func (r *reacher) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos...)
	t, f := r.targetAndFinger(p)
	o = put(o, t[0]-f[0], t[1]-f[1])
	put(o, p.D.Qvel...)
}
