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
		&taskDef{domain: "acrobot", task: "swingup", frameSkip: 1, model: suiteModel("acrobot"), newLogic: newAcrobot(false)},
		&taskDef{domain: "acrobot", task: "swingup_sparse", frameSkip: 1, model: suiteModel("acrobot"), newLogic: newAcrobot(true)},
	)
}

type acrobot struct {
	plainControl
	noTermination
	sparse      bool
	joints      []Joint // shoulder, elbow
	arms        []int   // bodies upper_arm, lower_arm
	tip, target int     // sites
}

func newAcrobot(sparse bool) func(*Physics, taskOptions) (logic, error) {
	return func(p *Physics, _ taskOptions) (logic, error) {
		a := &acrobot{sparse: sparse}
		var err error
		if a.joints, err = p.Joints("shoulder", "elbow"); err != nil {
			return nil, mustBeNamed("acrobot", err)
		}
		if a.arms, err = p.Names(mujoco.ObjBody, "upper_arm", "lower_arm"); err != nil {
			return nil, mustBeNamed("acrobot", err)
		}
		sites, err := p.Names(mujoco.ObjSite, "tip", "target")
		if err != nil {
			return nil, mustBeNamed("acrobot", err)
		}
		a.tip, a.target = sites[0], sites[1]
		return a, nil
	}
}

func (a *acrobot) initEpisode(p *Physics) error {
	for _, j := range a.joints {
		p.D.Qpos[j.Qpos] = p.Uniform(-math.Pi, math.Pi)
	}
	return nil
}

func (a *acrobot) reward(p *Physics) float64 {
	radius := p.ModelRow("site_size", a.target, 3)[0]
	margin := 1.0
	if a.sparse {
		margin = 0
	}
	d := pointDistance(p.Row("site_xpos", a.target, 3), p.Row("site_xpos", a.tip, 3))
	return Tolerance(d, 0, radius, margin, Gaussian, DefaultValueAtMargin)
}

func (a *acrobot) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("orientations", 2*len(a.arms)), field("velocity", p.M.NV)}
}

func (a *acrobot) observe(p *Physics, o []float32) {
	for _, b := range a.arms {
		o = put(o, bodyZAxisX(p, b))
	}
	for _, b := range a.arms {
		o = put(o, bodyZAxisZ(p, b))
	}
	put(o, p.D.Qvel...)
}
