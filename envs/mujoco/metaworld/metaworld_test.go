package metaworld

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/mujocotest"
)

// requireMuJoCo skips a test when libmujoco 2.2.2 cannot be loaded.
func requireMuJoCo(t *testing.T) { t.Helper(); mujocotest.RequireMuJoCo(t) }

// envpoolIDs is EnvPool's list of MetaWorld ids (registration.py), in its order.
var envpoolIDs = strings.Fields(`Assembly BinPicking:2 Basketball:1 BoxClose ButtonPressTopdown
	ButtonPressTopdownWall ButtonPress ButtonPressWall CoffeeButton CoffeePull CoffeePush DialTurn
	Disassemble DoorClose DoorLock DoorOpen DoorUnlock HandInsert DrawerClose DrawerOpen FaucetOpen
	FaucetClose Hammer HandlePressSide HandlePress HandlePullSide HandlePull LeverPull PickPlaceWall
	PickOutOfHole PickPlace PlateSlide PlateSlideSide PlateSlideBack PlateSlideBackSide PegInsertSide
	PegUnplugSide Soccer StickPush StickPull Push PushWall PushBack Reach ReachWall ShelfPlace
	SweepInto Sweep WindowOpen WindowClose`)

// TestTaskIDs: the 50 ids are EnvPool's, in its order, and registered.
func TestTaskIDs(t *testing.T) {
	want := make([]string, len(envpoolIDs))
	for i, n := range envpoolIDs {
		want[i] = "MetaWorld/" + strings.Split(n, ":")[0] + "-v3"
	}
	// EnvPool lists basketball before bin-picking.
	want[1], want[2] = want[2], want[1]
	if got := TaskIDs(); !slices.Equal(got, want) {
		t.Fatalf("ids\n%v\nwant\n%v", got, want)
	}
	if got := ID("button-press-topdown-wall-v3"); got != "MetaWorld/ButtonPressTopdownWall-v3" {
		t.Errorf("ID = %s", got)
	}
	known := envs.List()
	for _, id := range want {
		if !slices.Contains(known, id) {
			t.Errorf("%s is not registered", id)
		}
	}
}

