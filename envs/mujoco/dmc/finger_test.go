package dmc

import (
	"math"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// TestFingerLayout: the suite's entries in its order.
func TestFingerLayout(t *testing.T) {
	for id, want := range map[string][]string{
		"FingerSpin-v1":     {"position:4", "velocity:3", "touch:2"},
		"FingerTurnEasy-v1": {"position:4", "velocity:3", "touch:2", "target_position:2", "dist_to_target:1"},
		"FingerTurnHard-v1": {"position:4", "velocity:3", "touch:2", "target_position:2", "dist_to_target:1"},
	} {
		e, spec := makeEnv(t, id, nil, 0)
		checkTiming(t, e, spec, 2, 0.01, 20)
		checkLayout(t, spec, want...)
	}
}

// TestFingerObservation: the entries after resets and steps, computed from the joint
// positions, velocities and the tip, target and spinner positions.
func TestFingerObservation(t *testing.T) {
	e, spec := makeEnv(t, "FingerTurnHard-v1", nil, 7)
	p := e.Physics()
	prox, dist, hinge := mustJoint(t, p, "proximal"), mustJoint(t, p, "distal"), mustJoint(t, p, "hinge")
	tip, target := mustID(t, p, mujoco.ObjSite, "tip"), mustID(t, p, mujoco.ObjSite, "target")
	spinner := mustID(t, p, mujoco.ObjBody, "spinner")
	first := true
	rollout(t, e, spec, 90, 30, 1, nil, func(obs []float32) {
		tx, tz := p.SiteXpos[3*tip]-p.Xpos[3*spinner], p.SiteXpos[3*tip+2]-p.Xpos[3*spinner+2]
		gx, gz := p.SiteXpos[3*target]-p.Xpos[3*spinner], p.SiteXpos[3*target+2]-p.Xpos[3*spinner+2]
		checkEntry(t, spec, obs, "position", p.D.Qpos[prox.Qpos], p.D.Qpos[dist.Qpos], tx, tz)
		checkEntry(t, spec, obs, "velocity", p.D.Qvel[prox.Qvel], p.D.Qvel[dist.Qvel], p.D.Qvel[hinge.Qvel])
		touch := sensorValues(t, p, "touchtop", "touchbottom")
		checkEntry(t, spec, obs, "touch", mapped(math.Log1p, touch)...)
		checkEntry(t, spec, obs, "target_position", gx, gz)
		checkEntry(t, spec, obs, "dist_to_target", math.Hypot(gx-tx, gz-tz)-fingerHardTarget)
		if first && (tx == 0 || gx == 0) {
			t.Fatalf("tip or target at the spinner's centre")
		}
		first = false
	})
}

// TestFingerReset: Spin lowers the hinge damping and hides the sites; Turn puts the
// target on the tip's circle (radius 0.13 about the hinge) with the task's radius at
// varying angles; the finger joints lie in their ranges and nothing touches.
func TestFingerReset(t *testing.T) {
	spin, _ := makeEnv(t, "FingerSpin-v1", nil, 1)
	spin.Reset()
	p := spin.Physics()
	hinge := mustJoint(t, p, "hinge")
	if d := p.M.Float64s("dof_damping")[hinge.Qvel]; d != 0.03 {
		t.Errorf("spin: hinge damping %g, want 0.03", d)
	}
	rgba := p.M.Float32s("site_rgba")
	for _, name := range []string{"target", "tip"} {
		if a := rgba[4*mustID(t, p, mujoco.ObjSite, name)+3]; a != 0 {
			t.Errorf("spin: site %s alpha %g, want 0", name, a)
		}
	}
	for _, c := range []struct {
		id     string
		radius float64
	}{{"FingerTurnEasy-v1", 0.07}, {"FingerTurnHard-v1", 0.03}} {
		e, _ := makeEnv(t, c.id, nil, 2)
		p := e.Physics()
		target := mustID(t, p, mujoco.ObjSite, "target")
		ranges := p.M.Float64s("jnt_range")
		var angles []float64
		for range 20 {
			e.Reset()
			pos, size := p.ModelRow("site_pos", target, 3), p.ModelRow("site_size", target, 3)[0]
			dx, dz := pos[0]-0.2, pos[2]-0.4 // the hinge sits at (0.2, 0, 0.4)
			if r := math.Hypot(dx, dz); math.Abs(r-0.13) > 1e-9 {
				t.Fatalf("%s: target %g from the hinge, want 0.13", c.id, r)
			}
			if size != c.radius {
				t.Fatalf("%s: target radius %g, want %g", c.id, size, c.radius)
			}
			angles = append(angles, math.Atan2(dx, dz))
			if n := p.D.NCon(); n != 0 {
				t.Fatalf("%s: %d contacts after reset", c.id, n)
			}
			for _, name := range []string{"proximal", "distal"} {
				id := mustID(t, p, mujoco.ObjJoint, name)
				if q := p.D.Qpos[mustJoint(t, p, name).Qpos]; q < ranges[2*id] || q > ranges[2*id+1] {
					t.Fatalf("%s: %s at %g outside [%g, %g]", c.id, name, q, ranges[2*id], ranges[2*id+1])
				}
			}
		}
		slices.Sort(angles)
		if angles[0] > -1 || angles[len(angles)-1] < 1 {
			t.Errorf("%s: target angles %v do not spread over [-pi, pi]", c.id, angles)
		}
	}
}

// TestFingerReward: Spin pays 1 at a hinge velocity of -15 or below; Turn pays 1 while
// the tip is within the target's radius.
func TestFingerReward(t *testing.T) {
	spin, _ := makeEnv(t, "FingerSpin-v1", nil, 1)
	spin.Reset()
	p := spin.Physics()
	hinge := mustJoint(t, p, "hinge")
	for _, c := range []struct{ v, want float64 }{{-20, 1}, {-15, 1}, {-14.9, 0}, {0, 0}, {20, 0}} {
		p.D.Qvel[hinge.Qvel] = c.v
		forward(t, p)
		if r := spin.logic.reward(p); r != c.want {
			t.Errorf("spin: hinge velocity %g: reward %g, want %g", c.v, r, c.want)
		}
	}
	turn, spec := makeEnv(t, "FingerTurnEasy-v1", nil, 1)
	turn.Reset()
	p = turn.Physics()
	tip, target := mustID(t, p, mujoco.ObjSite, "tip"), mustID(t, p, mujoco.ObjSite, "target")
	for _, c := range []struct{ offset, want float64 }{{0, 1}, {0.5 * fingerEasyTarget, 1}, {1.5 * fingerEasyTarget, 0}} {
		pos := p.ModelRow("site_pos", target, 3)
		pos[0], pos[2] = p.SiteXpos[3*tip]+c.offset, p.SiteXpos[3*tip+2]
		forward(t, p)
		if r := turn.logic.reward(p); r != c.want {
			t.Errorf("turn: target %g from the tip: reward %g, want %g", c.offset, r, c.want)
		}
		obs, _ := observe(t, turn, spec)
		checkEntry(t, spec, obs, "dist_to_target", c.offset-fingerEasyTarget)
	}
}
