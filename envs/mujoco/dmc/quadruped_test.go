package dmc

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// quadrupedLegs name the legs in the suite's order of their joints and sensors.
var quadrupedLegs = []string{"front_left", "front_right", "back_right", "back_left"}

// TestQuadrupedModels: each task's model carries the suite's edits (floor size, walls,
// ball and target, terrain, rangefinders) and the observation the suite's entries.
func TestQuadrupedModels(t *testing.T) {
	common := []string{"egocentric_state:44", "torso_velocity:3", "torso_upright:1", "imu:6", "force_torque:24"}
	for _, c := range []struct {
		id                       string
		floor                    float64
		nq, nbody, nsensor       int
		walls, terrain, ballGoal bool
		extra                    []string
	}{
		{"QuadrupedWalk-v1", 10, 23, 18, 12, false, false, false, nil},
		{"QuadrupedRun-v1", 100, 23, 18, 12, false, false, false, nil},
		{"QuadrupedEscape-v1", 40, 23, 18, 32, false, true, false, []string{"origin:3", "rangefinder:20"}},
		{"QuadrupedFetch-v1", 15, 30, 19, 12, true, false, true, []string{"ball_state:9", "target_position:3"}},
	} {
		e, spec := makeEnv(t, c.id, nil, 0)
		p := e.Physics()
		m := p.M
		if m.NQ != c.nq || m.NV != c.nq-1-boolCount(c.ballGoal) || m.NU != 12 || m.NBody != c.nbody || m.Size("nsensor") != c.nsensor {
			t.Errorf("%s: nq %d nv %d nu %d nbody %d nsensor %d, want %d %d 12 %d %d", c.id, m.NQ, m.NV, m.NU, m.NBody, m.Size("nsensor"), c.nq, c.nq-1-boolCount(c.ballGoal), c.nbody, c.nsensor)
		}
		if s := p.ModelRow("geom_size", mustID(t, p, mujoco.ObjGeom, "floor"), 3); s[0] != c.floor || s[1] != c.floor || s[2] != 0.5 {
			t.Errorf("%s: floor size %v, want %g %g .5", c.id, s, c.floor, c.floor)
		}
		has := func(objType int, name string) bool { _, err := m.ID(objType, name); return err == nil }
		if has(mujoco.ObjGeom, "wall_px") != c.walls || has(mujoco.ObjGeom, "terrain") != c.terrain ||
			has(mujoco.ObjBody, "ball") != c.ballGoal || has(mujoco.ObjSite, "target") != c.ballGoal {
			t.Errorf("%s: walls %v terrain %v ball %v target %v", c.id, has(mujoco.ObjGeom, "wall_px"), has(mujoco.ObjGeom, "terrain"), has(mujoco.ObjBody, "ball"), has(mujoco.ObjSite, "target"))
		}
		checkTiming(t, e, spec, 4, 0.005, 20)
		checkLayout(t, spec, append(slices.Clone(common), c.extra...)...)
	}
}

