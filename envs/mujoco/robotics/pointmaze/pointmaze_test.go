package pointmaze

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot/robottest"
)

// makeMaze builds one env of a maze task outside any pool.
func makeMaze(t *testing.T, id string, opts map[string]any, seed int64) (*Env, *Maze, envpool.Spec) {
	t.Helper()
	e, spec := robottest.MakeEnv(t, id, opts, seed)
	pe := e.(*Env)
	return pe, pe.Logic().(*Maze), spec
}

// TestSpecs: the 20 ids EnvPool registers, each with EnvPool's spaces, time limit,
// reward type, options, info keys and the goal dict's layout.
func TestSpecs(t *testing.T) {
	robottest.RequireMuJoCo(t)
	ids := TaskIDs()
	if len(ids) != 20 {
		t.Fatalf("%d ids, want 20", len(ids))
	}
	limits := map[string]int{"Open": 300, "UMaze": 300, "Medium": 600, "Large": 800}
	for _, id := range ids {
		spec, err := envs.SpecOf(id, nil)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(id, "PointMaze_"), "-v3"), "Dense")
		base, _, _ := strings.Cut(name, "_")
		if spec.MaxEpisodeSteps != limits[base] {
			t.Errorf("%s: time limit %d, want %d", id, spec.MaxEpisodeSteps, limits[base])
		}
		wantLayout := []envpool.ObsField{{Name: "observation", Offset: 0, Size: 4}, {Name: "achieved_goal", Offset: 4, Size: 2}, {Name: "desired_goal", Offset: 6, Size: 2}}
		if spec.ObsSpace.Size() != 8 || !slices.EqualFunc(spec.ObsLayout, wantLayout, func(a, b envpool.ObsField) bool { return a.Name == b.Name && a.Offset == b.Offset && a.Size == b.Size }) {
			t.Errorf("%s: observation %v, layout %+v", id, spec.ObsSpace, spec.ObsLayout)
		}
		if a := spec.ActionSpace; a.Size() != 2 || a.Low[0] != -1 || a.High[1] != 1 {
			t.Errorf("%s: action space %v %v %v", id, a, a.Low, a.High)
		}
		if !slices.Equal(spec.InfoKeys, []string{"success", "distance", "error"}) {
			t.Errorf("%s: info keys %v", id, spec.InfoKeys)
		}
		wantReward := "sparse"
		if strings.Contains(id, "Dense") {
			wantReward = "dense"
		}
		o := spec.Options
		if o["reward_type"] != wantReward || o["continuing_task"] != true || o["reset_target"] != false || o["maze_size_scaling"] != 1.0 || o["maze_height"] != 0.4 || o["position_noise_range"] != 0.25 || o["frame_skip"] != 1 {
			t.Errorf("%s: options %v", id, o)
		}
		if math.Abs(spec.RenderFPS-100) > 1e-9 {
			t.Errorf("%s: render fps %v, want 100 (dt 0.01)", id, spec.RenderFPS)
		}
	}
}

// TestEpisodes: every id through whole random episodes in a sync and an async pool.
func TestEpisodes(t *testing.T) { robottest.Episodes(t, 0, TaskIDs()...) }

// TestMazeModel: the generated model has one box per wall cell at the cell's centre,
// half a cell wide and half maze_height high (scaled), and the ball's two slide
// joints; a wider scaling moves and grows the walls.
func TestMazeModel(t *testing.T) {
	for _, c := range []struct {
		id      string
		scaling float64
	}{{"PointMaze_UMaze-v3", 1}, {"PointMaze_Medium-v3", 2}} {
		e, l, _ := makeMaze(t, c.id, map[string]any{"maze_size_scaling": c.scaling}, 1)
		m := e.Sim().M
		if m.NQ != 2 || m.NV != 2 || m.NU != 2 {
			t.Fatalf("%s: nq %d nv %d nu %d", c.id, m.NQ, m.NV, m.NU)
		}
		pos, size := m.Float64s("geom_pos"), m.Float64s("geom_size")
		walls := 0
		for r, row := range l.z.rows {
			for col := range row {
				if row[col] != '1' {
					continue
				}
				walls++
				id, err := m.ID(mujoco.ObjGeom, "block_"+strconv.Itoa(r)+"_"+strconv.Itoa(col))
				if err != nil {
					t.Fatal(err)
				}
				// Cell centres by hand: x = (col + 0.5) s - width s / 2, y = height s / 2 - (row + 0.5) s.
				x := (float64(col)+0.5)*c.scaling - float64(len(row))*c.scaling/2
				y := float64(len(l.z.rows))*c.scaling/2 - (float64(r)+0.5)*c.scaling
				want := []float64{x, y, 0.2 * c.scaling, c.scaling / 2, c.scaling / 2, 0.2 * c.scaling}
				got := append(slices.Clone(pos[3*id:3*id+3]), size[3*id:3*id+3]...)
				for k := range want {
					if math.Abs(got[k]-want[k]) > 1e-12 {
						t.Fatalf("%s: wall %d,%d at/size %v, want %v", c.id, r, col, got, want)
					}
				}
			}
		}
		// The ground, the ball and the walls.
		if ngeom := m.Size("ngeom"); ngeom != walls+2 {
			t.Errorf("%s: %d geoms for %d walls", c.id, ngeom, walls)
		}
	}
}

