package dmc

import (
	"math"
	"testing"
)

// acrobotTip is the tip's position in the x-z plane for shoulder and elbow angles: the
// shoulder 2 m up, two 1 m links rotating about +y.
func acrobotTip(q1, q2 float64) (x, z float64) {
	return math.Sin(q1) + math.Sin(q1+q2), 2 + math.Cos(q1) + math.Cos(q1+q2)
}

// TestAcrobotObservation: one 0.01 s step per action, orientations are the sines then
// the cosines of the arms' absolute angles, velocity is qvel; the reset draws both
// angles uniformly from [-pi, pi) with zero velocity.
func TestAcrobotObservation(t *testing.T) {
	for _, id := range []string{"AcrobotSwingup-v1", "AcrobotSwingupSparse-v1"} {
		e, spec := makeEnv(t, id, nil, 4)
		checkTiming(t, e, spec, 1, 0.01, 10)
		checkLayout(t, spec, "orientations:4", "velocity:2")
		p := e.Physics()
		var low, high [2]float64
		rollout(t, e, spec, 300, 10, 5, func() {
			if p.D.Qvel[0] != 0 || p.D.Qvel[1] != 0 {
				t.Fatalf("%s: velocity after reset %v", id, p.D.Qvel)
			}
			for j, q := range p.D.Qpos {
				checkInRange(t, "reset angle", q, -math.Pi, math.Pi)
				low[j], high[j] = min(low[j], q), max(high[j], q)
			}
		}, func(obs []float32) {
			q1, q2 := p.D.Qpos[0], p.D.Qpos[1]
			checkObs(t, spec, obs, []float64{math.Sin(q1), math.Sin(q1 + q2), math.Cos(q1), math.Cos(q1 + q2), p.D.Qvel[0], p.D.Qvel[1]})
		})
		for j := range low {
			if low[j] > -2 || high[j] < 2 {
				t.Errorf("%s: joint %d reset angles span only [%g, %g] in 30 resets", id, j, low[j], high[j])
			}
		}
	}
}

// TestAcrobotReward: the dense reward is 1 within 0.2 of the target at (0, 4) and
// 0.1^((d - 0.2)^2) beyond; the sparse reward is 1 within, 0 beyond.
func TestAcrobotReward(t *testing.T) {
	dense, _ := makeEnv(t, "AcrobotSwingup-v1", nil, 0)
	sparse, _ := makeEnv(t, "AcrobotSwingupSparse-v1", nil, 0)
	for _, q := range [][2]float64{{0, 0}, {0.05, 0.05}, {-0.1, 0.12}, {0.2, 0.1}, {0.5, 0.3}, {-1, 2}, {math.Pi, 0}, {1.5, -2.5}} {
		x, z := acrobotTip(q[0], q[1])
		d := math.Hypot(x, z-4)
		wantDense, wantSparse := gaussianTol(d, 0, 0.2, 1), 0.0
		if d <= 0.2 {
			wantSparse = 1
		}
		checkNear(t, "dense reward", rewardAt(t, dense, q[:], nil, nil), wantDense)
		checkNear(t, "sparse reward", rewardAt(t, sparse, q[:], nil, nil), wantSparse)
	}
	if r := rewardAt(t, dense, []float64{0.5, 0.3}, nil, nil); !(r > 0 && r < 1) {
		t.Errorf("dense reward off target %g, want strictly between 0 and 1", r)
	}
}
