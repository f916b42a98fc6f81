package dmc

import (
	"math"
	"testing"
)

// TestPendulumObservation: one 0.02 s step per action; orientation is (cos, sin) of
// the hinge angle, velocity its rate; the reset draws the angle uniformly from
// [-pi, pi) at rest.
func TestPendulumObservation(t *testing.T) {
	e, spec := makeEnv(t, "PendulumSwingup-v1", nil, 8)
	checkTiming(t, e, spec, 1, 0.02, 20)
	checkLayout(t, spec, "orientation:2", "velocity:1")
	p := e.Physics()
	var angles []float64
	rollout(t, e, spec, 400, 4, 7, func() {
		checkInRange(t, "reset angle", p.D.Qpos[0], -math.Pi, math.Pi)
		if p.D.Qvel[0] != 0 {
			t.Fatalf("velocity after reset %g", p.D.Qvel[0])
		}
		angles = append(angles, p.D.Qpos[0])
	}, func(obs []float32) {
		q := p.D.Qpos[0]
		checkObs(t, spec, obs, []float64{math.Cos(q), math.Sin(q), p.D.Qvel[0]})
	})
	// A uniform angle on [-pi, pi) has mean 0 and standard deviation pi/sqrt(3); 100
	// draws put the sample values within a few tenths of those.
	if m, s := meanStd(angles); math.Abs(m) > 0.6 || math.Abs(s-math.Pi/math.Sqrt(3)) > 0.4 {
		t.Errorf("reset angles: mean %g, std %g; want about 0 and %g", m, s, math.Pi/math.Sqrt(3))
	}
}

// TestPendulumReward: 1 within 8 degrees of upright, 0 beyond, whatever the velocity.
func TestPendulumReward(t *testing.T) {
	e, _ := makeEnv(t, "PendulumSwingup-v1", nil, 0)
	deg := math.Pi / 180
	for _, c := range []struct{ angle, want float64 }{
		{0, 1}, {7.9 * deg, 1}, {-7.9 * deg, 1}, {8.1 * deg, 0}, {-8.1 * deg, 0}, {math.Pi / 2, 0}, {math.Pi, 0}, {2*math.Pi - 5*deg, 1},
	} {
		checkNear(t, "reward", rewardAt(t, e, []float64{c.angle}, []float64{3}, []float64{0.5}), c.want)
	}
}
