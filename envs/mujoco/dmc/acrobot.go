package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The acrobot domain: a two-link pendulum actuated only at the elbow, to be swung up so
// that its tip reaches a target above the shoulder (the suite's acrobot.py).
//
// AcrobotSwingup-v1: reward tolerance(d, [0, r], margin 1, gaussian, value 0.1 at the
// margin), d being the distance from the site "tip" to the site "target" and r the
// target's radius (0.2).
// AcrobotSwingupSparse-v1: the same band with no margin: 1 inside the target, else 0.
// Both: one physics step (0.01 s, RK4) per action. Reset: shoulder and elbow angles
// uniform in [-pi, pi), zero velocity. Observation: orientations (4: the x components
// of the upper and lower arms' z axes, then their z components, i.e. the sines and then
// the cosines of the arms' absolute angles), velocity (qvel, 2).
func init() {
	register(
		suiteTask("acrobot", "swingup", 1, newAcrobot(false)),
		suiteTask("acrobot", "swingup_sparse", 1, newAcrobot(true)),
	)
}

// acrobot is one env's logic of the acrobot tasks.
type acrobot struct {
	plainControl
	noTermination
	sparse      bool
	joints      []Joint // shoulder, elbow
	arms        []int   // bodies upper_arm, lower_arm
	tip, target int     // sites
}

// newAcrobot makes the logic of the dense (sparse false) or sparse swing-up.
func newAcrobot(sparse bool) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "acrobot")
		a := &acrobot{sparse: sparse, joints: r.joints("shoulder", "elbow"), arms: r.ids(mujoco.ObjBody, "upper_arm", "lower_arm"),
			tip: r.id(mujoco.ObjSite, "tip"), target: r.id(mujoco.ObjSite, "target")}
		return a, r.err()
	}
}

// initEpisode draws both joint angles uniformly from [-pi, pi).
func (a *acrobot) initEpisode(p *Physics) error {
	for _, j := range a.joints {
		p.D.Qpos[j.Qpos] = p.Uniform(-math.Pi, math.Pi)
	}
	return nil
}

// reward is the tolerance of the tip's distance to the target (no margin when sparse).
func (a *acrobot) reward(p *Physics) float64 {
	radius := p.ModelRow("site_size", a.target, 3)[0]
	margin := 1.0
	if a.sparse {
		margin = 0
	}
	d := distance(vec3(p.SiteXpos, a.target), vec3(p.SiteXpos, a.tip))
	return Tolerance(d, 0, radius, margin, Gaussian, DefaultValueAtMargin)
}

// layout is orientations (the arms' sines, then cosines) and velocity.
func (a *acrobot) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("orientations", 2*len(a.arms)), field("velocity", p.M.NV)}
}

// observe writes the x components of the arms' z axes, then their z components, then
// qvel.
func (a *acrobot) observe(p *Physics, o []float32) {
	for _, b := range a.arms {
		o = put(o, bodyZAxisX(p, b))
	}
	for _, b := range a.arms {
		o = put(o, bodyZAxisZ(p, b))
	}
	put(o, p.D.Qvel...)
}
