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
	register(suiteTask("cheetah", "run", 1, newCheetah))
}

// cheetahRunSpeed is the forward speed (m/s) at which CheetahRun's reward saturates.
const cheetahRunSpeed = 10

// cheetah is one env's logic of CheetahRun.
type cheetah struct {
	plainControl
	noTermination
	speed Sensor
}

// newCheetah makes the logic of CheetahRun.
func newCheetah(p *Physics, _ taskOptions) (logic, error) {
	r := newResolver(p, "cheetah")
	c := &cheetah{speed: r.sensor("torso_subtreelinvel")}
	return c, r.err()
}

// initEpisode draws the limited joints in their ranges and lets the body settle for
// 200 physics steps, then restarts the clock.
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

// reward is the linear tolerance of the forward speed, saturating at 10 m/s.
func (c *cheetah) reward(p *Physics) float64 {
	return Tolerance(p.SensorData(c.speed)[0], cheetahRunSpeed, math.Inf(1), cheetahRunSpeed, Linear, 0)
}

// layout is position (qpos without the root's x) and velocity.
func (c *cheetah) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("position", p.M.NQ-1), field("velocity", p.M.NV)}
}

// observe writes qpos without the root's x, then qvel.
func (c *cheetah) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos[1:]...)
	put(o, p.D.Qvel...)
}
