package fetch

import (
	"image"
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
// docs), with the spaces, time limit and info keys EnvPool gives, and a v1 id runs the
// same episodes as its v4 id.
func TestIDs(t *testing.T) {
	b, err := os.ReadFile("testdata/envpool_ids.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(b))
	got := IDs()
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Fatalf("ids %v, want EnvPool's %v", got, want)
	}
	gt.RequireMuJoCo(t)
	for _, id := range got {
		spec, err := envs.SpecOf(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		obsDim := 25
		if strings.HasPrefix(id, "FetchReach") {
			obsDim = 10
		}
		gt.CheckSpec(t, spec, obsDim, 3, 4, MaxEpisodeSteps)
		wantType := "sparse"
		if strings.Contains(id, "Dense") {
			wantType = "dense"
		}
		if spec.Options["reward_type"] != wantType || spec.RenderFPS != 25 {
			t.Errorf("%s: reward_type %v, render fps %v", id, spec.Options["reward_type"], spec.RenderFPS)
		}
	}
	gt.SameEpisodes(t, "FetchPickAndPlace-v1", "FetchPickAndPlace-v4", 20)
}

// TestEveryIDPoolEpisodes runs every id for whole episodes in a sync and an async pool
// (goalenvtest.PoolEpisodes: rewards recomputed by compute_reward, truncation at 50).
func TestEveryIDPoolEpisodes(t *testing.T) {
	for _, id := range IDs() {
		t.Run(id, func(t *testing.T) { gt.PoolEpisodes(t, id, 0) })
	}
}

// TestBadInput: unknown options, bad values and bad actions are named errors.
func TestBadInput(t *testing.T) { gt.BadInput(t, "FetchPush-v4") }

// gripPos reads the gripper site's position back from the simulation.
func gripPos(t *testing.T, e *goalenv.Env) [3]float64 {
	id, err := e.Sim().Site("robot0:grip")
	if err != nil {
		t.Fatal(err)
	}
	return e.Sim().SitePos(id)
}

func dist3(a [3]float64, b []float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// TestReachController drives FetchReach with a proportional controller to its goal,
// in a dense and a sparse env with the same seed and actions. Each step's dense reward
// is minus the distance of the gripper site (read back from the simulation) to the
// goal; the sparse reward is -1 while that distance is above 0.05 and 0 below, where
// is_success turns 1; the observation starts with the gripper's position and the
// achieved goal is it. The controller reaches the goal within the episode.
func TestReachController(t *testing.T) {
	dense, spec := gt.MakeEnv(t, "FetchReachDense-v4", nil, 4)
	sparse, _ := gt.MakeEnv(t, "FetchReach-v4", nil, 4)
	dense.Reset()
	sparse.Reset()
	goal := dense.Goal()
	if !slices.Equal(goal, sparse.Goal()) {
		t.Fatalf("same seed, goals %v and %v", goal, sparse.Goal())
	}
	d0 := dist3(gripPos(t, dense), goal)
	if d0 < 0.06 {
		t.Fatalf("seed 4's goal is only %v from the gripper; pick another seed", d0)
	}
	flipped, last := false, d0
	for step := range MaxEpisodeSteps {
		g := gripPos(t, dense)
		act := make([]float32, 4)
		for k := range 3 {
			act[k] = float32(max(-1, min(1, 10*(goal[k]-g[k]))))
		}
		rd, rs := dense.Step(act), sparse.Step(act)
		p := gripPos(t, dense)
		d := dist3(p, goal)
		if math.Abs(float64(rd.Reward)+d) > 1e-6 {
			t.Fatalf("step %d: dense reward %v, -distance %v", step, rd.Reward, -d)
		}
		wantSparse := float32(0)
		if d > 0.05 {
			wantSparse = -1
		}
		if rs.Reward != wantSparse {
			t.Fatalf("step %d: sparse reward %v at distance %v", step, rs.Reward, d)
		}
		obs, info := gt.Observe(dense, spec)
		if info[0] != map[bool]float32{true: 1, false: 0}[d < 0.05] || math.Abs(float64(info[1])-d) > 1e-6 {
			t.Fatalf("step %d: info %v at distance %v", step, info, d)
		}
		for k := range 3 {
			if obs[k] != float32(p[k]) || gt.Entry(t, spec, obs, envpool.GoalAchieved)[k] != float32(p[k]) || gt.Entry(t, spec, obs, envpool.GoalDesired)[k] != float32(goal[k]) {
				t.Fatalf("step %d: observation %v, gripper %v, goal %v", step, obs, p, goal)
			}
		}
		if last >= 0.05 && d < 0.05 {
			flipped = true
		}
		last = d
	}
	if !flipped || last > 0.02 {
		t.Errorf("the controller ended %v from the goal (start %v); is_success flipped: %v", last, d0, flipped)
	}
}

// TestPushMovesBlock pushes FetchPush's block toward its goal with a scripted gripper
// (behind the block, down to its height, then through it toward the goal): the block
// ends much nearer the goal, and every sparse reward and is_success agree with the
// block site's distance to the goal read back from the simulation.
func TestPushMovesBlock(t *testing.T) {
	e, spec := gt.MakeEnv(t, "FetchPush-v4", nil, 11)
	e.Reset()
	obj, err := e.Sim().Site("object0")
	if err != nil {
		t.Fatal(err)
	}
	goal := slices.Clone(e.Goal())
	o0 := e.Sim().SitePos(obj)
	start := dist3(o0, goal)
	dir := [2]float64{goal[0] - o0[0], goal[1] - o0[1]}
	n := math.Hypot(dir[0], dir[1])
	dir[0], dir[1] = dir[0]/n, dir[1]/n
	for step := range MaxEpisodeSteps {
		o, g := e.Sim().SitePos(obj), gripPos(t, e)
		var target [3]float64
		behind := [3]float64{o[0] - 0.07*dir[0], o[1] - 0.07*dir[1], o[2]}
		switch {
		case math.Hypot(g[0]-behind[0], g[1]-behind[1]) > 0.015 && (g[0]-o[0])*dir[0]+(g[1]-o[1])*dir[1] > -0.05:
			target = [3]float64{behind[0], behind[1], o[2] + 0.08} // above, behind the block
		case g[2]-o[2] > 0.01 && math.Hypot(g[0]-behind[0], g[1]-behind[1]) <= 0.03:
			target = behind // down beside the block
		default:
			target = [3]float64{goal[0] - 0.03*dir[0], goal[1] - 0.03*dir[1], o[2]} // through it
		}
		act := make([]float32, 4)
		for k := range 3 {
			act[k] = float32(max(-1, min(1, 12*(target[k]-g[k]))))
		}
		r := e.Step(act)
		d := dist3(e.Sim().SitePos(obj), goal)
		if want := map[bool]float32{true: -1, false: 0}[d > 0.05]; r.Reward != want {
			t.Fatalf("step %d: reward %v at block distance %v", step, r.Reward, d)
		}
		if _, info := gt.Observe(e, spec); info[0] != map[bool]float32{true: 1, false: 0}[d < 0.05] {
			t.Fatalf("step %d: is_success %v at block distance %v", step, info[0], d)
		}
	}
	end := dist3(e.Sim().SitePos(obj), goal)
	if end > start/2 {
		t.Errorf("the block went from %v to %v from its goal", start, end)
	}
}

// TestResetRanges samples many resets per task: Reach's mocap body starts at
// Gymnasium-Robotics' documented (1.3418, 0.7491, 0.555) and the gripper's site where
// gym's FetchReach first observed it (1.3419, 0.7491, 0.5347), the object
// within obj_range of the gripper in x and y but at least 0.1 m from it and on the
// table, and the goal within target_range of the gripper (plus Slide's 0.4 m offset),
// on the table for Push and Slide and up to 0.45 m above it half the time for
// PickAndPlace; the draws reach close to the ranges' ends.
func TestResetRanges(t *testing.T) {
	for _, c := range []struct {
		id          string
		objR, tgtR  float64
		offX, extra float64
		air         bool
	}{
		{"FetchReach-v4", 0, 0.15, 0, 0.2, false},
		{"FetchPush-v4", 0.15, 0.15, 0, 0, false},
		{"FetchPickAndPlace-v4", 0.15, 0.15, 0, 0.2, true},
		{"FetchSlide-v4", 0.1, 0.3, 0.4, -0.02, false},
	} {
		e, _ := gt.MakeEnv(t, c.id, nil, 2)
		m := [3]float64(e.Sim().MocapPos) // after the setup (a reset puts it back where the model has it)
		e.Reset()
		g0 := gripPos(t, e)
		if c.id == "FetchReach-v4" && (dist3(g0, []float64{1.3419, 0.7491, 0.5347}) > 2e-4 || dist3(m, []float64{1.3418, 0.7491, 0.555}) > 1e-9) {
			t.Errorf("Reach's gripper starts at %v, its mocap body at %v", g0, m)
		}
		lo, hi := [3]float64{9, 9, 9}, [3]float64{-9, -9, -9}
		objLo, objHi, minGap, inAir := 9.0, -9.0, 9.0, 0
		var table float64
		obj, _ := e.Sim().Site("object0")
		for range 400 {
			e.Reset()
			goal := e.Goal()
			for k := range 3 {
				lo[k], hi[k] = min(lo[k], goal[k]-g0[k]), max(hi[k], goal[k]-g0[k])
			}
			if strings.HasPrefix(c.id, "FetchReach") {
				continue
			}
			o := e.Sim().SitePos(obj)
			table = o[2]
			gap := math.Hypot(o[0]-g0[0], o[1]-g0[1])
			minGap = min(minGap, gap)
			objLo, objHi = min(objLo, o[0]-g0[0], o[1]-g0[1]), max(objHi, o[0]-g0[0], o[1]-g0[1])
			switch h := goal[2] - table; {
			case math.Abs(h) < 1e-3:
			case c.air && h > 0 && h <= 0.45+1e-3:
				inAir++
			default:
				t.Fatalf("%s: goal %v is %v above the table", c.id, goal, h)
			}
		}
		for k := range 2 {
			off := []float64{c.offX, 0}[k]
			if lo[k] < off-c.tgtR-1e-3 || hi[k] > off+c.tgtR+1e-3 || lo[k] > off-0.8*c.tgtR || hi[k] < off+0.8*c.tgtR {
				t.Errorf("%s: goal offsets along %d in [%v, %v], want about ±%v around %v", c.id, k, lo[k], hi[k], c.tgtR, off)
			}
		}
		if c.id == "FetchReach-v4" && (lo[2] < -0.151 || hi[2] > 0.151 || lo[2] > -0.12 || hi[2] < 0.12) {
			t.Errorf("Reach's goal heights %v..%v around the gripper", lo[2], hi[2])
		}
		if c.objR > 0 && (minGap < 0.1-1e-3 || objLo < -c.objR-1e-3 || objHi > c.objR+1e-3 || objLo > -0.8*c.objR || objHi < 0.8*c.objR) {
			t.Errorf("%s: object offsets in [%v, %v] (want ±%v), nearest %v", c.id, objLo, objHi, c.objR, minGap)
		}
		if c.air != (inAir > 120 && inAir < 280) {
			t.Errorf("%s: %d of 400 goals in the air", c.id, inAir)
		}
	}
}

// TestGoalReward: the pool's compute_reward for chosen goal pairs is minus their
// distance (dense) or -1 beyond 0.05 and 0 within it (sparse), and refuses goals of
// the wrong length.
func TestGoalReward(t *testing.T) {
	gt.RequireMuJoCo(t)
	for id, want := range map[string][2]float32{"FetchPushDense-v4": {-0.03, -0.3}, "FetchPush-v4": {0, -1}} {
		pool, err := envs.Make(id, envs.Options{Options: envpool.Options{NumEnvs: 1, BatchSize: 1, NumThreads: 1}})
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range []float32{0.03, 0.3} {
			r, err := pool.GoalReward(0, []float32{1, 0.5, 0.4}, []float32{1, 0.5, 0.4 + d})
			if err != nil || math.Abs(float64(r-want[i])) > 1e-6 {
				t.Errorf("%s: distance %v: reward %v (%v), want %v", id, d, r, err, want[i])
			}
		}
		if _, err := pool.GoalReward(0, []float32{1, 2}, []float32{1, 2}); err == nil {
			t.Errorf("%s: goals of two values accepted", id)
		}
		pool.Close()
	}
}

// TestRender draws a Fetch frame through the offscreen renderer (skipped without
// libOSMesa): a non-blank picture, which moving the goal changes (the target marker
// follows it).
func TestRender(t *testing.T) {
	e, _ := gt.MakeEnv(t, "FetchReach-v4", nil, 1)
	if err := e.CanRender(); err != nil {
		t.Skipf("no offscreen rendering: %v", err)
	}
	e.Reset()
	img, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	first := slices.Clone(img.(*image.RGBA).Pix)
	if slices.Min(first) == slices.Max(first) {
		t.Fatal("a blank picture")
	}
	e.Goal()[2] += 0.1
	img, err = e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(first, img.(*image.RGBA).Pix) {
		t.Error("moving the goal left the picture as it was")
	}
}

// TestPushObservation checks FetchPush's 25 observation values against the state read
// back from the simulation after steps that move the gripper: the gripper's position,
// the block's position and its offset from the gripper, the two finger joints (in the
// model's order, right then left: the robot's last two joints), the
// block's Euler angles from its site's matrix, its velocities (linear relative to the
// gripper's) and the gripper's, all velocities times the 40 ms env step; the gripper's
// scaled velocity is close to how far it moved during the step.
func TestPushObservation(t *testing.T) {
	e, spec := gt.MakeEnv(t, "FetchPush-v4", nil, 6)
	e.Reset()
	s := e.Sim()
	obj, _ := s.Site("object0")
	grip, _ := s.Site("robot0:grip")
	l, _ := s.Joint("robot0:l_gripper_finger_joint")
	r, _ := s.Joint("robot0:r_gripper_finger_joint")
	const dt = 0.04
	for step := range 6 {
		before := s.SitePos(grip)
		e.Step([]float32{0.6, -0.4, 0.2, 0})
		obs, _ := gt.Observe(e, spec)
		g, o := s.SitePos(grip), s.SitePos(obj)
		gv, _ := s.SiteVel(grip, false)
		ov, _ := s.SiteVel(obj, false)
		ow, _ := s.SiteVel(obj, true)
		rot := goalenv.MatToEuler(s.SiteMat(obj))
		var want []float64
		want = append(want, g[:]...)
		want = append(want, o[:]...)
		want = append(want, o[0]-g[0], o[1]-g[1], o[2]-g[2], s.Qpos(r)[0], s.Qpos(l)[0])
		want = append(want, rot[:]...)
		want = append(want, (ov[0]-gv[0])*dt, (ov[1]-gv[1])*dt, (ov[2]-gv[2])*dt, ow[0]*dt, ow[1]*dt, ow[2]*dt)
		want = append(want, gv[0]*dt, gv[1]*dt, gv[2]*dt, s.Qvel(r)[0]*dt, s.Qvel(l)[0]*dt)
		for i, w := range want {
			if math.Abs(float64(obs[i])-w) > 1e-6*(1+math.Abs(w)) {
				t.Fatalf("step %d: observation[%d] = %v, want %v", step, i, obs[i], w)
			}
		}
		if step > 2 {
			for k := range 3 {
				if moved := g[k] - before[k]; math.Abs(gv[k]*dt-moved) > 0.3*math.Abs(moved)+2e-3 {
					t.Errorf("step %d axis %d: velocity x dt %v, moved %v", step, k, gv[k]*dt, moved)
				}
			}
		}
	}
}

// TestGripper: the fourth action value opens and closes PickAndPlace's fingers (each
// position servo's target is its joint's position plus the value, within the control
// range [0, 0.2]), while Push's blocked gripper keeps them shut whatever it is.
func TestGripper(t *testing.T) {
	for id, open := range map[string]bool{"FetchPickAndPlace-v4": true, "FetchPush-v4": false} {
		e, _ := gt.MakeEnv(t, id, nil, 1)
		e.Reset()
		l, _ := e.Sim().Joint("robot0:l_gripper_finger_joint")
		r, _ := e.Sim().Joint("robot0:r_gripper_finger_joint")
		for range 8 {
			e.Step([]float32{0, 0, 0, 1})
		}
		wide := e.Sim().Qpos(l)[0] + e.Sim().Qpos(r)[0]
		if open != (wide > 0.05) || !open && wide != 0 {
			t.Errorf("%s: fingers %v apart after opening", id, wide)
		}
		for range 8 {
			e.Step([]float32{0, 0, 0, -1})
		}
		if shut := e.Sim().Qpos(l)[0] + e.Sim().Qpos(r)[0]; open && shut > wide/2 {
			t.Errorf("%s: fingers %v apart after closing (from %v)", id, shut, wide)
		}
	}
}
