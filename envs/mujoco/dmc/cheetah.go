package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// The cheetah domain: a planar running biped (the suite's cheetah.py).
//
// CheetahRun-v1: reward tolerance(speed, [10, inf], margin 10, linear, value 0 at the
// margin), speed being the torso's subtree linear velocity along x (sensor
// torso_subtreelinvel). Reset: every limited joint uniform in its range, then 200
// physics steps with zero controls to let the body settle, time reset to 0.
// Observation: position (qpos without the root's x, 8), velocity (qvel, 9).
func init() {
	register(&taskDef{domain: "cheetah", task: "run", frameSkip: 1, model: suiteModel("cheetah"), newLogic: newCheetah})
}

const cheetahRunSpeed = 10

type cheetah struct {
	plainControl
	noTermination
	speed Sensor
}

func newCheetah(p *Physics, _ taskOptions) (logic, error) {
	s, err := p.Sensors("torso_subtreelinvel")
	if err != nil {
		return nil, mustBeNamed("cheetah", err)
	}
	return &cheetah{speed: s[0]}, nil
}

func (c *cheetah) initEpisode(p *Physics) error {
	m := p.M
	limited, ranges, adr := m.Bytes("jnt_limited"), m.Float64s("jnt_range"), m.Int32s("jnt_qposadr")
	for j := range limited {
		if limited[j] != 0 {
			p.D.Qpos[adr[j]] = p.Uniform(ranges[2*j], ranges[2*j+1])
		}
	}
	if err := p.Steps(200); err != nil {
		return err
	}
	p.D.SetTime(0)
	return nil
}

func (c *cheetah) reward(p *Physics) float64 {
	return Tolerance(p.SensorData(c.speed)[0], cheetahRunSpeed, math.Inf(1), cheetahRunSpeed, Linear, 0)
}

func (c *cheetah) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("position", p.M.NQ-1), field("velocity", p.M.NV)}
}

func (c *cheetah) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos[1:]...)
	put(o, p.D.Qvel...)
}
