package dmc

import (
	"math"
	"slices"
	"testing"
)

// TestPointMassObservation: one 0.02 s step per action; position and velocity are qpos
// and qvel; the reset puts both slides uniformly in [-0.29, 0.29] at rest.
func TestPointMassObservation(t *testing.T) {
	for _, id := range []string{"PointMassEasy-v1", "PointMassHard-v1"} {
		e, spec := makeEnv(t, id, nil, 13)
		checkTiming(t, e, spec, 1, 0.02, 20)
		checkLayout(t, spec, "position:2", "velocity:2")
		p := e.Physics()
		var starts []float64
		rollout(t, e, spec, 400, 4, 11, func() {
			for j := range 2 {
				checkInRange(t, "reset position", p.D.Qpos[j], -0.29, 0.29)
				if p.D.Qvel[j] != 0 {
					t.Fatalf("%s: velocity after reset %v", id, p.D.Qvel)
				}
			}
			starts = append(starts, p.D.Qpos...)
		}, func(obs []float32) {
			checkObs(t, spec, obs, append(slices.Clone(p.D.Qpos), p.D.Qvel...))
		})
		if m, s := meanStd(starts); math.Abs(m) > 0.05 || math.Abs(s-0.29/math.Sqrt(3)) > 0.03 {
			t.Errorf("%s: reset positions: mean %g, std %g, want about 0 and %g", id, m, s, 0.29/math.Sqrt(3))
		}
	}
}

// TestPointMassGains: easy keeps the tendons along x and y; hard draws two unit
// directions, not more parallel than |cos| 0.9, anew each episode, and control i then
// pushes the mass along direction i.
func TestPointMassGains(t *testing.T) {
	easy, _ := makeEnv(t, "PointMassEasy-v1", nil, 1)
	easy.Reset()
	if w := easy.Physics().M.Float64s("wrap_prm"); !slices.Equal(w, []float64{1, 0, 0, 1}) {
		t.Errorf("easy: tendon coefficients %v, want 1 0 0 1", w)
	}
	hard, spec := makeEnv(t, "PointMassHard-v1", nil, 1)
	p := hard.Physics()
	seen := map[float64]bool{}
	for range 50 {
		hard.Reset()
		w := slices.Clone(p.M.Float64s("wrap_prm"))
		dir1, dir2 := w[:2], w[2:]
		for _, d := range [][]float64{dir1, dir2} {
			checkNear(t, "direction length", math.Hypot(d[0], d[1]), 1)
		}
		if c := math.Abs(dir1[0]*dir2[0] + dir1[1]*dir2[1]); c > 0.9 {
			t.Fatalf("directions %v and %v: |cos| %g > 0.9", dir1, dir2, c)
		}
		seen[w[0]] = true
		// From rest at the centre, one step of control i alone moves the mass along
		// direction i.
		for i, d := range [][]float64{dir1, dir2} {
			setState(t, p, []float64{0, 0}, nil, nil)
			a := make([]float32, spec.ActionSpace.Size())
			a[i] = 1
			hard.Step(a)
			v := p.D.Qvel
			checkNear(t, "velocity along the direction", (v[0]*d[0]+v[1]*d[1])/math.Hypot(v[0], v[1]), 1)
		}
	}
	if len(seen) < 45 {
		t.Errorf("hard: only %d different directions in 50 episodes", len(seen))
	}
}

// TestPointMassReward: tolerance(distance to the target, [0, 0.015], margin 0.015)
// times (4 + mean(1 - u²)) / 5.
func TestPointMassReward(t *testing.T) {
	e, _ := makeEnv(t, "PointMassEasy-v1", nil, 0)
	for _, c := range []struct{ qpos, ctrl []float64 }{
		{[]float64{0, 0}, []float64{0, 0}},
		{[]float64{0.01, -0.01}, []float64{0.5, 0}},
		{[]float64{0.03, 0.04}, []float64{0.5, -1}},
		{[]float64{-0.2, 0.25}, []float64{2, 0.1}},
	} {
		nearTarget := gaussianTol(math.Hypot(c.qpos[0], c.qpos[1]), 0, 0.015, 0.015)
		checkNear(t, "reward", rewardAt(t, e, c.qpos, []float64{0.3, -0.2}, c.ctrl), nearTarget*smallControlByHand(c.ctrl...))
	}
}
