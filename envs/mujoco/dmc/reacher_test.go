package dmc

import (
	"math"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// reacherTargetSizes are the reacher tasks' target radii.
var reacherTargetSizes = map[string]float64{"ReacherEasy-v1": 0.05, "ReacherHard-v1": 0.015}

// reacherFinger is the finger's position in the plane: two 0.12 m links from the
// origin, rotating about z.
func reacherFinger(q1, q2 float64) (x, y float64) {
	return 0.12*math.Cos(q1) + 0.12*math.Cos(q1+q2), 0.12*math.Sin(q1) + 0.12*math.Sin(q1+q2)
}

// reacherTarget returns the env's target geom position and radius (its model row).
func reacherTarget(t *testing.T, p *Physics) (pos, size []float64) {
	t.Helper()
	g := mustID(t, p, mujoco.ObjGeom, "target")
	return p.ModelRow("geom_pos", g, 3), p.ModelRow("geom_size", g, 3)
}

// TestReacherObservation: one 0.02 s step per action; position is qpos, to_target the
// target minus the finger in the plane, velocity qvel. The reset sets the task's
// target radius, puts the target 0.05 to 0.2 from the centre in any direction, the
// shoulder anywhere in [-pi, pi] and the wrist within ±160°, at rest.
func TestReacherObservation(t *testing.T) {
	for id, size := range reacherTargetSizes {
		e, spec := makeEnv(t, id, nil, 14)
		checkTiming(t, e, spec, 1, 0.02, 20)
		checkLayout(t, spec, "position:2", "to_target:2", "velocity:2")
		p := e.Physics()
		var radii, shoulders, quadrants []float64
		rollout(t, e, spec, 400, 4, 13, func() {
			pos, s := reacherTarget(t, p)
			if s[0] != size {
				t.Fatalf("%s: target radius %g, want %g", id, s[0], size)
			}
			r := math.Hypot(pos[0], pos[1])
			checkInRange(t, "target distance from the centre", r, 0.05, 0.2)
			radii = append(radii, r)
			quadrants = append(quadrants, math.Floor(math.Atan2(pos[1], pos[0])/(math.Pi/2)))
			checkInRange(t, "shoulder", p.D.Qpos[0], -math.Pi, math.Pi)
			checkInRange(t, "wrist", p.D.Qpos[1], -160*math.Pi/180, 160*math.Pi/180)
			shoulders = append(shoulders, p.D.Qpos[0])
			if p.D.Qvel[0] != 0 || p.D.Qvel[1] != 0 {
				t.Fatalf("%s: velocity after reset %v", id, p.D.Qvel)
			}
		}, func(obs []float32) {
			pos, _ := reacherTarget(t, p)
			fx, fy := reacherFinger(p.D.Qpos[0], p.D.Qpos[1])
			checkObs(t, spec, obs, []float64{p.D.Qpos[0], p.D.Qpos[1], pos[0] - fx, pos[1] - fy, p.D.Qvel[0], p.D.Qvel[1]})
		})
		if m, s := meanStd(radii); math.Abs(m-0.125) > 0.015 || math.Abs(s-0.15/math.Sqrt(12)) > 0.01 {
			t.Errorf("%s: target distances: mean %g, std %g, want uniform on [0.05, 0.2]", id, m, s)
		}
		if _, s := meanStd(quadrants); s < 0.9 {
			t.Errorf("%s: target directions cluster (quadrant std %g)", id, s)
		}
		if _, s := meanStd(shoulders); math.Abs(s-math.Pi/math.Sqrt(3)) > 0.4 {
			t.Errorf("%s: shoulder angles: std %g, want about %g", id, s, math.Pi/math.Sqrt(3))
		}
	}
}

// TestReacherReward: 1 while the finger's centre is within the target's radius plus
// the finger's 0.01 of the target's centre, else 0.
func TestReacherReward(t *testing.T) {
	for id, size := range reacherTargetSizes {
		e, _ := makeEnv(t, id, nil, 0)
		e.Reset()
		p := e.Physics()
		pos, _ := reacherTarget(t, p)
		for _, c := range []struct{ q1, q2, dx, dy float64 }{
			{0, 0, 0, 0}, {0.3, -0.5, 0.99 * (size + 0.01), 0}, {1, 1, 0, -1.01 * (size + 0.01)},
			{-2, 2.5, 0.7 * (size + 0.01), 0.7 * (size + 0.01)}, {2, 0.4, 0.1, 0.1},
		} {
			fx, fy := reacherFinger(c.q1, c.q2)
			pos[0], pos[1] = fx+c.dx, fy+c.dy
			want := 0.0
			if math.Hypot(c.dx, c.dy) <= size+0.01 {
				want = 1
			}
			checkNear(t, id+" reward", rewardAt(t, e, []float64{c.q1, c.q2}, nil, nil), want)
		}
	}
}
