package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The finger domain: a planar two-link finger that flicks a free-spinning body about a
// hinge (the suite's finger.py). Two physics steps of 0.01 s per action, 1000 actions.
//
// FingerSpin-v1: reward 1 while the body spins at -15 rad/s or faster (hinge velocity
// <= -15), else 0. Reset: the spinner's hinge damping is lowered to 0.03 and the target
// and tip sites hidden (their alpha set to 0) in the env's model copy, then the joints
// are randomised (each limited finger joint uniform in its range, the spinner's hinge
// uniform in [-pi, pi]) until no contact remains (the suite gives up after 1000 tries,
// the shared randomStartWithoutContacts after 100000; a try succeeds most of the time).
//
// FingerTurnEasy-v1, FingerTurnHard-v1: reward 1 while the spinner's tip site is inside
// the target sphere (distance from the tip to the target's centre minus the target's
// radius <= 0), else 0. Reset: the target site is moved to a uniform angle in
// [-pi, pi] on the circle the tip sweeps (about the hinge, radius cap1's size summed:
// 0.13) and its radius set to 0.07 (easy) or 0.03 (hard), then the joints are
// randomised as in Spin.
//
// Observation (all from sensors): position (the two finger joint angles and the tip's
// x, z relative to the spinner's centre, 4), velocity (the two finger joints' and the
// hinge's velocities, 3), touch (log1p of the two fingertip touch sensors, 2); Turn
// adds target_position (the target's x, z relative to the spinner, 2) and
// dist_to_target (the signed distance from the tip to the target's surface, 1).
func init() {
	register(
		suiteTask("finger", "spin", 2, newFinger(0)),
		suiteTask("finger", "turn_easy", 2, newFinger(fingerEasyTarget)),
		suiteTask("finger", "turn_hard", 2, newFinger(fingerHardTarget)),
	)
}

// The suite's finger constants: target radii of the Turn tasks, the spin speed that
// earns Spin's reward and Spin's hinge damping.
const (
	fingerEasyTarget  = 0.07
	fingerHardTarget  = 0.03
	fingerSpinSpeed   = 15.0
	fingerSpinDamping = 0.03
)

// finger is one env's logic of the finger tasks.
type finger struct {
	plainControl
	noTermination
	// targetRadius is the Turn task's target radius; 0 for Spin.
	targetRadius float64

	proximal, distal, proximalVel, distalVel, hingeVel Sensor
	tip, target, spinner                               Sensor
	touch                                              []Sensor // touchtop, touchbottom

	targetSite, tipSite, cap1 int
	hinge                     Joint // the spinner's hinge
	hingeID                   int
}

// newFinger makes the logic of Spin (targetRadius 0) or of a Turn task.
func newFinger(targetRadius float64) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "finger")
		f := &finger{targetRadius: targetRadius,
			proximal: r.sensor("proximal"), distal: r.sensor("distal"),
			proximalVel: r.sensor("proximal_velocity"), distalVel: r.sensor("distal_velocity"), hingeVel: r.sensor("hinge_velocity"),
			tip: r.sensor("tip"), target: r.sensor("target"), spinner: r.sensor("spinner"),
			touch:      r.sensors("touchtop", "touchbottom"),
			targetSite: r.id(mujoco.ObjSite, "target"), tipSite: r.id(mujoco.ObjSite, "tip"), cap1: r.id(mujoco.ObjGeom, "cap1"),
			hinge: r.joint("hinge"), hingeID: r.id(mujoco.ObjJoint, "hinge"),
		}
		return f, r.err()
	}
}

// initEpisode edits the env's model for the task (Spin: damping and hidden sites;
// Turn: the target's place and radius), then draws a contact-free start.
func (f *finger) initEpisode(p *Physics) error {
	if f.targetRadius == 0 {
		rgba := p.M.Float32s("site_rgba")
		rgba[4*f.targetSite+3], rgba[4*f.tipSite+3] = 0, 0
		p.M.Float64s("dof_damping")[f.hinge.Qvel] = fingerSpinDamping
	} else {
		angle := p.Uniform(-math.Pi, math.Pi)
		anchor := vec3(p.D.Float64s("xanchor"), f.hingeID)
		size := p.ModelRow("geom_size", f.cap1, 3)
		radius := size[0] + size[1] + size[2]
		pos := p.ModelRow("site_pos", f.targetSite, 3)
		pos[0], pos[2] = anchor[0]+radius*math.Sin(angle), anchor[2]+radius*math.Cos(angle)
		p.ModelRow("site_size", f.targetSite, 3)[0] = f.targetRadius
	}
	return randomStartWithoutContacts(p, "finger")
}

// relativeXZ returns the x and z of a position sensor relative to the spinner's.
func (f *finger) relativeXZ(p *Physics, s Sensor) (float64, float64) {
	a, c := p.SensorData(s), p.SensorData(f.spinner)
	return a[0] - c[0], a[2] - c[2]
}

// distToTarget is the signed distance from the tip to the target sphere's surface.
func (f *finger) distToTarget(p *Physics) float64 {
	tx, tz := f.relativeXZ(p, f.tip)
	gx, gz := f.relativeXZ(p, f.target)
	return math.Hypot(gx-tx, gz-tz) - p.ModelRow("site_size", f.targetSite, 3)[0]
}

// reward is 1 while the spinner spins fast enough (Spin) or its tip is inside the
// target (Turn), else 0.
func (f *finger) reward(p *Physics) float64 {
	var ok bool
	if f.targetRadius == 0 {
		ok = p.SensorData(f.hingeVel)[0] <= -fingerSpinSpeed
	} else {
		ok = f.distToTarget(p) <= 0
	}
	if ok {
		return 1
	}
	return 0
}

// layout is position, velocity and touch, and for Turn target_position and
// dist_to_target.
func (f *finger) layout(*Physics) []envpool.ObsField {
	l := []envpool.ObsField{field("position", 4), field("velocity", 3), field("touch", len(f.touch))}
	if f.targetRadius != 0 {
		l = append(l, field("target_position", 2), scalar("dist_to_target"))
	}
	return l
}

// observe writes the entries from the sensors, in the suite's order.
func (f *finger) observe(p *Physics, o []float32) {
	tx, tz := f.relativeXZ(p, f.tip)
	o = put(o, p.SensorData(f.proximal)[0], p.SensorData(f.distal)[0], tx, tz)
	o = put(o, p.SensorData(f.proximalVel)[0], p.SensorData(f.distalVel)[0], p.SensorData(f.hingeVel)[0])
	o = putTouch(p, o, f.touch)
	if f.targetRadius != 0 {
		gx, gz := f.relativeXZ(p, f.target)
		put(o, gx, gz, f.distToTarget(p))
	}
}
