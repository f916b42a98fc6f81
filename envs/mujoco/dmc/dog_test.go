package dmc

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// The dog's tasks, their speeds (0: stand and fetch) and floor half sizes (the suite's
// speed times 15 s, walk's for stand; fetch's file value 10).
var dogCases = []struct {
	id           string
	speed, floor float64
}{
	{"DogStand-v1", 0, 15}, {"DogWalk-v1", 1, 15}, {"DogTrot-v1", 3, 45}, {"DogRun-v1", 9, 135}, {"DogFetch-v1", 0, 10},
}

// TestDogSpec: 3 steps of 5 ms per action over 15 s, 38 actions, the observation
// entries in the suite's order, and the model edits: the floor's size, and the ball,
// target, walls and their cameras kept only by fetch.
func TestDogSpec(t *testing.T) {
	for _, c := range dogCases {
		e, spec := makeEnv(t, c.id, nil, 0)
		p := e.Physics()
		checkTiming(t, e, spec, 3, 0.005, 15)
		if spec.ActionSpace.Size() != 38 {
			t.Errorf("%s: %d actions, want 38", c.id, spec.ActionSpace.Size())
		}
		want := []string{"joint_angles:73", "joint_velocites:73", "torso_pelvis_height:2", "z_projection:9", "torso_com_velocity:3",
			"inertial_sensors:9", "foot_forces:12", "touch_sensors:4", "actuator_state:38"}
		fetch := c.id == "DogFetch-v1"
		if fetch {
			want = append(want, "ball_state:6", "target_position:3")
		}
		checkLayout(t, spec, want...)
		size := p.ModelRow("geom_size", mustID(t, p, mujoco.ObjGeom, "floor"), 3)
		if size[0] != c.floor || size[1] != c.floor || size[2] != 0.1 {
			t.Errorf("%s: floor size %v, want %g %g 0.1", c.id, size, c.floor, c.floor)
		}
		for _, o := range []struct {
			typ  int
			name string
		}{
			{mujoco.ObjBody, "ball"}, {mujoco.ObjGeom, "target"}, {mujoco.ObjGeom, "wall_px"}, {mujoco.ObjGeom, "wall_ny"},
			{mujoco.ObjCamera, "ball"}, {mujoco.ObjCamera, "head"},
		} {
			if _, err := p.ID(o.typ, o.name); (err == nil) != fetch {
				t.Errorf("%s: has %s: %v, want %v", c.id, o.name, err == nil, fetch)
			}
		}
	}
}

