package dmc

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// manipulatorTasks are the manipulator tasks with the props they keep, their model
// sizes and the bodies their models lack.
var manipulatorTasks = []struct {
	id                       string
	prop, target, receptacle string
	nbody, ngeom             int
	removed                  []string
}{
	{"ManipulatorBringBall-v1", "ball", "target_ball", "", 12, 21, []string{"peg", "pommel", "target_peg", "slot", "cup"}},
	{"ManipulatorBringPeg-v1", "peg", "target_peg", "", 13, 25, []string{"ball", "target_ball", "slot", "cup"}},
	{"ManipulatorInsertBall-v1", "ball", "target_ball", "cup", 13, 25, []string{"peg", "pommel", "target_peg", "slot"}},
	{"ManipulatorInsertPeg-v1", "peg", "target_peg", "slot", 14, 28, []string{"ball", "target_ball", "cup"}},
}

// TestManipulatorModels: each task's model lacks the props it does not use (the
// sizes the suite's make_model gives), and the observation has the suite's entries.
func TestManipulatorModels(t *testing.T) {
	want := []string{"arm_pos:16", "arm_vel:8", "touch:5", "hand_pos:4", "object_pos:4", "object_vel:3", "target_pos:4"}
	for _, c := range manipulatorTasks {
		e, spec := makeEnv(t, c.id, nil, 0)
		m := e.Physics().M
		if m.NBody != c.nbody || m.Size("ngeom") != c.ngeom || m.NQ != 11 || m.NV != 11 || m.NU != 5 {
			t.Errorf("%s: nbody %d ngeom %d nq %d nv %d nu %d, want %d %d 11 11 5", c.id, m.NBody, m.Size("ngeom"), m.NQ, m.NV, m.NU, c.nbody, c.ngeom)
		}
		for _, b := range c.removed {
			if _, err := m.ID(mujoco.ObjBody, b); err == nil {
				t.Errorf("%s: body %s is still in the model", c.id, b)
			}
		}
		for _, b := range []string{c.prop, c.target, c.receptacle} {
			if _, err := m.ID(mujoco.ObjBody, b); b != "" && err != nil {
				t.Errorf("%s: %v", c.id, err)
			}
		}
		checkTiming(t, e, spec, 10, 0.001, 10)
		checkLayout(t, spec, want...)
	}
}

// armObservation checks the entries the manipulator and stacker share, computed from
// the joints, the touch sensors and the hand's pose.
func armObservation(t *testing.T, e *Env, obs []float32) {
	t.Helper()
	p, spec := e.Physics(), e.t.spec
	var pos, vel []float64
	for _, name := range planarArmJoints {
		j := mustJoint(t, p, name)
		pos = append(pos, math.Sin(p.D.Qpos[j.Qpos]), math.Cos(p.D.Qpos[j.Qpos]))
		vel = append(vel, p.D.Qvel[j.Qvel])
	}
	checkEntry(t, spec, obs, "arm_pos", pos...)
	checkEntry(t, spec, obs, "arm_vel", vel...)
	touch := sensorValues(t, p, "palm_touch", "finger_touch", "thumb_touch", "fingertip_touch", "thumbtip_touch")
	checkEntry(t, spec, obs, "touch", mapped(math.Log1p, touch)...)
	checkEntry(t, spec, obs, "hand_pos", pose2D(t, p, "hand")...)
}

// pose2D is a body's x, z and the w, y of its orientation quaternion, for the
// manipulator's and stacker's pose entries.
func pose2D(t *testing.T, p *Physics, body string) []float64 {
	b := mustID(t, p, mujoco.ObjBody, body)
	q := p.D.Float64s("xquat")[4*b:]
	return []float64{p.Xpos[3*b], p.Xpos[3*b+2], q[0], q[2]}
}

// TestManipulatorObservation: the entries after resets and random steps.
func TestManipulatorObservation(t *testing.T) {
	for _, c := range manipulatorTasks[:2] {
		e, spec := makeEnv(t, c.id, nil, 4)
		p := e.Physics()
		rollout(t, e, spec, 40, 20, 5, nil, func(obs []float32) {
			armObservation(t, e, obs)
			checkEntry(t, spec, obs, "object_pos", pose2D(t, p, c.prop)...)
			checkEntry(t, spec, obs, "target_pos", pose2D(t, p, c.target)...)
			var v []float64
			for _, axis := range []string{"_x", "_z", "_y"} {
				v = append(v, p.D.Qvel[mustJoint(t, p, c.prop+axis).Qvel])
			}
			checkEntry(t, spec, obs, "object_vel", v...)
		})
	}
}

