package hand

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv"
	gt "github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv/goalenvtest"
)

// TestIDs: the registered ids are EnvPool's list (testdata/envpool_ids.txt, from its
// docs), each with EnvPool's observation sizes (Reach 63 + 2 x 15; manipulation 61 + 2
// x 7, 153 with the 92 touch sensors), 20 actions in [-1, 1], its time limit (50 for
// Reach, 100 otherwise) and its settings; a v0 id runs the same episodes as the id
// EnvPool routes it to.
func TestIDs(t *testing.T) {
	b, err := os.ReadFile("testdata/envpool_ids.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(b))
	var got []string
	for _, id := range IDs {
		got = append(got, id.Name)
	}
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Fatalf("%d ids, want EnvPool's %d", len(got), len(want))
	}
	gt.RequireMuJoCo(t)
	for _, id := range got {
		spec, err := envs.SpecOf(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		o := spec.Options
		switch {
		case strings.HasPrefix(id, "HandReach"):
			gt.CheckSpec(t, spec, 63, 15, 20, 50)
		case strings.Contains(id, "TouchSensors"):
			gt.CheckSpec(t, spec, 153, 7, 20, 100)
			if o["touch_get_obs"] != map[bool]string{true: "boolean", false: "sensordata"}[strings.Contains(id, "Boolean")] {
				t.Errorf("%s: touch_get_obs %v", id, o["touch_get_obs"])
			}
		default:
			gt.CheckSpec(t, spec, 61, 7, 20, 100)
		}
		rot := map[string]string{"RotateZ": "z", "RotateParallel": "parallel", "RotateXYZ": "xyz", "Rotate": "xyz"}
		wantRot, wantPos := "xyz", "random"
		for suffix, r := range rot {
			if strings.Contains(id, suffix+"_") || strings.Contains(id, suffix+"-") || strings.Contains(id, suffix+"Dense") {
				wantRot, wantPos = r, "ignore"
			}
		}
		if strings.HasPrefix(id, "HandReach") {
			wantRot, wantPos = "ignore", "ignore"
		}
		if o["target_rotation"] != wantRot || o["target_position"] != wantPos || o["reward_type"] != map[bool]string{true: "dense", false: "sparse"}[strings.Contains(id, "Dense")] {
			t.Errorf("%s: options %v", id, o)
		}
		pen := strings.Contains(id, "Pen")
		if !strings.HasPrefix(id, "HandReach") && (o["ignore_z_target_rotation"] != pen || o["randomize_initial_rotation"] == pen || o["distance_threshold"] != map[bool]float64{true: 0.05, false: 0.01}[pen]) {
			t.Errorf("%s: options %v", id, o)
		}
	}
	gt.SameEpisodes(t, "HandReachDense-v0", "HandReachDense-v3", 10)
	gt.SameEpisodes(t, "HandManipulatePenRotate_BooleanTouchSensors-v0", "HandManipulatePenRotate_BooleanTouchSensors-v1", 10)
}

// TestEveryIDPoolEpisodes runs a whole episode of every id in a sync and an async
// pool (goalenvtest.PoolEpisodes).
func TestEveryIDPoolEpisodes(t *testing.T) {
	for _, id := range IDs {
		t.Run(id.Name, func(t *testing.T) { gt.PoolEpisodes(t, id.Name, 0) })
	}
}

// TestBadInput: unknown options, bad values and bad actions are named errors.
func TestBadInput(t *testing.T) {
	gt.BadInput(t, "HandManipulateBlock-v1")
	if _, err := envs.SpecOf("HandReach-v3", map[string]any{"target_rotation": "spin"}); err == nil || !strings.Contains(err.Error(), "target_rotation") {
		t.Errorf("target_rotation = spin: %v", err)
	}
}

// tipPositions reads the five fingertip sites back from the simulation.
func tipPositions(t *testing.T, e *goalenv.Env) []float64 {
	var out []float64
	for _, n := range fingertips {
		id, err := e.Sim().Site(n)
		if err != nil {
			t.Fatal(err)
		}
		p := e.Sim().SitePos(id)
		out = append(out, p[:]...)
	}
	return out
}

// TestReach: the achieved goal is the five fingertips read back from the simulation,
// the dense reward minus their distance to the goal and the sparse one -1 beyond 0.01;
// a goal set to the tips' positions is reached. Goals move the thumb and one finger
// to within 1 cm of each other above the palm and keep the other tips where they
// start; about one goal in ten keeps all five.
func TestReach(t *testing.T) {
	dense, spec := gt.MakeEnv(t, "HandReachDense-v3", nil, 5)
	sparse, _ := gt.MakeEnv(t, "HandReach-v3", nil, 5)
	dense.Reset()
	sparse.Reset()
	start := tipPositions(t, dense)
	for step := range 20 {
		act := make([]float32, 20)
		for i := range act {
			act[i] = float32(math.Sin(float64(step+3*i) / 4))
		}
		rd, rs := dense.Step(act), sparse.Step(act)
		tips := tipPositions(t, dense)
		d := goalenv.Distance(tips, dense.Goal())
		if math.Abs(float64(rd.Reward)+d) > 1e-5 || rs.Reward != map[bool]float32{true: -1, false: 0}[d > 0.01] {
			t.Fatalf("step %d: rewards %v and %v at distance %v", step, rd.Reward, rs.Reward, d)
		}
		obs, info := gt.Observe(dense, spec)
		ach := gt.Entry(t, spec, obs, envpool.GoalAchieved)
		for i := range tips {
			if ach[i] != float32(tips[i]) || obs[48+i] != float32(tips[i]) {
				t.Fatalf("step %d: achieved goal %v, tips %v", step, ach, tips)
			}
		}
		if math.Abs(float64(info[1])-d) > 1e-5 {
			t.Fatalf("step %d: distance %v, want %v", step, info[1], d)
		}
	}
	copy(sparse.Goal(), tipPositions(t, sparse))
	if _, info := gt.Observe(sparse, spec); info[0] != 1 || info[1] != 0 {
		t.Errorf("goal at the tips: info %v", info)
	}
	kept := 0
	for range 300 {
		dense.Reset()
		g := dense.Goal()
		var moved []int
		for f := range 5 {
			if goalenv.Distance(g[3*f:3*f+3], start[3*f:3*f+3]) > 1e-9 {
				moved = append(moved, f)
			}
		}
		switch {
		case len(moved) == 0:
			kept++
		case len(moved) != 2 || moved[1] != 4:
			t.Fatalf("goal moves fingers %v", moved)
		case goalenv.Distance(g[3*moved[0]:3*moved[0]+3], g[12:15]) > 0.01+1e-9:
			t.Fatalf("thumb and finger %d goals %v apart", moved[0], goalenv.Distance(g[3*moved[0]:3*moved[0]+3], g[12:15]))
		}
	}
	if kept < 10 || kept > 60 {
		t.Errorf("%d of 300 goals kept the start", kept)
	}
}

// turned returns the pose p (position, quaternion) turned by angle: about the world's
// x axis, or (euler) by adding angle to its Euler x angle, a turn about the object's
// own x axis that keeps its Euler z angle, which the pen's rule replaces.
func turned(p []float64, angle float64, euler bool) []float64 {
	q := goalenv.QuatMul(goalenv.QuatFromAngleAxis(angle, [3]float64{1, 0, 0}), goalenv.Quat(p[3:7]))
	if euler {
		e := goalenv.QuatToEuler(goalenv.Quat(p[3:7]))
		e[0] += angle
		q = goalenv.EulerToQuat(e)
	}
	return append(slices.Clone(p[:3]), q[:]...)
}

// TestManipulateSuccess sets goals by hand around the object's pose (read back from
// its free joint) and checks success, rewards and the distance against the rules: the
// rotation angle below 0.1 and (when the id has a position goal) the position within
// the object's threshold; the dense reward -(10 x position distance + angle); the
// pen ignores the rotation about its axis (the Euler z angle).
func TestManipulateSuccess(t *testing.T) {
	for _, c := range []struct {
		id     string
		posTol float64 // 0: the position is ignored
	}{{"HandManipulateBlockDense-v1", 0.01}, {"HandManipulateBlockRotateZDense-v1", 0}, {"HandManipulatePenDense-v1", 0.05}} {
		e, spec := gt.MakeEnv(t, c.id, nil, 3)
		e.Reset()
		obj, _ := e.Sim().Joint("object:joint")
		pose := slices.Clone(e.Sim().Qpos(obj))
		for _, g := range []struct {
			shift, angle float64
			success      bool
		}{
			{0, 0.05, true}, {0, 0.15, false}, {0.8 * c.posTol, 0.05, true}, {1.5*c.posTol + 0.3*boolF(c.posTol == 0), 0.05, c.posTol == 0},
		} {
			goal := turned(pose, g.angle, strings.Contains(c.id, "Pen"))
			goal[1] += g.shift
			copy(e.Goal(), goal)
			_, info := gt.Observe(e, spec)
			dPos := g.shift * boolF(c.posTol > 0)
			if info[0] != float32(boolF(g.success)) || math.Abs(float64(info[1])-(dPos+g.angle)) > 1e-5 {
				t.Errorf("%s: goal shifted %v and turned %v: info %v", c.id, g.shift, g.angle, info)
			}
			a, d := make([]float32, 7), make([]float32, 7)
			for i := range 7 {
				a[i], d[i] = float32(pose[i]), float32(goal[i])
			}
			if r := e.ComputeReward(a, d); math.Abs(float64(r)+10*dPos+g.angle) > 1e-4 {
				t.Errorf("%s: dense reward %v, want %v", c.id, r, -(10*dPos + g.angle))
			}
		}
		// A turn about the object's Euler z axis only: the pen ignores it.
		eu := goalenv.QuatToEuler(goalenv.Quat(pose[3:7]))
		eu[2] += 1
		q := goalenv.EulerToQuat(eu)
		copy(e.Goal(), append(slices.Clone(pose[:3]), q[:]...))
		_, info := gt.Observe(e, spec)
		if pen := strings.Contains(c.id, "Pen"); (info[0] == 1) != pen {
			t.Errorf("%s: goal turned about Euler z: info %v", c.id, info)
		}
	}
}

func boolF(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestManipulateResetRanges samples resets: the object starts on the palm (centre
// above 4 cm) with a unit quaternion; goals are unit quaternions, offset from the
// settled object by the target_position range (x in ±4 cm, y in [-6, 2] cm, z in [0,
// 6] cm) when the position is random and not at all otherwise; RotateZ goals turn
// about z only, and RotateParallel goals are a z turn of one of the 24 axis-aligned
// rotations.
func TestManipulateResetRanges(t *testing.T) {
	for _, id := range []string{"HandManipulateBlock-v1", "HandManipulateBlockRotateZ-v1", "HandManipulateBlockRotateParallel-v1"} {
		e, _ := gt.MakeEnv(t, id, nil, 8)
		center, _ := e.Sim().Site("object:center")
		lo, hi := [3]float64{9, 9, 9}, [3]float64{-9, -9, -9}
		for range 40 {
			e.Reset()
			if e.Fault() != "" || e.Sim().SitePos(center)[2] <= 0.04 {
				t.Fatalf("%s: start %v (fault %q)", id, e.Sim().SitePos(center), e.Fault())
			}
			g, a := e.Goal(), e.Achieved()
			if n := math.Sqrt(g[3]*g[3] + g[4]*g[4] + g[5]*g[5] + g[6]*g[6]); math.Abs(n-1) > 1e-9 {
				t.Fatalf("%s: goal quaternion %v", id, g[3:])
			}
			for k := range 3 {
				lo[k], hi[k] = min(lo[k], g[k]-a[k]), max(hi[k], g[k]-a[k])
			}
			switch {
			case strings.Contains(id, "RotateZ") && (g[4] != 0 || g[5] != 0):
				t.Fatalf("%s: goal %v turns about more than z", id, g[3:])
			case strings.Contains(id, "Parallel"):
				// A z turn leaves the z parts of the axes' images (the matrix's third row)
				// as the axis-aligned rotation has them: 0 or ±1.
				m := goalenv.QuatToMat(goalenv.Quat(g[3:7]))
				for _, v := range []float64{m[6], m[7], m[8]} {
					if r := math.Abs(v); r > 1e-9 && math.Abs(r-1) > 1e-9 {
						t.Fatalf("%s: goal %v does not keep z on an axis (%v)", id, g[3:], m)
					}
				}
			}
		}
		want := [2][3]float64{{-0.04, -0.06, 0}, {0.04, 0.02, 0.06}}
		if !strings.HasPrefix(id, "HandManipulateBlock-") {
			want = [2][3]float64{}
		}
		for k := range 3 {
			w := want[1][k] - want[0][k]
			if lo[k] < want[0][k]-1e-9 || hi[k] > want[1][k]+1e-9 || lo[k] > want[0][k]+0.3*w || hi[k] < want[1][k]-0.3*w {
				t.Errorf("%s: goal offsets along %d in [%v, %v], want [%v, %v]", id, k, lo[k], hi[k], want[0][k], want[1][k])
			}
		}
	}
}

// TestTouchObservations: the touch ids append the 92 sensors' readings, raw for the
// continuous ids and 1 where positive for the boolean ones, read back from sensordata;
// some sensor feels the object after the hand settles.
func TestTouchObservations(t *testing.T) {
	for _, id := range []string{"HandManipulateBlock_ContinuousTouchSensors-v1", "HandManipulateBlock_BooleanTouchSensors-v1"} {
		e, spec := gt.MakeEnv(t, id, nil, 1)
		e.Reset()
		for range 3 {
			e.Step(make([]float32, 20))
		}
		adr, _, err := touchSensors(e.Sim().M)
		if err != nil || len(adr) != 92 {
			t.Fatalf("%s: %d touch sensors (%v)", id, len(adr), err)
		}
		obs, _ := gt.Observe(e, spec)
		touch := gt.Entry(t, spec, obs, envpool.GoalObservation)[61:]
		felt := 0
		for i, a := range adr {
			v := e.Sim().Sensordata[a]
			want := float32(v)
			if strings.Contains(id, "Boolean") {
				want = float32(boolF(v > 0))
			}
			if touch[i] != want {
				t.Fatalf("%s: touch %d = %v, sensordata %v", id, i, touch[i], v)
			}
			if v > 0 {
				felt++
			}
		}
		if felt == 0 {
			t.Errorf("%s: no sensor feels anything", id)
		}
	}
}

// TestRelativeControl: with relative_control an action of zero holds each actuator's
// joint where it is (the control is the joint's position, plus the coupled joint's for
// the fingers' J1 actuators), clipped to the control range; without it, zero is the
// middle of each range.
func TestRelativeControl(t *testing.T) {
	for _, rel := range []bool{false, true} {
		e, _ := gt.MakeEnv(t, "HandManipulateEgg-v1", map[string]any{"relative_control": rel}, 1)
		e.Reset()
		s := e.Sim()
		before := slices.Clone(s.D.Qpos)
		e.Step(make([]float32, 20))
		for i := range s.M.NU {
			lo, hi := s.M.CtrlRange[2*i], s.M.CtrlRange[2*i+1]
			want := (lo + hi) / 2
			if rel {
				name := strings.Replace(goalenv.Name(s.M, "name_actuatoradr", i), ":A_", ":", 1)
				j, _ := s.Joint(name)
				want = before[j.Qpos]
				if f, ok := strings.CutSuffix(name, "J1"); ok && !strings.Contains(f, "TH") && !strings.Contains(f, "WR") {
					j0, _ := s.Joint(f + "J0")
					want += before[j0.Qpos]
				}
				want = max(lo, min(hi, want))
			}
			if math.Abs(s.D.Ctrl[i]-want) > 1e-12 {
				t.Errorf("relative %v: actuator %d control %v, want %v", rel, i, s.D.Ctrl[i], want)
			}
		}
	}
}

// TestRender draws a hand frame (skipped without libOSMesa).
func TestRender(t *testing.T) {
	e, _ := gt.MakeEnv(t, "HandManipulateBlock-v1", nil, 1)
	if err := e.CanRender(); err != nil {
		t.Skipf("no offscreen rendering: %v", err)
	}
	e.Reset()
	img, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 240 || b.Dy() != 240 {
		t.Errorf("picture %v", b)
	}
}