// TestSpec: the spaces, limit, info keys and options as EnvPool gives them, and the
// options that change the observation.
func TestSpec(t *testing.T) {
	requireMuJoCo(t)
	spec, err := envs.SpecOf("MetaWorld/Reach-v3", nil)
	if err != nil {
		t.Fatal(err)
	}
	inf := float32(math.Inf(1))
	if spec.ObsSpace.Size() != 39 || spec.ObsSpace.Low[0] != -inf || spec.ObsSpace.High[38] != inf {
		t.Errorf("observation space %v", spec.ObsSpace)
	}
	a := spec.ActionSpace
	if a.Kind != envpool.Box || a.Size() != 4 || a.Low[0] != -1 || a.High[3] != 1 {
		t.Errorf("action space %v", a)
	}
	if spec.MaxEpisodeSteps != 500 || spec.FrameSkip != 5 || spec.HasRewardThreshold() {
		t.Errorf("limit %d, frame skip %d, threshold %v", spec.MaxEpisodeSteps, spec.FrameSkip, spec.RewardThreshold)
	}
	wantKeys := []string{"success", "near_object", "grasp_success", "grasp_reward", "in_place_reward", "obj_to_target", "unscaled_reward", "task_id"}
	if !slices.Equal(spec.InfoKeys, wantKeys) || spec.InfoWidth() != len(wantKeys) {
		t.Errorf("info keys %v (width %d)", spec.InfoKeys, spec.InfoWidth())
	}
	for k, v := range map[string]any{"frame_skip": 5, "frame_stack": 1, "partially_observable": true, "reward_threshold": 10.0, "task_name": "reach-v3"} {
		if spec.Options[k] != v {
			t.Errorf("option %s = %v, want %v", k, spec.Options[k], v)
		}
	}
	if math.Abs(spec.RenderFPS-80) > 1e-9 { // 1 / (5 * 0.0025 s)
		t.Errorf("render fps %v", spec.RenderFPS)
	}

	// The goal is hidden by default and shown with partially_observable false; frame
	// stacking repeats the reset's observation.
	hidden, _ := resetObs(t, "MetaWorld/Reach-v3", nil)
	shown, e := resetObs(t, "MetaWorld/Reach-v3", map[string]any{"partially_observable": false})
	if !slices.Equal(hidden[36:], []float32{0, 0, 0}) || !slices.Equal(hidden[:36], shown[:36]) {
		t.Errorf("hidden goal %v vs shown %v", hidden[36:], shown[36:])
	}
	for i := range 3 {
		if shown[36+i] != float32(e.target[i]) || e.target == (vec3{}) {
			t.Errorf("shown goal %v, target %v", shown[36:], e.target)
		}
	}
	// task_name runs another task under the id, as EnvPool's does.
	if _, e := resetObs(t, "MetaWorld/Reach-v3", map[string]any{"task_name": "push-v3"}); e.def.name != "push-v3" || e.t.index != 40 {
		t.Errorf("task_name push-v3 made %s (task_id %d)", e.def.name, e.t.index)
	}
	if spec, err := envs.SpecOf("MetaWorld/Reach-v3", map[string]any{"frame_stack": 3}); err != nil || !slices.Equal(spec.ObsSpace.Shape, []int{3, 39}) {
		t.Errorf("frame_stack 3: observation shape %v (%v), want [3 39]", spec.ObsSpace.Shape, err)
	}
	stacked, se := resetObs(t, "MetaWorld/Reach-v3", map[string]any{"frame_stack": 3})
	if len(stacked) != 3*39 || !slices.Equal(stacked[:39], stacked[78:]) || !slices.Equal(stacked[:39], hidden) {
		t.Errorf("stacked observation of %d values", len(stacked))
	}
	// A step adds the newest observation last: the same as an unstacked env's.
	_, plain := resetObs(t, "MetaWorld/Reach-v3", nil)
	act := []float32{0.5, -0.5, 0.2, 1}
	se.Step(act)
	plain.Step(act)
	after, newest := make([]float32, 3*39), make([]float32, 39)
	se.Observe(envpool.Obs{F32: after}, make([]float32, len(InfoKeys)))
	plain.Observe(envpool.Obs{F32: newest}, make([]float32, len(InfoKeys)))
	if !slices.Equal(after[:78], stacked[:78]) || !slices.Equal(after[78:], newest) {
		t.Errorf("after a step the stack is not the reset's two oldest frames and the new one")
	}
	// The previous frame repeats the current one after a reset.
	if !slices.Equal(hidden[:18], hidden[18:36]) {
		t.Errorf("after a reset the previous frame %v differs from the current %v", hidden[18:36], hidden[:18])
	}
}

// resetObs makes an env with seed 7 and the options, resets it and returns its
// observation.
func resetObs(t *testing.T, id string, opts map[string]any) ([]float32, *Env) {
	t.Helper()
	env, spec, err := envs.MakeEnv(id, opts, 7)
	if err != nil {
		t.Fatal(err)
	}
	e := env.(*Env)
	t.Cleanup(func() { e.Close() })
	e.Reset()
	obs := make([]float32, spec.ObsSpace.Size())
	e.Observe(envpool.Obs{F32: obs}, make([]float32, spec.InfoWidth()))
	return obs, e
}