// TestDogReset: a reset leaves the default pose turned about z (a unit quaternion
// (cos, 0, 0, sin) of a varying heading), only the root's x, y and yaw velocities
// set (spread as 2 standard normals), the actuator states within their control
// ranges; fetch's ball 7.5 m out at 5 cm, flying towards the centre at a horizontal
// speed of at most 5 (plus the direction's noise) and an upward speed of at most
// sqrt(2 g 3).
func TestDogReset(t *testing.T) {
	for _, id := range []string{"DogStand-v1", "DogFetch-v1"} {
		e, _ := makeEnv(t, id, nil, 21)
		p := e.Physics()
		q0 := p.M.Qpos0
		var vx, wz []float64
		var sinHalf []float64
		for range 200 {
			e.Reset()
			q, v := p.D.Qpos, p.D.Qvel
			if !slices.Equal(q[:3], q0[:3]) || !slices.Equal(q[7:80], q0[7:80]) {
				t.Fatalf("%s: reset pose differs from the default apart from the heading", id)
			}
			if q[4] != 0 || q[5] != 0 || q[6] < 0 {
				t.Fatalf("%s: root quaternion %v is not a turn about z by [0, 2pi)", id, q[3:7])
			}
			checkNear(t, "root quaternion norm", norm(q[3:7]...), 1)
			sinHalf = append(sinHalf, q[6])
			for i, x := range v[:79] {
				if (x != 0) != (i == 0 || i == 1 || i == 5) {
					t.Fatalf("%s: qvel[%d] = %g", id, i, x)
				}
			}
			vx, wz = append(vx, v[0]), append(wz, v[5])
			act, cr := p.D.Float64s("act"), p.M.CtrlRange
			for i, a := range act {
				checkInRange(t, fmt.Sprintf("act[%d]", i), a, cr[2*i], cr[2*i+1])
			}
			if id != "DogFetch-v1" {
				continue
			}
			b := mustJoint(t, p, "ball_root")
			pos, vel := q[b.Qpos:b.Qpos+3], v[b.Qvel:b.Qvel+3]
			checkNear(t, "ball's distance from the centre", math.Hypot(pos[0], pos[1]), 7.5)
			checkNear(t, "ball's height", pos[2], 0.05)
			checkInRange(t, "ball's upward speed", vel[2], 0, math.Sqrt(2*9.81*3))
			h := math.Hypot(vel[0], vel[1])
			checkInRange(t, "ball's horizontal speed", h, 0, 5*1.3)
			if h > 0.5 {
				// Towards the centre: the direction -pos/|pos| with noise of 0.05 per axis.
				cos := -(vel[0]*pos[0] + vel[1]*pos[1]) / (h * 7.5)
				checkInRange(t, "cosine of the ball's bearing to the centre", cos, 0.9, 1)
			}
		}
		for what, xs := range map[string][]float64{"root x velocity": vx, "root yaw velocity": wz} {
			if m, s := meanStd(xs); math.Abs(m) > 0.6 || s < 1.6 || s > 2.4 {
				t.Errorf("%s: %s mean %.3f std %.3f over 200 resets, want 0 and 2", id, what, m, s)
			}
		}
		if lo, hi := slices.Min(sinHalf), slices.Max(sinHalf); lo > 0.2 || hi < 0.9 {
			t.Errorf("%s: headings cover sin(a/2) in [%g, %g] only", id, lo, hi)
		}
	}
}

// reciprocalTol is tolerance's reciprocal fall-off with 0.1 at the margin, written
// out: 1 inside [lo, hi], else 1/(9d + 1) with d the distance in margins.
func reciprocalTol(x, lo, hi, margin float64) float64 {
	return 1 / (9*marginsOutside(x, lo, hi, margin) + 1)
}

// dogSubtreeWeight is the weight of the body and every body below it, summed from
// the bodies' own masses.
func dogSubtreeWeight(p *Physics, body int) float64 {
	parent := p.M.Int32s("body_parentid")
	w := 0.0
	for b := range p.M.NBody {
		for a := b; a > 0; a = int(parent[a]) {
			if a == body {
				w += 9.81 * p.M.BodyMass[b]
				break
			}
		}
	}
	return w
}

