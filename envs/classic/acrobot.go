package classic

import (
	"github.com/rlpool/rlpool/envpool"

	"math"
)

// Acrobot constants (Gymnasium acrobot.py, "book" dynamics, no torque noise).
var (
	acDt     = 0.2
	acL1     = 1.0
	acM1     = 1.0
	acM2     = 1.0
	acLC1    = 0.5
	acLC2    = 0.5
	acI1     = 1.0
	acI2     = 1.0
	acG      = 9.8
	acMaxV1  = 4 * pi
	acMaxV2  = 9 * pi
	acTorque = [3]float64{-1.0, 0.0, 1.0}
)

func acrobotSpec() envpool.Spec {
	hi := []float32{1, 1, 1, 1, float32(acMaxV1), float32(acMaxV2)}
	lo := make([]float32, len(hi))
	for i, h := range hi {
		lo[i] = -h
	}
	return envpool.Spec{ObsSpace: envpool.BoxSpace(lo, hi), ActionSpace: envpool.DiscreteSpace(3), RenderWidth: 500, RenderHeight: 500}
}

// Acrobot is Acrobot-v1: swing a two-link chain's tip above a line by torquing the elbow.
type Acrobot struct {
	seeded
	state [4]float64 // theta1, theta2, dtheta1, dtheta2
}

func newAcrobot(seed int64) *Acrobot { return &Acrobot{seeded: newSeeded(seed)} }

// Reset draws the state from U(-0.1, 0.1), rounded to float32 as Gymnasium does.
func (e *Acrobot) Reset() {
	for i := range e.state {
		e.state[i] = float64(float32(uniform(e.rng, -0.1, 0.1)))
	}
}

// acDsdt is the time derivative of the augmented state (theta1, theta2, dtheta1,
// dtheta2, torque).
func acDsdt(s [5]float64) [5]float64 {
	th1, th2, dth1, dth2, a := s[0], s[1], s[2], s[3], s[4]
	d1 := float64(acM1*float64(acLC1*acLC1)) +
		float64(acM2*(float64(acL1*acL1)+float64(acLC2*acLC2)+float64(float64(float64(2*acL1)*acLC2)*math.Cos(th2)))) +
		acI1 + acI2
	d2 := float64(acM2*(float64(acLC2*acLC2)+float64(float64(acL1*acLC2)*math.Cos(th2)))) + acI2
	phi2 := float64(float64(float64(acM2*acLC2)*acG) * math.Cos(th1+th2-pi/2.0))
	phi1 := float64(float64(float64(float64(-acM2*acL1)*acLC2)*float64(dth2*dth2))*math.Sin(th2)) -
		float64(float64(float64(float64(float64(float64(2*acM2)*acL1)*acLC2)*dth2)*dth1)*math.Sin(th2)) +
		float64(float64((float64(acM1*acLC1)+float64(acM2*acL1))*acG)*math.Cos(th1-pi/2)) + phi2
	ddth2 := (a + float64(float64(d2/d1)*phi1) -
		float64(float64(float64(float64(acM2*acL1)*acLC2)*float64(dth1*dth1))*math.Sin(th2)) - phi2) /
		(float64(acM2*float64(acLC2*acLC2)) + acI2 - float64(d2*d2)/d1)
	ddth1 := -(float64(d2*ddth2) + phi1) / d1
	return [5]float64{dth1, dth2, ddth1, ddth2, 0}
}

// wrap maps x into [m, M] by whole turns, as Gymnasium's loop does (not a modulo).
func wrap(x, m, M float64) float64 {
	diff := M - m
	for x > M {
		x -= diff
	}
	for x < m {
		x += diff
	}
	return x
}

// Step applies torque -1, 0 or +1 for one RK4 step of 0.2 s.
func (e *Acrobot) Step(action []float32) envpool.StepResult {
	y0 := [5]float64{e.state[0], e.state[1], e.state[2], e.state[3], acTorque[int(action[0])]}
	dt, dt2 := acDt, acDt/2.0
	axpy := func(y [5]float64, h float64, k [5]float64) (out [5]float64) {
		for i := range y {
			out[i] = y[i] + float64(h*k[i])
		}
		return out
	}
	k1 := acDsdt(y0)
	k2 := acDsdt(axpy(y0, dt2, k1))
	k3 := acDsdt(axpy(y0, dt2, k2))
	k4 := acDsdt(axpy(y0, dt, k3))
	var ns [4]float64
	for i := range ns {
		sum := k1[i] + float64(2*k2[i]) + float64(2*k3[i]) + k4[i]
		ns[i] = y0[i] + float64(dt/6.0*sum)
	}
	ns[0] = wrap(ns[0], -pi, pi)
	ns[1] = wrap(ns[1], -pi, pi)
	ns[2] = clip(ns[2], -acMaxV1, acMaxV1)
	ns[3] = clip(ns[3], -acMaxV2, acMaxV2)
	e.state = ns
	terminated := -math.Cos(ns[0])-math.Cos(ns[1]+ns[0]) > 1.0
	reward := float32(-1)
	if terminated {
		reward = 0
	}
	return envpool.StepResult{Reward: reward, Terminated: terminated}
}

// Observe writes (cos th1, sin th1, cos th2, sin th2, dth1, dth2).
func (e *Acrobot) Observe(obs envpool.Obs, _ []float32) {
	s := e.state
	writeObs(obs.F32, math.Cos(s[0]), math.Sin(s[0]), math.Cos(s[1]), math.Sin(s[1]), s[2], s[3])
}