// TestResetDistribution: over many resets the goal lies within position_noise_range
// cells of the centre of a goal cell and the start within it of a reset cell more
// than half a cell from the goal; the noise covers its range.
func TestResetDistribution(t *testing.T) {
	for _, c := range []struct {
		id           string
		goals, start string // the cell kinds goals and starts come from
	}{
		{"PointMaze_UMaze-v3", "0", "0"},
		{"PointMaze_Large_Diverse_G-v3", "g", "r"},
		{"PointMaze_Medium_Diverse_GR-v3", "c", "c"},
	} {
		e, l, spec := makeMaze(t, c.id, nil, 7)
		lo, hi := [2]float64{1, 1}, [2]float64{-1, -1}
		for range 400 {
			e.Reset()
			obs, _ := robottest.Observe(t, e, spec)
			goal := robottest.Entry(t, spec, obs, "desired_goal")
			ball := robottest.Entry(t, spec, obs, "achieved_goal")
			if float64(goal[0]) != float32ToF(l.Goal[0]) || ball[0] != float32(e.Sim().D.Qpos[0]) {
				t.Fatalf("%s: observed goal %v, goal %v", c.id, goal, l.Goal)
			}
			gr, gc := l.z.cellOf(l.Goal[0], l.Goal[1])
			sr, sc := l.z.cellOf(l.Start[0], l.Start[1])
			if !strings.ContainsRune(c.goals, rune(l.z.rows[gr][gc])) || !strings.ContainsRune(c.start, rune(l.z.rows[sr][sc])) {
				t.Fatalf("%s: goal in cell %d,%d (%c), start in %d,%d (%c)", c.id, gr, gc, l.z.rows[gr][gc], sr, sc, l.z.rows[sr][sc])
			}
			gc0, sc0 := l.z.cellCentre(gr, gc), l.z.cellCentre(sr, sc)
			if math.Hypot(sc0[0]-l.Goal[0], sc0[1]-l.Goal[1]) <= 0.5 {
				t.Fatalf("%s: start cell %v within half a cell of the goal %v", c.id, sc0, l.Goal)
			}
			for k := range 2 {
				for _, off := range []float64{l.Goal[k] - gc0[k], l.Start[k] - sc0[k]} {
					if math.Abs(off) > 0.25 {
						t.Fatalf("%s: noise %v beyond 0.25", c.id, off)
					}
					lo[k], hi[k] = min(lo[k], off), max(hi[k], off)
				}
			}
		}
		for k := range 2 {
			if lo[k] > -0.24 || hi[k] < 0.24 {
				t.Errorf("%s: axis %d noise spans [%v, %v], want nearly [-0.25, 0.25]", c.id, k, lo[k], hi[k])
			}
		}
	}
}

func float32ToF(x float64) float64 { return float64(float32(x)) }