// TestDogReward: every task's reward at set states (the root raised, lowered and
// tilted about x, standing on some feet, moving in the plane and turning; fetch's ball
// at and near the target, far away) against the suite's factors written out, from the
// standing heights of the default pose and the weight of the bodies' masses.
func TestDogReward(t *testing.T) {
	states := []struct {
		dz, tilt, vx, vy, wz float64
		ball                 [3]float64
	}{
		{0, 0, 0, 0, 0, [3]float64{5, -3, 0.03}},
		{0, 0.1, 0.5, 0, 0.2, [3]float64{0.05, 0.1, 0.03}}, // on two feet: touch below the weight
		{-0.005, 0.2, -0.8, 0.4, 0, [3]float64{1, 1, 0.03}},
		{-0.05, 0.2, 1.5, 0.3, 0.5, [3]float64{0, 0, 0.03}},
		{-0.2, 0.7, 4, -1, -1, [3]float64{0.15, 0.05, 0.03}},
		{0.1, 1.4, 10, 2, 0, [3]float64{-2, 1, 0.5}},
		{-0.3, math.Pi, 20, 0, 2, [3]float64{0.3, 0, 0.03}},
	}
	minCos := math.Cos(math.Pi / 6)
	for _, c := range dogCases {
		e, _ := makeEnv(t, c.id, nil, 0)
		e.Reset()
		p := e.Physics()
		torso, pelvis, skull := mustID(t, p, mujoco.ObjBody, "torso"), mustID(t, p, mujoco.ObjBody, "pelvis"), mustID(t, p, mujoco.ObjBody, "skull")
		setState(t, p, nil, nil, nil)
		hT, hP := 0.9*p.Xpos[3*torso+2], 0.9*p.Xpos[3*pelvis+2]
		weight := dogSubtreeWeight(p, torso)
		partial := 0 // states whose touch lies between 0 and the weight, where the weight matters
		for k, s := range states {
			q := append([]float64(nil), p.M.Qpos0...)
			q[2] += s.dz
			q[3], q[4] = math.Cos(s.tilt/2), math.Sin(s.tilt/2)
			v := make([]float64, p.M.NV)
			v[0], v[1], v[5] = s.vx, s.vy, s.wz
			fetch := c.id == "DogFetch-v1"
			if fetch {
				b := mustJoint(t, p, "ball_root")
				copy(q[b.Qpos:], s.ball[:])
			}
			got := rewardAt(t, e, q, v, nil)
			xmat := p.Xmat
			want := gaussianTol(p.Xpos[3*torso+2], hT, math.Inf(1), hT) * gaussianTol(p.Xpos[3*pelvis+2], hP, math.Inf(1), hP)
			for _, b := range []int{skull, torso, pelvis} {
				want *= linearTol(xmat[9*b+8], minCos, math.Inf(1), 1+minCos, 0)
			}
			touch := 0.0
			for _, x := range sensorValues(t, p, "palm_L", "palm_R", "sole_L", "sole_R") {
				touch += x
			}
			want *= linearTol(touch, weight, math.Inf(1), weight, 0.9)
			if touch > 0 && touch < weight {
				partial++
			}
			// The root translates and turns about its z axis with the hinges still: the
			// torso subtree's centre of mass moves at v + w x (com - root).
			com := p.SubtreeCom[3*torso : 3*torso+3]
			wWorld := []float64{xmat[9*torso+2] * s.wz, xmat[9*torso+5] * s.wz, xmat[9*torso+8] * s.wz}
			r := []float64{com[0] - q[0], com[1] - q[1], com[2] - q[2]}
			vCom := []float64{s.vx + wWorld[1]*r[2] - wWorld[2]*r[1], s.vy + wWorld[2]*r[0] - wWorld[0]*r[2], wWorld[0]*r[1] - wWorld[1]*r[0]}
			sensor := sensorValues(t, p, "torso_linvel")
			for i := range 3 {
				checkNear(t, fmt.Sprintf("%s state %d: centre-of-mass velocity[%d]", c.id, k, i), sensor[i], vCom[i])
			}
			if c.speed > 0 {
				forward := linearTol(inFrame(xmat[9*torso:9*torso+9], vCom...)[0], c.speed, 2*c.speed, max(1, c.speed), 0)
				want *= (4*forward + 1) / 5
			}
			if fetch {
				up, lo := p.SiteXpos[3*mustID(t, p, mujoco.ObjSite, "upper_bite"):], p.SiteXpos[3*mustID(t, p, mujoco.ObjSite, "lower_bite"):]
				ball := s.ball[:]
				mouth := (distance(ball, up[:3]) + distance(ball, lo[:3])) / 2
				reach := (6*reciprocalTol(mouth, 0, 0.005, 2) + 1) / 7
				toTarget := norm(ball...) // the target sits at the origin, radius 0.1
				if toTarget < 0.2 {
					reach = 1
				}
				want *= reach * (reciprocalTol(toTarget, 0, 0.1, 10) + 1) / 2
			}
			checkNear(t, fmt.Sprintf("%s state %d reward", c.id, k), got, want)
		}
		if partial == 0 {
			t.Errorf("%s: no state with a touch between 0 and the weight %g", c.id, weight)
		}
	}
}

