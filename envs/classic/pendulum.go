package classic

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// Pendulum constants (Gymnasium pendulum.py); g is a constructor option.
var (
	pdMaxSpeed  = 8.0
	pdMaxTorque = 2.0
	pdDt        = 0.05
	pdM         = 1.0
	pdL         = 1.0
)

func pendulumSpec() envpool.Spec {
	return envpool.Spec{
		ObsSpace:    envpool.BoxSpace([]float32{-1, -1, float32(-pdMaxSpeed)}, []float32{1, 1, float32(pdMaxSpeed)}),
		ActionSpace: envpool.BoxSpace([]float32{float32(-pdMaxTorque)}, []float32{float32(pdMaxTorque)}),
		RenderWidth: 500, RenderHeight: 500,
	}
}

// Pendulum is Pendulum-v1: swing a pendulum up and hold it with a bounded torque.
// With unclippedTh it is Pendulum-v0, whose angle advances by the speed before that is
// clipped to the maximum.
type Pendulum struct {
	seeded
	theta, thDot  float64
	g             float64
	unclippedTh   bool
	lastU         float32
	costTermsLast [3]float64
}

func newPendulum(seed int64, g float64) *Pendulum { return &Pendulum{seeded: newSeeded(seed), g: g} }

// Reset draws theta from U(-pi, pi) and theta_dot from U(-1, 1).
func (e *Pendulum) Reset() {
	e.theta = uniform(e.rng, -pi, pi)
	e.thDot = uniform(e.rng, -1, 1)
}

// angleNormalize maps x into [-pi, pi) with Python's floor modulo.
func angleNormalize(x float64) float64 {
	twoPi := 2 * pi
	m := math.Mod(x+pi, twoPi)
	if m < 0 {
		m += twoPi
	}
	return m - pi
}

// Step applies torque clip(a, -2, 2) for one semi-implicit Euler step of 0.05 s; the
// cost is measured on the state before the step.
func (e *Pendulum) Step(action []float32) envpool.StepResult {
	th, thDot := e.theta, e.thDot
	u := float32(math.Min(math.Max(float64(action[0]), -pdMaxTorque), pdMaxTorque))
	an := angleNormalize(th)
	e.costTermsLast = [3]float64{an * an, 0.1 * float64(thDot*thDot), 0.001 * float64(u*u)}
	cost := e.costTermsLast[0] + e.costTermsLast[1] + e.costTermsLast[2]

	accel := float64(float64(3*e.g/float64(2*pdL))*math.Sin(th)) + float64(3.0/float64(pdM*float64(pdL*pdL))*float64(u))
	newThDot := thDot + float64(accel*pdDt)
	if e.unclippedTh {
		e.theta = th + float64(newThDot*pdDt)
	}
	newThDot = clip(newThDot, -pdMaxSpeed, pdMaxSpeed)
	if !e.unclippedTh {
		e.theta = th + float64(newThDot*pdDt)
	}
	e.thDot = newThDot
	e.lastU = u
	return envpool.StepResult{Reward: float32(-cost)}
}

// Observe writes (cos theta, sin theta, theta_dot).
func (e *Pendulum) Observe(obs envpool.Obs, _ []float32) {
	writeObs(obs.F32, math.Cos(e.theta), math.Sin(e.theta), e.thDot)
}