// boolCount is 1 for true, 0 for false.
func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestQuadrupedObservation: the entries after resets and random steps, from the hinge
// joints, the actuators' activations, the sensors by name and the torso's frame.
func TestQuadrupedObservation(t *testing.T) {
	var hinges, forces, torques, rangefinders []string
	for _, leg := range quadrupedLegs {
		hinges = append(hinges, "yaw_"+leg, "pitch_"+leg, "knee_"+leg, "ankle_"+leg)
		forces, torques = append(forces, "force_toe_"+leg), append(torques, "torque_toe_"+leg)
	}
	for i := range 4 {
		for j := range 5 {
			rangefinders = append(rangefinders, fmt.Sprintf("rf_%d%d", i, j))
		}
	}
	for _, id := range []string{"QuadrupedEscape-v1", "QuadrupedFetch-v1"} {
		e, spec := makeEnv(t, id, nil, 12)
		p := e.Physics()
		torso := mustID(t, p, mujoco.ObjBody, "torso")
		rollout(t, e, spec, 30, 15, 9, nil, func(obs []float32) {
			var state []float64
			for _, name := range hinges {
				state = append(state, p.D.Qpos[mustJoint(t, p, name).Qpos])
			}
			for _, name := range hinges {
				state = append(state, p.D.Qvel[mustJoint(t, p, name).Qvel])
			}
			state = append(state, p.D.Float64s("act")...)
			checkEntry(t, spec, obs, "egocentric_state", state...)
			checkEntry(t, spec, obs, "torso_velocity", sensorValues(t, p, "velocimeter")...)
			mat, pos := p.Xmat[9*torso:9*torso+9], p.Xpos[3*torso:3*torso+3]
			checkEntry(t, spec, obs, "torso_upright", mat[8])
			checkEntry(t, spec, obs, "imu", sensorValues(t, p, "imu_accel", "imu_gyro")...)
			checkEntry(t, spec, obs, "force_torque", mapped(math.Asinh, sensorValues(t, p, append(slices.Clone(forces), torques...)...))...)
			if id == "QuadrupedEscape-v1" {
				checkEntry(t, spec, obs, "origin", inFrame(mat, -pos[0], -pos[1], -pos[2])...)
				rf := mapped(func(v float64) float64 {
					if v == -1 {
						return 1
					}
					return math.Tanh(v)
				}, sensorValues(t, p, rangefinders...))
				checkEntry(t, spec, obs, "rangefinder", rf...)
				return
			}
			ball := mustID(t, p, mujoco.ObjBody, "ball")
			bv, tv := p.D.Qvel[mustJoint(t, p, "ball_root").Qvel:], p.D.Qvel[mustJoint(t, p, "root").Qvel:]
			bs := inFrame(mat, p.Xpos[3*ball]-pos[0], p.Xpos[3*ball+1]-pos[1], p.Xpos[3*ball+2]-pos[2])
			bs = append(bs, inFrame(mat, bv[0]-tv[0], bv[1]-tv[1], bv[2]-tv[2])...)
			bs = append(bs, inFrame(mat, bv[3], bv[4], bv[5])...)
			checkEntry(t, spec, obs, "ball_state", bs...)
			target := p.SiteXpos[3*mustID(t, p, mujoco.ObjSite, "target"):]
			checkEntry(t, spec, obs, "target_position", inFrame(mat, target[0]-pos[0], target[1]-pos[1], target[2]-pos[2])...)
		})
	}
}

// lowestFree checks the height search: the body touches nothing, and 1 cm lower it
// touches something (unless it starts at 0).
func lowestFree(t *testing.T, p *Physics, root Joint) {
	t.Helper()
	if n := p.D.NCon(); n != 0 {
		t.Fatalf("%d contacts after reset", n)
	}
	z := p.D.Qpos[root.Qpos+2]
	if z < 0.005 {
		return
	}
	p.D.Qpos[root.Qpos+2] = z - 0.01
	if err := p.forwardPassive(); err != nil {
		t.Fatal(err)
	}
	if p.D.NCon() == 0 {
		t.Fatalf("no contact 1 cm below the start height %g", z)
	}
	p.D.Qpos[root.Qpos+2] = z
	if err := p.forwardPassive(); err != nil {
		t.Fatal(err)
	}
}

