package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The hopper domain: a planar one-legged hopper (the suite's hopper.py). Control
// timestep 0.02 s over a 0.005 s model step: frame skip 4.
//
// Reward: standing = tolerance(height, [0.6, 2]) with no margin (1 inside, 0 outside),
// height being the z of the torso's centre of mass minus the foot's (xipos).
// HopperStand-v1 returns standing * small_control, small_control = (4 + the mean over
// the actuators of tolerance(ctrl, [0, 0], margin 1, quadratic, 0 at the margin)) / 5.
// HopperHop-v1 returns standing * tolerance(the torso subtree's linear velocity along
// x, [2, inf], margin 1, linear, 0.5 at the margin).
//
// Reset: every limited joint uniform in its range, the unlimited root hinge uniform in
// [-pi, pi], the root slides at 0 (the torso at 1 m); no settling. No termination.
//
// Observation: position (qpos without the root's x, 6), velocity (qvel, 7), touch
// (log1p of the toe and heel touch sensors, 2).
func init() {
	register(
		suiteTask("hopper", "stand", 4, newHopper(false)),
		suiteTask("hopper", "hop", 4, newHopper(true)),
	)
}

// hopperHopSpeed is the forward speed (m/s) at which HopperHop's reward saturates.
const hopperHopSpeed = 2

// The hopper's reward terms: standing (a hard band on the height) and hopping (the
// forward speed).
var (
	hopperStanding = Tol{Lower: 0.6, Upper: 2, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
	hopperHopping  = Tol{Lower: hopperHopSpeed, Upper: math.Inf(1), Margin: hopperHopSpeed / 2, Sigmoid: Linear, ValueAtMargin: 0.5}
)

// hopper is one env's logic of the hopper tasks.
type hopper struct {
	plainControl
	noTermination
	hopping     bool
	torso, foot int
	vel         Sensor
	touch       []Sensor
}

// newHopper makes the logic of HopperHop (hopping) or HopperStand.
func newHopper(hopping bool) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "hopper")
		h := &hopper{hopping: hopping, torso: r.id(mujoco.ObjBody, "torso"), foot: r.id(mujoco.ObjBody, "foot"),
			vel: r.sensor("torso_subtreelinvel"), touch: r.sensors("touch_toe", "touch_heel")}
		return h, r.err()
	}
}

// initEpisode draws the limited joints in their ranges and the root hinge's angle.
func (h *hopper) initEpisode(p *Physics) error {
	p.RandomizeLimitedAndRotationalJoints()
	return nil
}

// height is the torso's centre of mass above the foot's.
func (h *hopper) height(p *Physics) float64 {
	return vec3(p.D.Xipos, h.torso)[2] - vec3(p.D.Xipos, h.foot)[2]
}

// reward is standing times small control (stand) or the hop speed term (hop).
func (h *hopper) reward(p *Physics) float64 {
	standing := hopperStanding.Of(h.height(p))
	if h.hopping {
		return standing * hopperHopping.Of(p.SensorData(h.vel)[0])
	}
	return standing * smallControl(p)
}

// layout is position (qpos without the root's x), velocity and touch.
func (h *hopper) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("position", p.M.NQ-1), field("velocity", p.M.NV), field("touch", len(h.touch))}
}

// observe writes qpos without the root's x, qvel and the touch sensors.
func (h *hopper) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos[1:]...)
	o = put(o, p.D.Qvel...)
	putTouch(p, o, h.touch)
}
