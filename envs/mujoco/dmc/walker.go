package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The walker domain: a planar biped with a torso and two legs (the suite's walker.py).
// Control timestep 0.025 s over a 0.0025 s model step: frame skip 10.
//
// Reward: stand = (3*standing + upright) / 4, standing being tolerance(torso height,
// [1.2, inf], margin 0.6, gaussian, 0.1 at the margin) and upright (1 + the torso's
// xmat zz) / 2. WalkerStand-v1 returns stand. WalkerWalk-v1 (speed 1) and WalkerRun-v1
// (speed 8) return stand * (5*move + 1) / 6, move being tolerance(the torso subtree's
// linear velocity along x, [speed, inf], margin speed/2, linear, 0.5 at the margin).
//
// Reset: every limited joint uniform in its range and the unlimited root hinge uniform
// in [-pi, pi]; the torso starts at its model height (1.3 m) and no settling is done.
// No termination.
//
// Observation: orientations (the xx and xz entries of every body's xmat but the
// world's, 14), height (the torso's z, 1), velocity (qvel, 9).
func init() {
	register(
		suiteTask("walker", "stand", 10, newWalker(0)),
		suiteTask("walker", "walk", 10, newWalker(walkerWalkSpeed)),
		suiteTask("walker", "run", 10, newWalker(walkerRunSpeed)),
	)
}

// The walker's standing torso height and its walking and running speeds.
const (
	walkerStandHeight = 1.2
	walkerWalkSpeed   = 1
	walkerRunSpeed    = 8
)

// walkerStanding is the torso-height term of the walker's stand reward.
var walkerStanding = Tol{Lower: walkerStandHeight, Upper: math.Inf(1), Margin: walkerStandHeight / 2, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}

// walkerMove is the horizontal-speed term of the walk and run rewards at a speed.
func walkerMove(speed float64) Tol {
	return Tol{Lower: speed, Upper: math.Inf(1), Margin: speed / 2, Sigmoid: Linear, ValueAtMargin: 0.5}
}

// walker is one env's logic of the walker tasks.
type walker struct {
	plainControl
	noTermination
	speed float64
	torso int
	vel   Sensor
}

// newWalker makes the logic of standing (speed 0) or moving at speed.
func newWalker(speed float64) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "walker")
		w := &walker{speed: speed, torso: r.id(mujoco.ObjBody, "torso"), vel: r.sensor("torso_subtreelinvel")}
		return w, r.err()
	}
}

// initEpisode draws the limited joints in their ranges and the root hinge's angle.
func (w *walker) initEpisode(p *Physics) error {
	p.RandomizeLimitedAndRotationalJoints()
	return nil
}

// height is the torso's z.
func (w *walker) height(p *Physics) float64 { return vec3(p.Xpos, w.torso)[2] }

// reward is stand, times the move term when walking or running.
func (w *walker) reward(p *Physics) float64 {
	stand := (3*walkerStanding.Of(w.height(p)) + (1+bodyZAxisZ(p, w.torso))/2) / 4
	if w.speed == 0 {
		return stand
	}
	move := walkerMove(w.speed).Of(p.SensorData(w.vel)[0])
	return stand * (5*move + 1) / 6
}

// layout is orientations, height and velocity.
func (w *walker) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("orientations", 2*(p.M.NBody-1)), scalar("height"), field("velocity", p.M.NV)}
}

// observe writes the xx and xz entries of every body's xmat but the world's, the
// torso's height and qvel.
func (w *walker) observe(p *Physics, o []float32) {
	for b := 1; b < p.M.NBody; b++ {
		o = put(o, mat3(p.Xmat, b)[0], bodyZAxisX(p, b))
	}
	o = put(o, w.height(p))
	put(o, p.D.Qvel...)
}
