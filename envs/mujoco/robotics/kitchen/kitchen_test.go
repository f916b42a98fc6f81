package kitchen

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot/robottest"
)

// makeKitchen builds one kitchen env outside any pool.
func makeKitchen(t *testing.T, opts map[string]any, seed int64) (*mjrobot.Env, *Kitchen, envpool.Spec) {
	t.Helper()
	return robottest.MakeLogic[*Kitchen](t, ID, opts, seed)
}

// TestSpec: EnvPool's observation schema (59 values, then the seven desired and the
// seven achieved goals), 9 actions in [-1, 1], 280 steps, the three 7-value masks,
// 40 physics steps per action and its option defaults.
func TestSpec(t *testing.T) {
	robottest.RequireMuJoCo(t)
	spec, err := envs.SpecOf(ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{2, 2, 2, 1, 2, 1, 7}
	want := []envpool.ObsField{{Name: "observation", Size: 59}}
	for _, kind := range []string{"desired_goal", "achieved_goal"} {
		for i, n := range TaskNames() {
			want = append(want, envpool.ObsField{Name: kind + ":" + n, Size: sizes[i]})
		}
	}
	at := 0
	for i := range want {
		want[i].Offset = at
		at += want[i].Size
	}
	if spec.ObsSpace.Size() != 93 || !slices.EqualFunc(spec.ObsLayout, want, func(a, b envpool.ObsField) bool { return a.Name == b.Name && a.Offset == b.Offset && a.Size == b.Size }) {
		t.Errorf("observation %v, layout %+v", spec.ObsSpace, spec.ObsLayout)
	}
	if a := spec.ActionSpace; a.Size() != 9 || a.Low[0] != -1 || a.High[8] != 1 {
		t.Errorf("actions %v", a)
	}
	if spec.MaxEpisodeSteps != 280 || spec.FrameSkip != 40 || math.Abs(spec.RenderFPS-12.5) > 1e-9 {
		t.Errorf("limit %d, frame skip %d, fps %v", spec.MaxEpisodeSteps, spec.FrameSkip, spec.RenderFPS)
	}
	if !slices.Equal(spec.InfoKeys, []string{"tasks_to_complete", "step_task_completions", "episode_task_completions", "error"}) || spec.InfoWidth() != 22 {
		t.Errorf("info %v (%d columns)", spec.InfoKeys, spec.InfoWidth())
	}
	o := spec.Options
	if o["terminate_on_tasks_completed"] != true || o["remove_task_when_completed"] != true || o["robot_noise_ratio"] != 0.01 || o["object_noise_ratio"] != 0.0005 || !slices.Equal(o["tasks_to_complete"].([]string), TaskNames()) {
		t.Errorf("options %v", o)
	}
}

// TestEpisodes: whole random episodes (280 steps of 40 physics steps) in a sync and an
// async pool.
func TestEpisodes(t *testing.T) { robottest.PoolEpisodes(t, ID, 0) }

// TestTaskCompletion: setting the microwave's door to its goal completes that task at
// the next step (reward 1, its bit set in step_task_completions and
// episode_task_completions, cleared from tasks_to_complete) and only once; setting the
// rest to their goals completes them and ends the episode as terminated.
func TestTaskCompletion(t *testing.T) {
	e, _, spec := makeKitchen(t, nil, 1)
	e.Reset()
	s := e.Sim()
	const microwave = 5
	s.D.Qpos[22] = -0.75
	s.Forward()
	r := e.Step(make([]float32, 9))
	_, info := robottest.Observe(t, e, spec)
	mask := func(key string) []float32 { return robottest.Info(t, spec, info, key) }
	if r.Reward != 1 || r.Terminated || mask("step_task_completions")[microwave] != 1 || mask("episode_task_completions")[microwave] != 1 || mask("tasks_to_complete")[microwave] != 0 {
		t.Fatalf("microwave: %+v, info %v (distance %v)", r, info, Distance(s.D.Qpos, microwave))
	}
	if n := slices.Index(mask("tasks_to_complete"), 0); n != microwave || sum(mask("tasks_to_complete")) != 6 {
		t.Fatalf("tasks to complete %v", mask("tasks_to_complete"))
	}
	r = e.Step(make([]float32, 9))
	_, info = robottest.Observe(t, e, spec)
	if r.Reward != 0 || mask("step_task_completions")[microwave] != 0 || mask("episode_task_completions")[microwave] != 1 {
		t.Fatalf("the next step: %+v, info %v", r, info)
	}
	for i, g := range goalTasks {
		for j, at := range g.qpos {
			s.D.Qpos[at] = g.goal[j]
		}
		if Distance(s.D.Qpos, i) != 0 {
			t.Fatalf("%s: distance %v at its goal", g.name, Distance(s.D.Qpos, i))
		}
	}
	s.Forward()
	r = e.Step(make([]float32, 9))
	_, info = robottest.Observe(t, e, spec)
	if r.Reward != 6 || !r.Terminated || sum(mask("tasks_to_complete")) != 0 || sum(mask("episode_task_completions")) != 7 {
		t.Fatalf("all tasks: %+v, info %v", r, info)
	}
}

func sum(xs []float32) float32 {
	s := float32(0)
	for _, x := range xs {
		s += x
	}
	return s
}

// TestTaskOptions: with remove_task_when_completed false a completed task pays at
// every step it stays complete; with one task to complete, completing it ends the
// episode, and tasks outside the list pay nothing.
func TestTaskOptions(t *testing.T) {
	e, _, spec := makeKitchen(t, map[string]any{"remove_task_when_completed": false, "tasks_to_complete": []any{"light switch", "microwave"}}, 2)
	e.Reset()
	s := e.Sim()
	s.D.Qpos[22] = -0.75 // microwave
	s.D.Qpos[19] = 0.37  // slide cabinet, not in the list
	s.Forward()
	for step := range 2 {
		if r := e.Step(make([]float32, 9)); r.Reward != 1 || r.Terminated {
			t.Fatalf("step %d: %+v", step, r)
		}
	}
	_, info := robottest.Observe(t, e, spec)
	if got := robottest.Info(t, spec, info, "tasks_to_complete"); !slices.Equal(got, []float32{0, 0, 1, 0, 0, 1, 0}) {
		t.Fatalf("tasks to complete %v", got)
	}
	e, _, _ = makeKitchen(t, map[string]any{"tasks_to_complete": []any{"microwave"}}, 2)
	e.Reset()
	e.Sim().D.Qpos[22] = -0.75
	e.Sim().Forward()
	if r := e.Step(make([]float32, 9)); r.Reward != 1 || !r.Terminated {
		t.Fatalf("the only task done: %+v", r)
	}
}

// TestControl: an action moves each servo's target from the arm's last observed
// (noisy) joint position by 2 a (bounded to 10) times the step's 0.08 s, within the
// joint's position bound (joint 2 at -1.77 reaches its -1.8).
func TestControl(t *testing.T) {
	e, _, spec := makeKitchen(t, nil, 3)
	e.Reset()
	obs, _ := robottest.Observe(t, e, spec)
	a := []float32{0.5, -1, 7, 0, 0, 0, 0, 1, 1}
	e.Step(a)
	ctrl := e.Sim().D.Ctrl
	for i, want := range []float64{
		float64(obs[0]) + 1*0.08, max(float64(obs[1])-2*0.08, -1.8), float64(obs[2]) + 2*0.08, float64(obs[3]),
		float64(obs[4]), float64(obs[5]), float64(obs[6]), 0.04, 0.04, // the fingers' targets reach their 0.04 bound
	} {
		if math.Abs(ctrl[i]-want) > 1e-6 {
			t.Errorf("ctrl[%d] = %v, want %v", i, ctrl[i], want)
		}
	}
}

// TestResetAndNoise: every episode starts from the sources' init_qpos at rest; the
// observation's arm values carry uniform noise within 0.01 times their amplitudes
// (0.1: ±0.001) and the objects' within 0.0005 times theirs, covering the range over
// many resets; the goals observed are the tasks' goals and the achieved ones the
// state's.
func TestResetAndNoise(t *testing.T) {
	e, k, spec := makeKitchen(t, nil, 4)
	lo, hi := math.Inf(1), math.Inf(-1)
	for range 200 {
		e.Reset()
		s := e.Sim()
		// The kettle's quaternion (qpos 26..29) is normalised by MuJoCo's forward pass.
		q := initQpos[26:30]
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		for i, want := range initQpos {
			if i >= 26 {
				want /= n
			}
			if math.Abs(s.D.Qpos[i]-want) > 1e-12 {
				t.Fatalf("reset qpos[%d] = %v, want %v", i, s.D.Qpos[i], want)
			}
		}
		if slices.ContainsFunc(s.D.Qvel, func(v float64) bool { return v != 0 }) {
			t.Fatalf("reset velocities %v", s.D.Qvel)
		}
		obs, _ := robottest.Observe(t, e, spec)
		for i := range 9 {
			n := k.Obs[i] - s.D.Qpos[i]
			if math.Abs(n) > 0.01*0.1+1e-12 {
				t.Fatalf("arm joint %d noise %v", i, n)
			}
			lo, hi = min(lo, n), max(hi, n)
		}
		for i := range objectQpos {
			if n := k.Obs[18+i] - s.D.Qpos[9+i]; math.Abs(n) > 0.0005*posNoise[8+i]+1e-12 {
				t.Fatalf("object coordinate %d noise %v", i, n)
			}
		}
		if g := robottest.Entry(t, spec, obs, "desired_goal:kettle"); g[2] != 1.62 {
			t.Fatalf("kettle goal %v", g)
		}
		if g := robottest.Entry(t, spec, obs, "achieved_goal:hinge cabinet"); g[1] != float32(s.D.Qpos[21]) {
			t.Fatalf("hinge cabinet achieved %v", g)
		}
	}
	if lo > -0.0009 || hi < 0.0009 {
		t.Errorf("arm noise spans [%v, %v], want nearly ±0.001", lo, hi)
	}
}

// TestBadInput: an unknown option, an unknown task name, a NaN action and an action
// of the wrong length are refused by name.
func TestBadInput(t *testing.T) {
	robottest.BadInput(t, ID, "tasks_to_complete", []any{"oven"})
	if _, err := envs.SpecOf(ID, map[string]any{"tasks_to_complete": []any{"oven"}}); err == nil || !strings.Contains(err.Error(), `"oven"`) {
		t.Errorf("an unknown task: %v", err)
	}
}

// TestRender: the kitchen draws through the offscreen renderer.
func TestRender(t *testing.T) { robottest.Render(t, ID) }

// TestPixels: picture observations of the kitchen.
func TestPixels(t *testing.T) { robottest.Pixels(t, ID) }