// TestBadInput: unknown options, bad values, and bad actions are errors that name the
// problem; nothing panics.
func TestBadInput(t *testing.T) {
	requireMuJoCo(t)
	for opts, want := range map[*map[string]any]string{
		{"frame_skp": 5}:            "frame_skip",
		{"frame_skip": 0}:           "frame_skip",
		{"frame_stack": 40}:         "frame_stack",
		{"partially_observable": 1}: "partially_observable",
		{"task_name": "missing-v3"}: "Unknown MetaWorld task_name: missing-v3",
	} {
		_, err := envs.SpecOf("MetaWorld/Push-v3", *opts)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("options %v: error %v, want one naming %s", *opts, err, want)
		}
	}
	pool, err := envs.Make("MetaWorld/Push-v3", envs.Options{Options: envpool.Options{NumEnvs: 1, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Reset(); err != nil {
		t.Fatal(err)
	}
	for _, a := range [][]float32{{0, float32(math.NaN()), 0, 0}, {0, 0, float32(math.Inf(1)), 0}, {0, 0, 0}} {
		if _, err := pool.Step(a, nil); err == nil {
			t.Errorf("action %v accepted", a)
		}
	}
	// A wrong length given to the env itself ends the episode with a named fault.
	env, _, err := envs.MakeEnv("MetaWorld/Push-v3", nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := env.(*Env)
	defer e.Close()
	e.Reset()
	if r := e.Step([]float32{1, 2}); !r.Truncated {
		t.Errorf("a 2-value action did not end the episode")
	}
	if code, msg := e.Fault(); code != mujoco.FaultBadAction || !strings.Contains(msg, "4") {
		t.Errorf("fault %d %q", code, msg)
	}
}

// TestEveryTaskEpisode runs every task for whole episodes of random actions in a sync
// pool of one env and in an async pool of two envs with batches of one: each episode ends truncated at step 500,
// never terminated; observations are finite; rewards lie in [0, 10]; success and the
// grasp flag are 0 or 1; task_id is the task's place in EnvPool's list; and every name
// a task reads exists in its model. Three episodes per task keep the test to well under a
// second per task on an idle core.
func TestEveryTaskEpisode(t *testing.T) {
	requireMuJoCo(t)
	for index, id := range TaskIDs() {
		t.Run(id, func(t *testing.T) {
			runEpisodes(t, id, index, 1, 1)
			runEpisodes(t, id, index, 2, 1)
		})
	}
}

// runEpisodes runs one episode of each env of a pool of n envs with the given batch size.
func runEpisodes(t *testing.T, id string, index, n, batch int) {
	pool, err := envs.Make(id, envs.Options{Options: envpool.Options{NumEnvs: n, BatchSize: batch, NumThreads: 1, Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	spec := pool.Spec()
	rng := rand.New(rand.NewPCG(uint64(index), uint64(batch)))
	b, err := pool.Reset()
	if err != nil {
		t.Fatal(err)
	}
	done := map[int32]bool{}
	for len(done) < n {
		acts := make([]float32, 0, 4*b.Size)
		ids := slices.Clone(b.EnvID[:b.Size])
		for r := range b.Size {
			row := b.ObsF32[r*b.ObsSize : (r+1)*b.ObsSize]
			for _, v := range row {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("env %d step %d: observation %v", b.EnvID[r], b.ElapsedStep[r], row)
				}
			}
			info := b.Info[r*spec.InfoWidth() : (r+1)*spec.InfoWidth()]
			// A reset's info holds the reward of the state with no action, as EnvPool's.
			if rw := b.Reward[r]; rw < 0 || rw > 10 || info[6] < 0 || info[6] > 10 || (b.ElapsedStep[r] > 0 && info[6] != rw) {
				t.Fatalf("env %d step %d: reward %v, unscaled_reward %v", b.EnvID[r], b.ElapsedStep[r], rw, info[6])
			}
			if (info[0] != 0 && info[0] != 1) || (info[2] != 0 && info[2] != 1) || info[7] != float32(index) {
				t.Fatalf("env %d step %d: info %v", b.EnvID[r], b.ElapsedStep[r], info)
			}
			if b.Terminated[r] {
				t.Fatalf("env %d terminated at step %d", b.EnvID[r], b.ElapsedStep[r])
			}
			if b.Truncated[r] {
				if b.ElapsedStep[r] != MaxPathLength {
					t.Fatalf("env %d truncated at step %d", b.EnvID[r], b.ElapsedStep[r])
				}
				done[b.EnvID[r]] = true
			}
			for range 4 {
				acts = append(acts, float32(rng.Float64()*2-1))
			}
		}
		if len(done) == n {
			break
		}
		if b, err = pool.Step(acts, ids); err != nil {
			t.Fatal(err)
		}
	}
	for i := range pool.NumEnvs() {
		e := pool.Env(i).(*Env)
		if len(e.missing) > 0 {
			t.Errorf("the task reads names its model lacks: %v", e.missing)
		}
		if code, msg := e.Fault(); code != mujoco.FaultNone {
			t.Errorf("env %d fault %d: %s", i, code, msg)
		}
	}
}