// drive runs a P-controller (with damping) on the ball towards the observed goal and
// checks every step's reward, success, distance and termination against the formulas
// recomputed from the simulated state, and the pool-free compute_reward against the
// step reward. It returns the step at which the ball first came within 0.45.
func drive(t *testing.T, e *Env, l *Maze, spec envpool.Spec, dense, continuing bool, steps int) int {
	t.Helper()
	reached := -1
	for step := 1; step <= steps; step++ {
		obs, _ := robottest.Observe(t, e, spec)
		goal := robottest.Entry(t, spec, obs, "desired_goal")
		pos, vel := obs[0:2], obs[2:4]
		a := []float32{
			float32(2*float64(goal[0]-pos[0]) - 0.5*float64(vel[0])),
			float32(2*float64(goal[1]-pos[1]) - 0.5*float64(vel[1])),
		}
		r := e.Step(a)
		q := e.Sim().D.Qpos
		d := math.Hypot(q[0]-l.observed[0], q[1]-l.observed[1])
		want := 0.0
		switch {
		case dense:
			want = math.Exp(-d)
		case d <= 0.45:
			want = 1
		}
		if r.Reward != float32(want) {
			t.Fatalf("step %d: reward %v, want %v at distance %v", step, r.Reward, want, d)
		}
		obs, info := robottest.Observe(t, e, spec)
		ach, des := robottest.Entry(t, spec, obs, "achieved_goal"), robottest.Entry(t, spec, obs, "desired_goal")
		if got := e.ComputeReward(ach, des); math.Abs(float64(got-r.Reward)) > 1e-6 {
			t.Fatalf("step %d: compute_reward %v, step reward %v", step, got, r.Reward)
		}
		success := robottest.Info(t, spec, info, "success")[0]
		if (success == 1) != (d <= 0.45) || math.Abs(float64(robottest.Info(t, spec, info, "distance")[0])-d) > 1e-6 {
			t.Fatalf("step %d: info %v at distance %v", step, info, d)
		}
		if r.Terminated != (!continuing && d <= 0.45) {
			t.Fatalf("step %d: terminated %v at distance %v", step, r.Terminated, d)
		}
		if d <= 0.45 && reached < 0 {
			reached = step
		}
		if r.Terminated {
			break
		}
	}
	return reached
}

// TestDriveToGoal: a P-controller takes the ball to the goal in the open maze; dense
// rewards are exp(-distance), sparse ones and success switch at 0.45, and an episodic
// task (continuing_task false) ends there.
func TestDriveToGoal(t *testing.T) {
	for _, c := range []struct {
		id         string
		continuing bool
	}{{"PointMaze_OpenDense-v3", true}, {"PointMaze_Open-v3", true}, {"PointMaze_Open-v3", false}} {
		e, l, spec := makeMaze(t, c.id, map[string]any{"continuing_task": c.continuing}, 11)
		e.Reset()
		if drive(t, e, l, spec, strings.Contains(c.id, "Dense"), c.continuing, 300) < 0 {
			t.Errorf("%s: the controller never reached the goal", c.id)
		}
	}
}

// TestResetTarget: with continuing_task and reset_target, a reached goal is replaced
// (in the observation after the step that reached it) by a new goal cell's point more
// than 0.45 from the ball; without reset_target the goal stays.
func TestResetTarget(t *testing.T) {
	for _, reset := range []bool{true, false} {
		e, l, spec := makeMaze(t, "PointMaze_Open_Diverse_GRDense-v3", map[string]any{"reset_target": reset}, 3)
		e.Reset()
		first := l.Goal
		at := drive(t, e, l, spec, true, true, 200)
		if at < 0 {
			t.Fatalf("reset_target %v: the goal was never reached", reset)
		}
		obs, _ := robottest.Observe(t, e, spec)
		ball := [2]float64{e.Sim().D.Qpos[0], e.Sim().D.Qpos[1]}
		if !reset {
			if l.Goal != first {
				t.Errorf("without reset_target the goal moved from %v to %v", first, l.Goal)
			}
			continue
		}
		if l.Goal == first || dist(ball, l.Goal) <= 0.45 {
			t.Fatalf("after reaching %v the goal is %v, ball at %v", first, l.Goal, ball)
		}
		e.Step([]float32{0, 0})
		obs, _ = robottest.Observe(t, e, spec)
		if g := robottest.Entry(t, spec, obs, "desired_goal"); g[0] != float32(l.Goal[0]) || g[1] != float32(l.Goal[1]) {
			t.Errorf("observed goal %v, new goal %v", g, l.Goal)
		}
		site := e.Sim().Site(l.target)
		if site[0] != l.Goal[0] || site[1] != l.Goal[1] {
			t.Errorf("target site at %v, goal %v", site, l.Goal)
		}
	}
}

