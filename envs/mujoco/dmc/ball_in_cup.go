package dmc

import (
	"fmt"
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
	register(&taskDef{domain: "ball_in_cup", task: "catch", frameSkip: 10, model: suiteModel("ball_in_cup"), newLogic: newBallInCup})
}

// ballInCupMaxTries bounds the search for a contact-free ball position; the suite loops
// without a bound, and most draws succeed, so reaching it means the model is broken.
const ballInCupMaxTries = 10000

type ballInCup struct {
	plainControl
	noTermination
	qposQvelObs
	ballX, ballZ Joint
	ball         int // body
	ballGeom     int
	target       int // site
}

func newBallInCup(p *Physics, _ taskOptions) (logic, error) {
	j, err := p.Joints("ball_x", "ball_z")
	if err != nil {
		return nil, mustBeNamed("ball_in_cup", err)
	}
	b := &ballInCup{ballX: j[0], ballZ: j[1]}
	if b.ball, err = p.ID(mujoco.ObjBody, "ball"); err != nil {
		return nil, mustBeNamed("ball_in_cup", err)
	}
	if b.ballGeom, err = p.ID(mujoco.ObjGeom, "ball"); err != nil {
		return nil, mustBeNamed("ball_in_cup", err)
	}
	if b.target, err = p.ID(mujoco.ObjSite, "target"); err != nil {
		return nil, mustBeNamed("ball_in_cup", err)
	}
	return b, nil
}

func (b *ballInCup) initEpisode(p *Physics) error {
	for range ballInCupMaxTries {
		p.D.Qpos[b.ballX.Qpos] = p.Uniform(-0.2, 0.2)
		p.D.Qpos[b.ballZ.Qpos] = p.Uniform(0.2, 0.5)
		if err := p.forwardPassive(); err != nil {
			return err
		}
		if p.D.NCon() == 0 {
			return nil
		}
	}
	return fmt.Errorf("dmc: ball_in_cup: no contact-free ball position in %d tries", ballInCupMaxTries)
}

func (b *ballInCup) reward(p *Physics) float64 {
	target, ball := p.Row("site_xpos", b.target, 3), p.Row("xpos", b.ball, 3)
	size := p.ModelRow("site_size", b.target, 3)
	radius := p.ModelRow("geom_size", b.ballGeom, 3)[0]
	if math.Abs(target[0]-ball[0]) < size[0]-radius && math.Abs(target[2]-ball[2]) < size[2]-radius {
		return 1
	}
	return 0
}