// TestManipulatorReset: the target lies in its area, turned about y within the task's
// range, the receptacle (insert tasks) sits at the target, the finger mirrors the
// thumb, nothing touches, and the prop starts in the hand, at the target and elsewhere.
func TestManipulatorReset(t *testing.T) {
	for _, c := range manipulatorTasks {
		e, _ := makeEnv(t, c.id, nil, 11)
		p := e.Physics()
		target := mustID(t, p, mujoco.ObjBody, c.target)
		grasp := mustID(t, p, mujoco.ObjSite, "grasp")
		prop := mustID(t, p, mujoco.ObjBody, c.prop)
		finger, thumb := mustJoint(t, p, "finger"), mustJoint(t, p, "thumb")
		maxAngle := math.Pi
		if c.receptacle != "" {
			maxAngle = math.Pi / 3
		}
		starts := map[string]int{}
		for range 100 {
			e.Reset()
			pos, quat := p.ModelRow("body_pos", target, 3), p.ModelRow("body_quat", target, 4)
			if pos[0] < -0.4 || pos[0] > 0.4 || pos[2] < 0.1 || pos[2] > 0.4 {
				t.Fatalf("%s: target at %v", c.id, pos)
			}
			angle := 2 * math.Atan2(quat[2], quat[0])
			if math.Abs(angle) > maxAngle+1e-12 || quat[1] != 0 || quat[3] != 0 {
				t.Fatalf("%s: target quaternion %v (angle %g, limit %g)", c.id, quat, angle, maxAngle)
			}
			if c.receptacle != "" {
				r := mustID(t, p, mujoco.ObjBody, c.receptacle)
				rpos, rquat := p.ModelRow("body_pos", r, 3), p.ModelRow("body_quat", r, 4)
				if rpos[0] != pos[0] || rpos[2] != pos[2] || !slices.Equal(rquat, quat) {
					t.Fatalf("%s: receptacle at %v %v, target at %v %v", c.id, rpos, rquat, pos, quat)
				}
			}
			if p.D.Qpos[finger.Qpos] != p.D.Qpos[thumb.Qpos] {
				t.Fatalf("%s: finger %g, thumb %g", c.id, p.D.Qpos[finger.Qpos], p.D.Qpos[thumb.Qpos])
			}
			if n := p.D.NCon(); n != 0 {
				t.Fatalf("%s: %d contacts after reset", c.id, n)
			}
			ox, oz := p.Xpos[3*prop], p.Xpos[3*prop+2]
			switch {
			case math.Abs(ox-pos[0]) < 1e-9 && math.Abs(oz-pos[2]) < 1e-9:
				starts["target"]++
			case math.Abs(ox-p.SiteXpos[3*grasp]) < 1e-9 && math.Abs(oz-p.SiteXpos[3*grasp+2]) < 1e-9:
				starts["hand"]++
			default:
				if ox < -0.5 || ox > 0.5 || oz < 0 || oz > 0.7 {
					t.Fatalf("%s: prop at x %g z %g", c.id, ox, oz)
				}
				starts["uniform"]++
			}
		}
		if starts["target"] == 0 || starts["hand"] == 0 || starts["uniform"] < 50 {
			t.Errorf("%s: starts %v, want some at the target, some in the hand, most uniform", c.id, starts)
		}
	}
}

// closeReward is the manipulator's close(d) by hand: 1 within 0.01, else the gaussian
// fall-off over a margin of 0.02.
func closeReward(d float64) float64 { return gaussianTol(d, 0, 0.01, 0.02) }

// TestManipulatorReward: the prop placed at and beside the target earns close() of
// the distances (the target bodies sit 1 mm off the plane, in y); a peg held in the
// hand, far from the target, earns a third of grasping.
func TestManipulatorReward(t *testing.T) {
	for _, c := range manipulatorTasks {
		e, _ := makeEnv(t, c.id, nil, 3)
		e.Reset()
		p := e.Physics()
		target := mustID(t, p, mujoco.ObjBody, c.target)
		x, z := mustJoint(t, p, c.prop+"_x"), mustJoint(t, p, c.prop+"_z")
		angle := mustJoint(t, p, c.prop+"_y")
		pos, quat := p.ModelRow("body_pos", target, 3), p.ModelRow("body_quat", target, 4)
		dist := func(a, b string) float64 {
			sa, sb := mustID(t, p, mujoco.ObjSite, a), mustID(t, p, mujoco.ObjSite, b)
			return math.Sqrt(sq(p.SiteXpos[3*sa]-p.SiteXpos[3*sb]) + sq(p.SiteXpos[3*sa+1]-p.SiteXpos[3*sb+1]) + sq(p.SiteXpos[3*sa+2]-p.SiteXpos[3*sb+2]))
		}
		check := func(what string, ox, oz, oa, bring float64) float64 {
			p.D.Qpos[x.Qpos], p.D.Qpos[z.Qpos], p.D.Qpos[angle.Qpos] = ox, oz, oa
			forward(t, p)
			want := bring
			if c.prop == "peg" {
				grasping := (closeReward(dist("peg_grasp", "grasp")) + closeReward(dist("peg_pinch", "pinch"))) / 2
				want = max(want, grasping/3)
			}
			r := e.logic.reward(p)
			if !near(r, want, 1e-6) {
				t.Errorf("%s: %s: reward %g, want %g", c.id, what, r, want)
			}
			return r
		}
		for _, d := range []float64{0, 0.005, 0.02, 0.04} {
			check(fmt.Sprintf("prop %g beside the target", d), pos[0]+d, pos[2], 2*math.Atan2(quat[2], quat[0]), closeReward(math.Hypot(d, 0.001)))
		}
		if c.prop == "peg" {
			grasp := mustID(t, p, mujoco.ObjSite, "grasp")
			g, mat := p.SiteXpos[3*grasp:], p.SiteXmat[9*grasp:]
			pos[0], pos[2] = g[0]+0.3, g[2] // the target out of reach
			if r := check("peg in the hand", g[0], g[2], math.Pi-math.Atan2(mat[6], mat[0]), 0); r < 0.3 {
				t.Errorf("%s: peg in the hand: reward %g, want about 1/3", c.id, r)
			}
		}
	}
}