// TestGoalReward: the pool's GoalReward is the task's compute_reward, sparse and dense,
// and refuses goals of the wrong length.
func TestGoalReward(t *testing.T) {
	robottest.RequireMuJoCo(t)
	for _, c := range []struct {
		id   string
		want func(d float64) float32
	}{
		{"PointMaze_UMaze-v3", func(d float64) float32 { return float32(map[bool]float64{true: 1}[d <= 0.45]) }},
		{"PointMaze_UMazeDense-v3", func(d float64) float32 { return float32(math.Exp(-d)) }},
	} {
		pool, err := envs.Make(c.id, envs.Options{Options: envpool.Options{NumEnvs: 2, BatchSize: 2, NumThreads: 1}})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []float64{0, 0.3, 0.45, 0.46, 2} {
			got, err := pool.GoalReward(1, []float32{1, 2}, []float32{float32(1 + d*0.6), float32(2 + d*0.8)})
			if err != nil {
				t.Fatalf("%s: %v", c.id, err)
			}
			dd := math.Hypot(float64(float32(1+d*0.6))-1, float64(float32(2+d*0.8))-2)
			if w := c.want(dd); got != w {
				t.Errorf("%s: reward at distance %v: %v, want %v", c.id, dd, got, w)
			}
		}
		if _, err := pool.GoalReward(0, []float32{1}, []float32{1, 2}); err == nil {
			t.Errorf("%s: a goal of one value accepted", c.id)
		}
		pool.Close()
	}
}

// TestBadInput: an unknown option, an unknown maze_map, a NaN action and an action of
// the wrong length are refused by name.
func TestBadInput(t *testing.T) {
	robottest.BadInput(t, "PointMaze_UMaze-v3", "maze_map", "HUGE_MAZE")
	robottest.BadInput(t, "PointMaze_LargeDense-v3", "reward_type", "shaped")
	if _, err := envs.SpecOf("PointMaze_UMaze-v3", map[string]any{"maze_size_scaling": 0}); err == nil || !strings.Contains(err.Error(), "maze_size_scaling") {
		t.Errorf("maze_size_scaling 0: %v", err)
	}
}

// TestVelocityBound: before each step each velocity component is bounded to ±5: a
// ball set moving at 20 and -30 moves on (unactuated, slowed only by the joints' light
// damping) at just under 5 and -5.
func TestVelocityBound(t *testing.T) {
	e, _, _ := makeMaze(t, "PointMaze_Open-v3", nil, 2)
	e.Reset()
	d := e.Sim().D
	d.Qvel[0], d.Qvel[1] = 20, -30
	e.Step([]float32{0, 0})
	if d.Qvel[0] > 5 || d.Qvel[0] < 4.9 || d.Qvel[1] < -5 || d.Qvel[1] > -4.9 {
		t.Errorf("velocity after a step from (20, -30): %v, want just inside ±5", d.Qvel)
	}
}

// TestRender: the large maze draws through the offscreen renderer.
func TestRender(t *testing.T) { robottest.Render(t, "PointMaze_Large-v3") }

// TestFrameStack: with frame_stack 3 each entry holds three frames, oldest first: after
// a reset all three are the reset's, after a step the newest is the step's and the
// others move back one; compute_reward reads the newest frames of stacked goals.
func TestFrameStack(t *testing.T) {
	e, l, spec := makeMaze(t, "PointMaze_OpenDense-v3", map[string]any{"frame_stack": 3}, 8)
	if spec.ObsSpace.Size() != 24 || spec.ObsLayout[0].Size != 12 || spec.ObsLayout[0].Frames != 3 || spec.ObsLayout[2].Offset != 18 {
		t.Fatalf("stacked spec %v %+v", spec.ObsSpace, spec.ObsLayout)
	}
	e.Reset()
	obs0, _ := robottest.Observe(t, e, spec)
	first := slices.Clone(robottest.Entry(t, spec, obs0, "observation")[8:12])
	if !slices.Equal(robottest.Entry(t, spec, obs0, "observation")[0:4], first) {
		t.Fatalf("frames after a reset differ: %v", obs0)
	}
	r := e.Step([]float32{1, -1})
	obs, _ := robottest.Observe(t, e, spec)
	o := robottest.Entry(t, spec, obs, "observation")
	q, v := e.Sim().D.Qpos, e.Sim().D.Qvel
	if !slices.Equal(o[4:8], first) || !slices.Equal(o[8:12], []float32{float32(q[0]), float32(q[1]), float32(v[0]), float32(v[1])}) {
		t.Fatalf("stacked observation %v after a step (state %v %v)", o, q, v)
	}
	ach, des := robottest.Entry(t, spec, obs, "achieved_goal"), robottest.Entry(t, spec, obs, "desired_goal")
	if len(ach) != 6 || math.Abs(float64(e.ComputeReward(ach, des)-r.Reward)) > 1e-6 || des[5] != float32(l.Goal[1]) {
		t.Fatalf("stacked goals %v %v: reward %v, step reward %v", ach, des, e.ComputeReward(ach, des), r.Reward)
	}
}

// TestPixels: picture observations of a maze.
func TestPixels(t *testing.T) { robottest.Pixels(t, "PointMaze_UMaze-v3") }