// TestQuadrupedReset: walk starts at the origin with a random orientation at the
// lowest contact-free height; fetch with a yaw at a random spot and the ball thrown
// from 2 m; escape on a new bowl-shaped terrain each episode.
func TestQuadrupedReset(t *testing.T) {
	walk, _ := makeEnv(t, "QuadrupedWalk-v1", nil, 3)
	p := walk.Physics()
	root := mustJoint(t, p, "root")
	var zs []float64
	for range 10 {
		walk.Reset()
		q := p.D.Qpos[root.Qpos:]
		if q[0] != 0 || q[1] != 0 || !near(norm(q[3:7]...), 1, 1e-12) || slices.ContainsFunc(p.D.Qvel, func(v float64) bool { return v != 0 }) {
			t.Fatalf("walk: root %v, qvel %v", q[:7], p.D.Qvel)
		}
		lowestFree(t, p, root)
		zs = append(zs, q[2])
	}
	if slices.Min(zs) == slices.Max(zs) {
		t.Errorf("walk: every start at height %g", zs[0])
	}

	fetch, _ := makeEnv(t, "QuadrupedFetch-v1", nil, 4)
	p = fetch.Physics()
	root, ball := mustJoint(t, p, "root"), mustJoint(t, p, "ball_root")
	for range 10 {
		fetch.Reset()
		q, b, bv := p.D.Qpos[root.Qpos:], p.D.Qpos[ball.Qpos:], p.D.Qvel[ball.Qvel:]
		if math.Abs(q[0]) > 13.5 || math.Abs(q[1]) > 13.5 || q[4] != 0 || q[5] != 0 || math.Abs(q[3]*q[3]+q[6]*q[6]-1) > 1e-12 {
			t.Fatalf("fetch: root %v", q[:7])
		}
		if math.Abs(b[0]) > 13.5 || math.Abs(b[1]) > 13.5 || b[2] != 2 || bv[0] == 0 || bv[1] == 0 || bv[2] != 0 || bv[3] != 0 {
			t.Fatalf("fetch: ball at %v moving %v", b[:3], bv[:6])
		}
		lowestFree(t, p, root)
	}

	escape, _ := makeEnv(t, "QuadrupedEscape-v1", nil, 5)
	p = escape.Physics()
	res := int(p.M.Int32s("hfield_nrow")[0])
	var prev []float32
	for range 3 {
		escape.Reset()
		data := p.M.Float32s("hfield_data")[:res*res]
		sum, n := 0.0, 0
		for i := range res {
			for j := range res {
				r := math.Hypot(float64(i)/100-1, float64(j)/100-1) // the grid spans [-1, 1]
				bowl := 0.5 - math.Cos(2*math.Pi*min(max(r, 0.04), 1))/2
				h := float64(data[i*res+j])
				if bowl < 0.05 {
					if h < -0.01 || h > 0.06 {
						t.Fatalf("escape: height %g at (%d, %d), bowl %g", h, i, j, bowl)
					}
					continue
				}
				// the bumps lie in [0.15, 1], the spline between them overshoots a little
				ratio := h / bowl
				if ratio < 0 || ratio > 1.4 {
					t.Fatalf("escape: height %g at (%d, %d) is %g of the bowl's %g", h, i, j, ratio, bowl)
				}
				sum += ratio
				n++
			}
		}
		if mean := sum / float64(n); mean < 0.5 || mean > 0.65 {
			t.Errorf("escape: the bumps average %g, want about 0.575 (uniform in [0.15, 1])", mean)
		}
		if prev != nil && slices.Equal(prev, data) {
			t.Fatal("escape: the terrain did not change between episodes")
		}
		prev = slices.Clone(data)
		lowestFree(t, p, mustJoint(t, p, "root"))
	}
}

// placeTorso sets the quadruped's root: position and a rotation by angle about x.
func placeTorso(p *Physics, root Joint, x, y, z, angle float64) {
	q := p.D.Qpos[root.Qpos:]
	q[0], q[1], q[2] = x, y, z
	q[3], q[4], q[5], q[6] = math.Cos(angle/2), math.Sin(angle/2), 0, 0
}

