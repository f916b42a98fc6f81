package dmc

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// TestStackerModels: stack_n keeps boxes 0..n-1 of the file's four (nq = 8 arm joints
// + 3 per box, one body per box), with the suite's entries.
func TestStackerModels(t *testing.T) {
	for _, n := range []int{2, 4} {
		id := fmt.Sprintf("StackerStack%d-v1", n)
		e, spec := makeEnv(t, id, nil, 0)
		m := e.Physics().M
		if m.NQ != 8+3*n || m.NV != 8+3*n || m.NU != 5 || m.NBody != 11+n {
			t.Errorf("%s: nq %d nv %d nu %d nbody %d, want %d %d 5 %d", id, m.NQ, m.NV, m.NU, m.NBody, 8+3*n, 8+3*n, 11+n)
		}
		for b := range 4 {
			if _, err := m.ID(mujoco.ObjBody, fmt.Sprintf("box%d", b)); (err == nil) != (b < n) {
				t.Errorf("%s: box%d present: %v", id, b, err == nil)
			}
		}
		want := []string{"arm_pos:16", "arm_vel:8", "touch:5", "hand_pos:4", fmt.Sprintf("box_pos:%d", 4*n), fmt.Sprintf("box_vel:%d", 3*n), "target_pos:2"}
		checkTiming(t, e, spec, 10, 0.001, 10)
		checkLayout(t, spec, want...)
	}
}

// TestStackerObservation: the entries after resets and random steps; box_vel goes box
// by box in the suite's x, y (angle), z joint order.
func TestStackerObservation(t *testing.T) {
	e, spec := makeEnv(t, "StackerStack4-v1", nil, 8)
	p := e.Physics()
	rollout(t, e, spec, 40, 20, 7, nil, func(obs []float32) {
		armObservation(t, e, obs)
		var pos, vel []float64
		for b := range 4 {
			name := fmt.Sprintf("box%d", b)
			pos = append(pos, pose2D(t, p, name)...)
			for _, axis := range []string{"_x", "_y", "_z"} {
				vel = append(vel, p.D.Qvel[mustJoint(t, p, name+axis).Qvel])
			}
		}
		checkEntry(t, spec, obs, "box_pos", pos...)
		checkEntry(t, spec, obs, "box_vel", vel...)
		checkEntry(t, spec, obs, "target_pos", pose2D(t, p, "target")[:2]...)
	})
}

// TestStackerReset: the target stands at the height of a stack of 1..n boxes (each
// height occurring) at x in [-0.37, 0.37]; the boxes start in their area; the finger
// mirrors the thumb; nothing touches.
func TestStackerReset(t *testing.T) {
	e, _ := makeEnv(t, "StackerStack4-v1", nil, 9)
	p := e.Physics()
	target := mustID(t, p, mujoco.ObjBody, "target")
	finger, thumb := mustJoint(t, p, "finger"), mustJoint(t, p, "thumb")
	heights := map[int]int{}
	for range 60 {
		e.Reset()
		pos := p.ModelRow("body_pos", target, 3)
		k := pos[2] / 0.022
		if math.Abs(k-math.Round(k)) > 1e-9 || int(math.Round(k))%2 != 1 || k > 7.5 || math.Abs(pos[0]) > 0.37 {
			t.Fatalf("target at %v (%g box sizes up)", pos, k)
		}
		heights[int(math.Round(k))]++
		for b := range 4 {
			name := fmt.Sprintf("box%d", b)
			x, z, a := p.D.Qpos[mustJoint(t, p, name+"_x").Qpos], p.D.Qpos[mustJoint(t, p, name+"_z").Qpos], p.D.Qpos[mustJoint(t, p, name+"_y").Qpos]
			if x < 0.1 || x > 0.3 || z < 0 || z > 0.7 || a < 0 || a > 2*math.Pi {
				t.Fatalf("%s at x %g z %g angle %g", name, x, z, a)
			}
		}
		if p.D.Qpos[finger.Qpos] != p.D.Qpos[thumb.Qpos] || p.D.NCon() != 0 {
			t.Fatalf("finger %g thumb %g, %d contacts", p.D.Qpos[finger.Qpos], p.D.Qpos[thumb.Qpos], p.D.NCon())
		}
	}
	if len(heights) != 4 {
		t.Errorf("target heights (in box sizes) %v, want each of 1, 3, 5, 7", heights)
	}
}

// TestStackerReward: box_is_close * hand_is_far by hand, with the target moved beside
// the hand's grasp site and box0 placed beside the target (the target body sits 1 mm
// off the plane, in y; box1 stays farther away).
func TestStackerReward(t *testing.T) {
	e, _ := makeEnv(t, "StackerStack2-v1", nil, 2)
	e.Reset()
	p := e.Physics()
	target := mustID(t, p, mujoco.ObjBody, "target")
	grasp, targetSite := mustID(t, p, mujoco.ObjSite, "grasp"), mustID(t, p, mujoco.ObjSite, "target")
	x0, z0 := mustJoint(t, p, "box0_x"), mustJoint(t, p, "box0_z")
	x1, z1 := mustJoint(t, p, "box1_x"), mustJoint(t, p, "box1_z")
	g := append([]float64(nil), p.SiteXpos[3*grasp:3*grasp+3]...)
	var seen []float64
	for _, c := range []struct{ box, hand float64 }{{0, 0.2}, {0.02, 0.2}, {0.05, 0.3}, {0, 0.095}, {0.01, 0.05}, {0, 0}} {
		pos := p.ModelRow("body_pos", target, 3)
		pos[0], pos[2] = g[0]+c.hand, g[2]
		p.D.Qpos[x0.Qpos], p.D.Qpos[z0.Qpos] = pos[0]+c.box, pos[2]
		p.D.Qpos[x1.Qpos], p.D.Qpos[z1.Qpos] = pos[0]+c.box+0.2, pos[2]
		forward(t, p)
		boxClose := gaussianTol(math.Hypot(c.box, 0.001), 0, 0, 0.044) // bounds (0, 0), margin 2 * 0.022
		s := p.SiteXpos[3*targetSite:]
		handD := math.Sqrt(sq(g[0]-s[0]) + sq(g[1]-s[1]) + sq(g[2]-s[2]))
		if math.Abs(handD-math.Hypot(c.hand, 0.001)) > 1e-9 {
			t.Fatalf("target site %g from the grasp site, want %g", handD, c.hand)
		}
		handFar := gaussianTol(handD, 0.1, math.Inf(1), 0.01)
		r, want := e.logic.reward(p), boxClose*handFar
		if !near(r, want, 1e-6) {
			t.Errorf("box %g from the target, hand %g from it: reward %g, want %g", c.box, c.hand, r, want)
		}
		seen = append(seen, r)
	}
	if !slices.ContainsFunc(seen, func(r float64) bool { return r > 0.01 && r < 0.99 }) {
		t.Errorf("rewards %v: no case between the extremes", seen)
	}
}
