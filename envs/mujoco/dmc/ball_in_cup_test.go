package dmc

import (
	"slices"
	"testing"
)

// TestBallInCupObservation: ten 0.002 s steps per action; position and velocity are
// qpos and qvel (cup_x, cup_z, ball_x, ball_z); the reset leaves the cup at its origin,
// puts the ball at x in [-0.2, 0.2] and z in [0.2, 0.5], all at rest and touching
// nothing.
func TestBallInCupObservation(t *testing.T) {
	e, spec := makeEnv(t, "BallInCupCatch-v1", nil, 15)
	checkTiming(t, e, spec, 10, 0.002, 20)
	checkLayout(t, spec, "position:4", "velocity:4")
	p := e.Physics()
	var lowX, highX, lowZ, highZ float64 = 1, -1, 1, -1
	rollout(t, e, spec, 400, 4, 15, func() {
		q := p.D.Qpos
		if q[0] != 0 || q[1] != 0 || slices.ContainsFunc(p.D.Qvel, func(v float64) bool { return v != 0 }) {
			t.Fatalf("state after reset: qpos %v qvel %v", q, p.D.Qvel)
		}
		checkInRange(t, "ball_x", q[2], -0.2, 0.2)
		checkInRange(t, "ball_z", q[3], 0.2, 0.5)
		lowX, highX, lowZ, highZ = min(lowX, q[2]), max(highX, q[2]), min(lowZ, q[3]), max(highZ, q[3])
		if n := p.D.NCon(); n != 0 {
			t.Fatalf("%d contacts after reset (ball at %v)", n, q[2:])
		}
	}, func(obs []float32) {
		checkObs(t, spec, obs, append(slices.Clone(p.D.Qpos), p.D.Qvel...))
	})
	if lowX > -0.15 || highX < 0.15 || lowZ > 0.25 || highZ < 0.45 {
		t.Errorf("100 resets put the ball only in x [%g, %g], z [%g, %g]", lowX, highX, lowZ, highZ)
	}
}

// TestBallInCupReward: 1 while the ball's centre is within 0.025 of the target box's
// centre (0.05 above the cup's bottom, 0.55 above the ground when the cup is at its
// origin) in both x and z, else 0. The ball's body sits 0.2 above its slide origin.
func TestBallInCupReward(t *testing.T) {
	e, _ := makeEnv(t, "BallInCupCatch-v1", nil, 0)
	for _, c := range []struct {
		qpos []float64
		want float64
	}{
		{[]float64{0, 0, 0, 0.35}, 1},
		{[]float64{0, 0, 0.02, 0.37}, 1},
		{[]float64{0, 0, -0.024, 0.326}, 1},
		{[]float64{0, 0, 0.026, 0.35}, 0},
		{[]float64{0, 0, 0, 0.376}, 0},
		{[]float64{0.1, -0.05, 0.1, 0.3}, 1},
		{[]float64{0.1, -0.05, 0, 0.3}, 0},
		{[]float64{0, 0, 0, 0}, 0},
	} {
		checkNear(t, "reward", rewardAt(t, e, c.qpos, nil, nil), c.want)
	}
}