// TestDogObservation: the entries against the physics state over random steps, and
// fetch's ball_state at a set state whose head velocity follows from the root's
// motion alone (the hinges still): v + w x (head - root).
func TestDogObservation(t *testing.T) {
	e, spec := makeEnv(t, "DogFetch-v1", nil, 4)
	p := e.Physics()
	torso, pelvis, skull := mustID(t, p, mujoco.ObjBody, "torso"), mustID(t, p, mujoco.ObjBody, "pelvis"), mustID(t, p, mujoco.ObjBody, "skull")
	head, ball, target := mustID(t, p, mujoco.ObjSite, "head"), mustID(t, p, mujoco.ObjGeom, "ball"), mustID(t, p, mujoco.ObjGeom, "target")
	types, qadr, vadr := p.M.Int32s("jnt_type"), p.M.Int32s("jnt_qposadr"), p.M.Int32s("jnt_dofadr")
	inHead := func(v ...float64) []float64 { return inFrame(p.SiteXmat[9*head:9*head+9], v...) }
	rel := func(a, b []float64) []float64 { return []float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
	rollout(t, e, spec, 10, 5, 9, nil, func(obs []float32) {
		var angles, vels []float64
		for j, ty := range types {
			if ty == mujoco.JointHinge {
				angles, vels = append(angles, p.D.Qpos[qadr[j]]), append(vels, p.D.Qvel[vadr[j]])
			}
		}
		checkEntry(t, spec, obs, "joint_angles", angles...)
		checkEntry(t, spec, obs, "joint_velocites", vels...)
		checkEntry(t, spec, obs, "torso_pelvis_height", p.Xpos[3*torso+2], p.Xpos[3*pelvis+2])
		var z []float64
		for _, b := range []int{skull, torso, pelvis} {
			z = append(z, p.Xmat[9*b+6:9*b+9]...)
		}
		checkEntry(t, spec, obs, "z_projection", z...)
		checkEntry(t, spec, obs, "torso_com_velocity", inFrame(p.Xmat[9*torso:9*torso+9], sensorValues(t, p, "torso_linvel")...)...)
		checkEntry(t, spec, obs, "inertial_sensors", sensorValues(t, p, "accelerometer", "velocimeter", "gyro")...)
		checkEntry(t, spec, obs, "foot_forces", sensorValues(t, p, "foot_L", "foot_R", "hand_L", "hand_R")...)
		checkEntry(t, spec, obs, "touch_sensors", sensorValues(t, p, "palm_L", "palm_R", "sole_L", "sole_R")...)
		checkEntry(t, spec, obs, "actuator_state", p.D.Float64s("act")...)
		h := p.SiteXpos[3*head : 3*head+3]
		checkEntry(t, spec, obs, "target_position", inHead(rel(p.GeomXpos[3*target:], h)...)...)
		toBall := inHead(rel(p.GeomXpos[3*ball:], h)...)
		for i, x := range entry(t, spec, obs, "ball_state")[:3] {
			checkNear(t, fmt.Sprintf("ball_state[%d]", i), float64(x), float64(float32(toBall[i])))
		}
	})
	b := mustJoint(t, p, "ball_root")
	q := append([]float64(nil), p.M.Qpos0...)
	copy(q[b.Qpos:], []float64{1, -0.5, 0.3})
	v := make([]float64, p.M.NV)
	copy(v, []float64{0.7, -0.4, 0.2, 0.3, -0.2, 0.9}) // the root's linear (world) and angular (local) velocities
	copy(v[b.Qvel:], []float64{-2, 1, 3, 5, 5, 5})     // the ball's spin does not move its centre
	setState(t, p, q, v, nil)
	obs, _ := observe(t, e, spec)
	var w [3]float64 // the root's angular velocity in the world: R (0.3, -0.2, 0.9)
	for i := range 3 {
		w[i] = p.Xmat[9*torso+3*i]*0.3 - p.Xmat[9*torso+3*i+1]*0.2 + p.Xmat[9*torso+3*i+2]*0.9
	}
	h := p.SiteXpos[3*head : 3*head+3]
	r := rel(h, q[:3])
	headVel := []float64{0.7 + w[1]*r[2] - w[2]*r[1], -0.4 + w[2]*r[0] - w[0]*r[2], 0.2 + w[0]*r[1] - w[1]*r[0]}
	want := append(inHead(rel(p.GeomXpos[3*ball:], h)...), inHead(rel([]float64{-2, 1, 3}, headVel)...)...)
	checkEntry(t, spec, obs, "ball_state", want...)
}
