package classic

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// CartPole constants (Gymnasium cartpole.py). Derived values are computed at run time.
var (
	cpGravity  = 9.8
	cpMassCart = 1.0
	cpMassPole = 0.1
	cpLength   = 0.5 // half the pole length
	cpForceMag = 10.0
	cpTau      = 0.02
	cpXLim     = 2.4

	cpTotalMass      = cpMassPole + cpMassCart
	cpPoleMassLength = cpMassPole * cpLength
	cpThetaLim       = 12 * 2 * pi / 360
)

func cartPoleSpec() envpool.Spec {
	f32max := float32(math.MaxFloat32)
	hi := []float32{float32(cpXLim * 2), f32max, float32(cpThetaLim * 2), f32max}
	lo := []float32{-hi[0], -hi[1], -hi[2], -hi[3]}
	return envpool.Spec{ObsSpace: envpool.BoxSpace(lo, hi), ActionSpace: envpool.DiscreteSpace(2), RenderWidth: 600, RenderHeight: 400}
}

// CartPole is CartPole-v1: push a cart left or right to keep a pole upright.
type CartPole struct {
	seeded
	state [4]float64 // x, x_dot, theta, theta_dot
	// stepsBeyond counts steps taken after termination without a reset; -1 means None.
	stepsBeyond int
	suttonBarto bool
}

func newCartPole(seed int64, suttonBarto bool) *CartPole {
	return &CartPole{seeded: newSeeded(seed), stepsBeyond: -1, suttonBarto: suttonBarto}
}

// Reset draws each state entry from U(-0.05, 0.05).
func (e *CartPole) Reset() {
	for i := range e.state {
		e.state[i] = uniform(e.rng, -0.05, 0.05)
	}
	e.stepsBeyond = -1
}

// Step applies force -10 (action 0) or +10 (action 1) for one Euler step of 0.02 s.
func (e *CartPole) Step(action []float32) envpool.StepResult {
	x, xDot, theta, thetaDot := e.state[0], e.state[1], e.state[2], e.state[3]
	force := -cpForceMag
	if action[0] == 1 {
		force = cpForceMag
	}
	c, s := math.Cos(theta), math.Sin(theta)
	temp := (force + float64(float64(cpPoleMassLength*float64(thetaDot*thetaDot))*s)) / cpTotalMass
	thetaAcc := (float64(cpGravity*s) - float64(c*temp)) /
		float64(cpLength*(4.0/3.0-float64(cpMassPole*float64(c*c))/cpTotalMass))
	xAcc := temp - float64(float64(cpPoleMassLength*thetaAcc)*c)/cpTotalMass

	x = x + float64(cpTau*xDot)
	xDot = xDot + float64(cpTau*xAcc)
	theta = theta + float64(cpTau*thetaDot)
	thetaDot = thetaDot + float64(cpTau*thetaAcc)
	e.state = [4]float64{x, xDot, theta, thetaDot}

	terminated := x < -cpXLim || x > cpXLim || theta < -cpThetaLim || theta > cpThetaLim
	var reward float32
	switch {
	case !terminated:
		reward = 1
		if e.suttonBarto {
			reward = 0
		}
	case e.stepsBeyond < 0:
		e.stepsBeyond = 0
		reward = 1
		if e.suttonBarto {
			reward = -1
		}
	default:
		e.stepsBeyond++
		if e.suttonBarto {
			reward = -1
		}
	}
	return envpool.StepResult{Reward: reward, Terminated: terminated}
}

// Observe writes (x, x_dot, theta, theta_dot) as float32.
func (e *CartPole) Observe(obs envpool.Obs, _ []float32) { writeObs(obs.F32, e.state[:]...) }
