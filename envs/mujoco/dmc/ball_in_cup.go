package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// The ball_in_cup domain: a cup moved in the x-z plane by two actuated slide joints,
// with a ball tied to it by a string, to be swung into the cup (the suite's
// ball_in_cup.py).
//
// BallInCupCatch-v1: reward 1 while the ball's centre lies inside the cup's target box
// shrunk by the ball's radius (|Δx| < 0.05 - 0.025 and |Δz| < 0.05 - 0.025, Δ from the
// ball body to the site "target"), else 0. Ten physics steps (0.002 s each) per action
// (the suite's control timestep 0.02 s). Reset: the ball's slide joints ball_x uniform
// in [-0.2, 0.2] and ball_z uniform in [0.2, 0.5], redrawn until a forward pass finds
// no contact; the cup at rest at its origin, zero velocity.
// Observation: position (qpos: cup_x, cup_z, ball_x, ball_z), velocity (qvel, 4).
func init() {
	register(suiteTask("ball_in_cup", "catch", 10, newBallInCup))
}

// ballInCupMaxTries bounds the search for a contact-free ball position; the suite loops
// without a bound, and most draws succeed, so reaching it means the model is broken.
const ballInCupMaxTries = 10000

// ballInCup is one env's logic of BallInCupCatch.
type ballInCup struct {
	plainControl
	noTermination
	qposQvelObs
	ballX, ballZ Joint
	ball         int // body
	ballGeom     int
	target       int // site
}

// newBallInCup makes the logic of BallInCupCatch.
func newBallInCup(p *Physics, _ taskOptions) (logic, error) {
	r := newResolver(p, "ball_in_cup")
	b := &ballInCup{ballX: r.joint("ball_x"), ballZ: r.joint("ball_z"), ball: r.id(mujoco.ObjBody, "ball"),
		ballGeom: r.id(mujoco.ObjGeom, "ball"), target: r.id(mujoco.ObjSite, "target")}
	return b, r.err()
}

// initEpisode draws the ball's position until it touches nothing.
func (b *ballInCup) initEpisode(p *Physics) error {
	return startWithoutContacts(p, "ball_in_cup", ballInCupMaxTries, func() error {
		p.D.Qpos[b.ballX.Qpos] = p.Uniform(-0.2, 0.2)
		p.D.Qpos[b.ballZ.Qpos] = p.Uniform(0.2, 0.5)
		return nil
	})
}

// reward is 1 while the ball's centre lies in the target box shrunk by its radius.
func (b *ballInCup) reward(p *Physics) float64 {
	target, ball := vec3(p.SiteXpos, b.target), vec3(p.Xpos, b.ball)
	size := p.ModelRow("site_size", b.target, 3)
	radius := p.ModelRow("geom_size", b.ballGeom, 3)[0]
	if math.Abs(target[0]-ball[0]) < size[0]-radius && math.Abs(target[2]-ball[2]) < size[2]-radius {
		return 1
	}
	return 0
}