// TestQuadrupedReward: the tasks' rewards at placed states by hand (linear
// tolerances: 1 inside the bounds, falling by (1 - value at margin) per margin).
func TestQuadrupedReward(t *testing.T) {
	upright := func(tilt, devDeg float64) float64 {
		dev := math.Cos(devDeg * math.Pi / 180)
		return linearTol(math.Cos(tilt), dev, math.Inf(1), 1+dev, 0)
	}
	for _, c := range []struct {
		id    string
		speed float64
	}{{"QuadrupedWalk-v1", 0.5}, {"QuadrupedRun-v1", 5}} {
		e, _ := makeEnv(t, c.id, nil, 1)
		e.Reset()
		p := e.Physics()
		root := mustJoint(t, p, "root")
		for _, s := range []struct{ v, tilt float64 }{{2 * c.speed, 0}, {c.speed / 2, 0}, {0, 0}, {-c.speed, 0}, {c.speed, 0.5}, {c.speed / 2, 2}} {
			placeTorso(p, root, 0, 0, 2, s.tilt)
			v := p.D.Qvel[root.Qvel:]
			clear(v[:6])
			v[0] = s.v
			forward(t, p)
			move := linearTol(s.v, c.speed, math.Inf(1), c.speed, 0.5)
			if want, r := upright(s.tilt, 0)*move, e.logic.reward(p); !near(r, want, 1e-6) {
				t.Errorf("%s: speed %g tilt %g: reward %g, want %g", c.id, s.v, s.tilt, r, want)
			}
		}
	}

	escape, _ := makeEnv(t, "QuadrupedEscape-v1", nil, 1)
	escape.Reset()
	p := escape.Physics()
	root := mustJoint(t, p, "root")
	for _, s := range []struct{ x, tilt float64 }{{0, 0}, {10, 0.1}, {25, 0.6}, {35, 0}, {-20, 1.2}} {
		placeTorso(p, root, s.x, 0, 2, s.tilt)
		forward(t, p)
		// the workspace site sits at (0.8, 0, -0.2) in the torso's frame
		d := math.Sqrt(sq(s.x+0.8) + sq(0.2*math.Sin(s.tilt)) + sq(2-0.2*math.Cos(s.tilt)))
		esc := linearTol(d, 30, math.Inf(1), 30, 0)
		if want, r := upright(s.tilt, 20)*esc, escape.logic.reward(p); !near(r, want, 1e-6) {
			t.Errorf("escape: x %g tilt %g: reward %g, want %g", s.x, s.tilt, r, want)
		}
	}

	fetch, _ := makeEnv(t, "QuadrupedFetch-v1", nil, 1)
	fetch.Reset()
	p = fetch.Physics()
	root, ball := mustJoint(t, p, "root"), mustJoint(t, p, "ball_root")
	arena := 15 * math.Sqrt2
	for _, s := range []struct{ tx, ty, bx, by, tilt float64 }{{0, 0, 0.8, 0, 0}, {-1, 2, 0.1, 0.2, 0}, {5, 5, -3, 4, 0.3}, {-10, 10, 10, -10, 0}} {
		placeTorso(p, root, s.tx, s.ty, 2, s.tilt)
		b := p.D.Qpos[ball.Qpos:]
		b[0], b[1], b[2] = s.bx, s.by, 0.15
		forward(t, p)
		reach := linearTol(math.Hypot(s.tx+0.8-s.bx, s.ty+0.2*math.Sin(s.tilt)-s.by), 0, 0.45, arena, 0)
		fetchR := linearTol(math.Hypot(s.bx, s.by), 0, 0.4, arena, 0)
		if want, r := upright(s.tilt, 0)*reach*(0.5+0.5*fetchR), fetch.logic.reward(p); !near(r, want, 1e-6) {
			t.Errorf("fetch: torso (%g, %g) ball (%g, %g): reward %g, want %g", s.tx, s.ty, s.bx, s.by, r, want)
		}
	}
}

// TestQuadrupedSplineZoom: the terrain's zoom against scipy.ndimage.zoom(b, 9/4) (scipy 1.10,
// order 3, mode 'constant') of a fixed 4 x 4 grid, rows 0, 4 and 8.
func TestQuadrupedSplineZoom(t *testing.T) {
	in := []float64{0.2, 0.9, 0.4, 0.6, 1.0, 0.15, 0.7, 0.3, 0.5, 0.55, 0.95, 0.25, 0.35, 0.8, 0.45, 0.65}
	want := map[int][]float64{
		0: {0.20000000000000015, 0.40214843750000007, 0.7596875, 0.9033984374999999, 0.7124999999999999, 0.45128906250000006, 0.3918750000000002, 0.5121093750000003, 0.6000000000000004},
		3: {1.0218554687500003, 0.7572010040283206, 0.2939925537109377, 0.12265123748779302, 0.39092041015625, 0.7153928909301757, 0.7064166870117189, 0.43289440155029296, 0.2595703125000001},
		8: {0.35000000000000014, 0.4827148437500001, 0.71421875, 0.7974023437499999, 0.6562499999999999, 0.47994140625000004, 0.46156250000000026, 0.5744140625, 0.6500000000000001},
	}
	out := splineZoom(in, 4, 9)
	for row, w := range want {
		for j, v := range w {
			if got := out[row*9+j]; math.Abs(got-v) > 1e-12 {
				t.Errorf("zoom[%d][%d] = %.17g, scipy %.17g", row, j, got, v)
			}
		}
	}
	// A coordinate that rounding puts past the last sample is 0 in scipy's constant
	// mode: zooming 4 to 188 samples puts sample 187 at 3 * (3 / 187) * 187 / 3 > 3.
	if z := splineZoom(slices.Repeat([]float64{1}, 16), 4, 188); z[187] != 0 || z[0] == 0 {
		t.Errorf("zoom 4 -> 188: corner %g, first %g; scipy gives 0 and 1", z[187], z[0])
	}
}
