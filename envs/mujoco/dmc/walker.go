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
	speeds := []float64{0, walkerWalkSpeed, walkerRunSpeed}
	registerVariants("walker", 10, []string{"stand", "walk", "run"}, func(p *Physics, i int) (logic, error) {
		return newWalker(p, speeds[i])
	})
}

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

type walker struct {
	plainControl
	noTermination
	speed float64
	torso int
	vel   Sensor
}

func newWalker(p *Physics, speed float64) (logic, error) {
	r := &nameResolver{p: p, domain: "walker"}
	w := &walker{speed: speed, torso: r.id(mujoco.ObjBody, "torso"), vel: r.sensor("torso_subtreelinvel")}
	return w, r.failed()
}

func (w *walker) initEpisode(p *Physics) error {
	p.RandomizeLimitedAndRotationalJoints()
	return nil
}

func (w *walker) height(p *Physics) float64  { return p.Xpos[3*w.torso+2] }
func (w *walker) upright(p *Physics) float64 { return p.Xmat[9*w.torso+8] }

func (w *walker) reward(p *Physics) float64 {
	stand := (3*walkerStanding.Of(w.height(p)) + (1+w.upright(p))/2) / 4
	if w.speed == 0 {
		return stand
	}
	move := walkerMove(w.speed).Of(p.SensorData(w.vel)[0])
	return stand * (5*move + 1) / 6
}

func (w *walker) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("orientations", 2*(p.M.NBody-1)), field("height", 1), field("velocity", p.M.NV)}
}

func (w *walker) observe(p *Physics, o []float32) {
	for b := 1; b < p.M.NBody; b++ {
		o = put(o, p.Xmat[9*b], p.Xmat[9*b+2])
	}
	o = put(o, w.height(p))
	put(o, p.D.Qvel...)
}
