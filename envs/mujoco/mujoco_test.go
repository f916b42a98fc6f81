package mujoco

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// requireMuJoCo skips a test when libmujoco cannot be loaded, naming the package.
func requireMuJoCo(t testing.TB) {
	t.Helper()
	if err := Load(); err != nil {
		t.Skipf("MuJoCo tests need Debian's %s (apt-get install %s): %v", LibraryPackage, LibraryPackage, err)
	}
}

// makeEnv builds one env of a task outside any pool.
func makeEnv(t testing.TB, id string, opts map[string]any, seed int64) (*Env, envpool.Spec) {
	t.Helper()
	e, spec, err := envs.MakeEnv(id, opts, seed)
	if err != nil {
		t.Fatalf("MakeEnv(%s, %v): %v", id, opts, err)
	}
	t.Cleanup(func() { e.(*Env).Close() })
	return e.(*Env), spec
}

// observe returns the env's current observation and info.
func observe(e *Env, spec envpool.Spec) ([]float32, []float32) {
	obs := make([]float32, spec.ObsSpace.Size())
	info := make([]float32, spec.InfoWidth())
	e.Observe(envpool.Obs{F32: obs}, info)
	return obs, info
}

func infoOf(t *testing.T, spec envpool.Spec, info []float32, key string) float64 {
	t.Helper()
	i := spec.InfoIndex(key)
	if i < 0 {
		t.Fatalf("%s has no info key %q (keys %v)", spec.TaskID, key, spec.InfoKeys)
	}
	return float64(info[i])
}

// TestSpaces checks every task's observation and action spaces, limits and model facts
// against Gymnasium's v4 registrations (docs/design/mujoco.md, The tasks).
func TestSpaces(t *testing.T) {
	requireMuJoCo(t)
	tests := []struct {
		id                string
		opts              map[string]any
		obs, act          int
		actLow, actHigh   float32
		nq, nv            int
		timestep          float64
		integrator        int
		frameSkip, limit  int
		threshold         float64 // NaN: none
		infoKeysIncluding []string
	}{
		{"Ant-v4", nil, 27, 8, -1, 1, 15, 14, 0.01, mjINT_RK4, 5, 1000, 6000, []string{"reward_forward", "reward_ctrl", "reward_survive", "x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity", "forward_reward"}},
		{"Ant-v4", map[string]any{excludeKey: false}, 29, 8, -1, 1, 15, 14, 0.01, mjINT_RK4, 5, 1000, 6000, nil},
		{"Ant-v4", map[string]any{"use_contact_forces": true}, 111, 8, -1, 1, 15, 14, 0.01, mjINT_RK4, 5, 1000, 6000, nil},
		{"Ant-v4", map[string]any{"use_contact_forces": true, excludeKey: false}, 113, 8, -1, 1, 15, 14, 0.01, mjINT_RK4, 5, 1000, 6000, nil},
		{"HalfCheetah-v4", nil, 17, 6, -1, 1, 9, 9, 0.01, mjINT_EULER, 5, 1000, 4800, []string{"x_position", "x_velocity", "reward_run", "reward_ctrl"}},
		{"HalfCheetah-v4", map[string]any{excludeKey: false}, 18, 6, -1, 1, 9, 9, 0.01, mjINT_EULER, 5, 1000, 4800, nil},
		{"Hopper-v4", nil, 11, 3, -1, 1, 6, 6, 0.002, mjINT_RK4, 4, 1000, 3800, []string{"x_position", "x_velocity"}},
		{"Hopper-v4", map[string]any{excludeKey: false}, 12, 3, -1, 1, 6, 6, 0.002, mjINT_RK4, 4, 1000, 3800, nil},
		{"Walker2d-v4", nil, 17, 6, -1, 1, 9, 9, 0.002, mjINT_RK4, 4, 1000, math.NaN(), []string{"x_position", "x_velocity"}},
		{"Walker2d-v4", map[string]any{excludeKey: false}, 18, 6, -1, 1, 9, 9, 0.002, mjINT_RK4, 4, 1000, math.NaN(), nil},
		{"Humanoid-v4", nil, 376, 17, -0.4, 0.4, 24, 23, 0.003, mjINT_RK4, 5, 1000, math.NaN(), []string{"reward_linvel", "reward_quadctrl", "reward_alive", "x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity", "forward_reward"}},
		{"Humanoid-v4", map[string]any{excludeKey: false}, 378, 17, -0.4, 0.4, 24, 23, 0.003, mjINT_RK4, 5, 1000, math.NaN(), nil},
		{"HumanoidStandup-v4", nil, 376, 17, -0.4, 0.4, 24, 23, 0.003, mjINT_RK4, 5, 1000, math.NaN(), []string{"reward_linup", "reward_quadctrl", "reward_impact"}},
		{"Swimmer-v4", nil, 8, 2, -1, 1, 5, 5, 0.01, mjINT_RK4, 4, 1000, 360, []string{"reward_fwd", "reward_ctrl", "x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity", "forward_reward"}},
		{"Swimmer-v4", map[string]any{excludeKey: false}, 10, 2, -1, 1, 5, 5, 0.01, mjINT_RK4, 4, 1000, 360, nil},
		{"InvertedPendulum-v4", nil, 4, 1, -3, 3, 2, 2, 0.02, mjINT_RK4, 2, 1000, 950, nil},
		{"InvertedDoublePendulum-v4", nil, 11, 1, -1, 1, 3, 3, 0.01, mjINT_RK4, 5, 1000, 9100, nil},
		{"Reacher-v4", nil, 11, 2, -1, 1, 4, 4, 0.01, mjINT_RK4, 2, 50, -3.75, []string{"reward_dist", "reward_ctrl"}},
		{"Pusher-v4", nil, 23, 7, -2, 2, 11, 11, 0.01, mjINT_EULER, 5, 100, 0, []string{"reward_dist", "reward_ctrl"}},
	}
	seen := map[string]bool{}
	for _, tc := range tests {
		seen[tc.id] = true
		spec, err := envs.SpecOf(tc.id, tc.opts)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.id, tc.opts, err)
		}
		name := tc.id
		if tc.opts != nil {
			name += fmt.Sprint(" ", tc.opts)
		}
		if got := spec.ObsSpace.Shape; len(got) != 1 || got[0] != tc.obs {
			t.Errorf("%s: observation shape %v, want [%d]", name, got, tc.obs)
		}
		if spec.ObsSpace.DType != envpool.Float32 {
			t.Errorf("%s: observation dtype %v", name, spec.ObsSpace.DType)
		}
		for i := range spec.ObsSpace.Size() {
			if !math.IsInf(float64(spec.ObsSpace.Low[i]), -1) || !math.IsInf(float64(spec.ObsSpace.High[i]), 1) {
				t.Fatalf("%s: observation bound %d is [%v, %v], want (-inf, inf)", name, i, spec.ObsSpace.Low[i], spec.ObsSpace.High[i])
			}
		}
		if spec.ActionSpace.Kind != envpool.Box || spec.ActionSpace.Size() != tc.act {
			t.Errorf("%s: action space %v, want Box(%d)", name, spec.ActionSpace, tc.act)
		}
		for i := range spec.ActionSpace.Size() {
			if spec.ActionSpace.Low[i] != tc.actLow || spec.ActionSpace.High[i] != tc.actHigh {
				t.Errorf("%s: action bound %d is [%v, %v], want [%v, %v]", name, i, spec.ActionSpace.Low[i], spec.ActionSpace.High[i], tc.actLow, tc.actHigh)
			}
		}
		if spec.FrameSkip != tc.frameSkip || spec.MaxEpisodeSteps != tc.limit {
			t.Errorf("%s: frame skip %d, limit %d; want %d, %d", name, spec.FrameSkip, spec.MaxEpisodeSteps, tc.frameSkip, tc.limit)
		}
		if math.IsNaN(tc.threshold) != !spec.HasRewardThreshold() || (!math.IsNaN(tc.threshold) && spec.RewardThreshold != tc.threshold) {
			t.Errorf("%s: reward threshold %v, want %v", name, spec.RewardThreshold, tc.threshold)
		}
		want := append(slices.Clone(tc.infoKeysIncluding), "error", "qpos0", "qvel0")
		if tc.infoKeysIncluding != nil || tc.opts == nil {
			if !slices.Equal(spec.InfoKeys, want) {
				t.Errorf("%s: info keys %v, want %v", name, spec.InfoKeys, want)
			}
		}
		if _, n := spec.InfoSpan("qpos0"); n != tc.nq {
			t.Errorf("%s: qpos0 has %d columns, want nq = %d", name, n, tc.nq)
		}
		if _, n := spec.InfoSpan("qvel0"); n != tc.nv {
			t.Errorf("%s: qvel0 has %d columns, want nv = %d", name, n, tc.nv)
		}
		e, _ := makeEnv(t, tc.id, tc.opts, 0)
		if e.m.NQ != tc.nq || e.m.NV != tc.nv || e.m.Timestep != tc.timestep || e.m.Integrator() != tc.integrator {
			t.Errorf("%s: nq %d nv %d timestep %v integrator %d; want %d %d %v %d", name,
				e.m.NQ, e.m.NV, e.m.Timestep, e.m.Integrator(), tc.nq, tc.nv, tc.timestep, tc.integrator)
		}
		requireObservationWritten(t, name, e, spec)
	}
	for _, id := range TaskIDs() {
		if strings.HasSuffix(id, "-v4") && !seen[id] {
			t.Errorf("task %s is not in the table", id)
		}
	}
	if len(TaskIDs()) != 33 {
		t.Errorf("%d tasks registered, want the eleven v4, eleven v5 and eleven -v3/-v2 tasks", len(TaskIDs()))
	}
}

// requireObservationWritten resets e, takes a zero step and checks that Observe writes
// every element: it poisons the buffer with NaN and looks for any left.
func requireObservationWritten(t *testing.T, name string, e *Env, spec envpool.Spec) {
	t.Helper()
	obs := make([]float32, spec.ObsSpace.Size())
	for i := range obs {
		obs[i] = float32(math.NaN())
	}
	e.Reset()
	e.Step(make([]float32, spec.ActionSpace.Size()))
	e.Observe(envpool.Obs{F32: obs}, make([]float32, spec.InfoWidth()))
	for i, v := range obs {
		if math.IsNaN(float64(v)) {
			t.Fatalf("%s: observation element %d not written", name, i)
		}
	}
}

// TestHopperFallsUnderZeroAction: with zero torques the hopper tips over and the
// episode ends by the health rule (height or pitch out of range), paying the healthy
// bonus on the terminating step too (a v4 quirk).
func TestHopperFallsUnderZeroAction(t *testing.T) {
	requireMuJoCo(t)
	e, spec := makeEnv(t, "Hopper-v4", nil, 3)
	e.Reset()
	zero := make([]float32, 3)
	for n := 1; n <= 1000; n++ {
		r := e.Step(zero)
		q := e.d.Qpos
		healthyNow := q[1] > 0.7 && q[2] > -0.2 && q[2] < 0.2
		if !r.Terminated {
			if !healthyNow {
				t.Fatalf("step %d: unhealthy state (z %.3f, angle %.3f) did not terminate", n, q[1], q[2])
			}
			continue
		}
		if healthyNow {
			t.Fatalf("step %d: terminated while healthy (z %.3f, angle %.3f)", n, q[1], q[2])
		}
		if r.Truncated {
			t.Fatalf("step %d: a health termination must not be truncated", n)
		}
		_, info := observe(e, spec)
		vx := infoOf(t, spec, info, "x_velocity")
		want := vx + 1.0 // forward + healthy bonus (paid on the terminating step), zero ctrl cost
		if math.Abs(float64(r.Reward)-want) > 1e-5 {
			t.Fatalf("terminating reward %v, want x_velocity + 1 = %v", r.Reward, want)
		}
		t.Logf("terminated at step %d: z %.3f, angle %.3f", n, q[1], q[2])
		return
	}
	t.Fatal("hopper did not fall within 1000 steps of zero action")
}

// TestAntRewardTerms: reward = reward_forward + reward_survive + reward_ctrl, with the
// control cost on the raw (unclipped) action and the velocity from the torso's x.
func TestAntRewardTerms(t *testing.T) {
	requireMuJoCo(t)
	e, spec := makeEnv(t, "Ant-v4", nil, 7)
	e.Reset()
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]float32, 8)
	prevX := 0.0
	_, info := observe(e, spec)
	prevX = e.body(mustID(t, e.m, "torso"))[0]
	for n := range 300 {
		for i := range a {
			a[i] = float32(rng.Float64()*3 - 1.5) // beyond ctrlrange on purpose
		}
		r := e.Step(a)
		_, info = observe(e, spec)
		fwd, surv, ctrl := infoOf(t, spec, info, "reward_forward"), infoOf(t, spec, info, "reward_survive"), infoOf(t, spec, info, "reward_ctrl")
		if math.Abs(fwd+surv+ctrl-float64(r.Reward)) > 1e-4*max(1, math.Abs(float64(r.Reward))) {
			t.Fatalf("step %d: terms %v + %v + %v != reward %v", n, fwd, surv, ctrl, r.Reward)
		}
		if want := -0.5 * ctrlCost(a); math.Abs(ctrl-want) > 1e-5 {
			t.Fatalf("step %d: reward_ctrl %v, want -0.5*sum(a^2) = %v", n, ctrl, want)
		}
		if surv != 1 {
			t.Fatalf("step %d: reward_survive %v, want 1 (paid even on the terminating step)", n, surv)
		}
		x := infoOf(t, spec, info, "x_position")
		if want := (x - prevX) / 0.05; math.Abs(want-fwd) > 1e-3*max(1, math.Abs(fwd)) {
			t.Fatalf("step %d: reward_forward %v, want (x1-x0)/dt = %v", n, fwd, want)
		}
		prevX = x
		if r.Terminated {
			e.Reset()
			prevX = e.body(mustID(t, e.m, "torso"))[0]
		}
	}
}

func mustID(t *testing.T, m *Model, body string) int {
	t.Helper()
	id, err := m.ID(mjOBJ_BODY, body)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestTrajectoryDependsOnlyOnSeedAndActions runs two envs of each task with the same
// seed and actions (interleaved, so shared state would show) and one with another seed.
func TestTrajectoryDependsOnlyOnSeedAndActions(t *testing.T) {
	requireMuJoCo(t)
	for _, id := range TaskIDs() {
		a, spec := makeEnv(t, id, nil, 42)
		b, _ := makeEnv(t, id, nil, 42)
		c, _ := makeEnv(t, id, nil, 43)
		rng := rand.New(rand.NewPCG(9, 9))
		act := make([]float32, spec.ActionSpace.Size())
		a.Reset()
		b.Reset()
		c.Reset()
		oa, _ := observe(a, spec)
		oc, _ := observe(c, spec)
		if slices.Equal(oa, oc) {
			t.Errorf("%s: seeds 42 and 43 give the same first observation", id)
		}
		for n := range 60 {
			for i := range act {
				act[i] = spec.ActionSpace.Low[i] + float32(rng.Float64())*(spec.ActionSpace.High[i]-spec.ActionSpace.Low[i])
			}
			ra := a.Step(act)
			c.Step(act)
			rb := b.Step(act)
			oa, ia := observe(a, spec)
			ob, ib := observe(b, spec)
			if ra != rb || !slices.Equal(oa, ob) || !slices.Equal(ia, ib) {
				t.Fatalf("%s step %d: same seed and actions diverged", id, n)
			}
			if ra.Terminated || ra.Truncated {
				a.Reset()
				b.Reset()
			}
		}
	}
}

// TestResetState checks what reset leaves: Ant's noisy quaternion normalised by
// mj_forward, cfrc_ext zero in the Humanoid reset observation, Reacher's goal inside
// the 0.2 disc, Pusher's object far enough from the goal.
func TestResetState(t *testing.T) {
	requireMuJoCo(t)
	ant, _ := makeEnv(t, "Ant-v4", nil, 5)
	hum, hspec := makeEnv(t, "Humanoid-v4", nil, 5)
	rea, _ := makeEnv(t, "Reacher-v4", nil, 5)
	pus, _ := makeEnv(t, "Pusher-v4", nil, 5)
	for range 20 {
		ant.Reset()
		q := ant.d.Qpos[3:7]
		if n := math.Sqrt(sumSquares(q)); math.Abs(n-1) > 1e-12 {
			t.Fatalf("Ant reset quaternion norm %v, want 1 (mj_forward normalises it)", n)
		}
		hum.Reset()
		obs, _ := observe(hum, hspec)
		for i, v := range obs[292:] {
			if v != 0 {
				t.Fatalf("Humanoid reset observation cfrc_ext[%d] = %v, want 0", i, v)
			}
		}
		rea.Reset()
		if g := math.Hypot(rea.d.Qpos[2], rea.d.Qpos[3]); g >= 0.2 || rea.d.Qvel[2] != 0 || rea.d.Qvel[3] != 0 {
			t.Fatalf("Reacher goal norm %v (want < 0.2), target velocity %v", g, rea.d.Qvel[2:4])
		}
		pus.Reset()
		q = pus.d.Qpos
		if math.Hypot(q[7], q[8]) <= 0.17 || q[7] < -0.3 || q[7] > 0 || q[8] < -0.2 || q[8] > 0.2 || q[9] != 0 || q[10] != 0 {
			t.Fatalf("Pusher object/goal qpos %v out of the reset ranges", q[7:])
		}
		for i := range 7 {
			if q[i] != pus.m.Qpos0[i] {
				t.Fatalf("Pusher arm qpos %v, want qpos0 (no noise)", q[:7])
			}
		}
	}
	// HumanoidStandup starts lying on the floor: its reset observation has zero cfrc_ext
	// despite the contacts, and the first step's mj_rnePostConstraint fills it.
	std, sspec := makeEnv(t, "HumanoidStandup-v4", nil, 5)
	std.Reset()
	obs, _ := observe(std, sspec)
	if sumSquares(f64(obs[292:])) != 0 {
		t.Error("HumanoidStandup reset observation has non-zero cfrc_ext")
	}
	std.Step(make([]float32, 17))
	obs, _ = observe(std, sspec)
	if sumSquares(f64(obs[292:])) == 0 {
		t.Error("HumanoidStandup cfrc_ext is zero after a step: mj_rnePostConstraint did not run")
	}
}

// TestInitialStateInfo checks the qpos0 and qvel0 info arrays: they hold the episode's
// initial state after the reset noise, unchanged by steps, new at each reset, and
// enough to replay the episode: another env put into that state and given the same
// actions follows the same trajectory.
func TestInitialStateInfo(t *testing.T) {
	requireMuJoCo(t)
	a, spec := makeEnv(t, "Hopper-v4", nil, 5)
	b, _ := makeEnv(t, "Hopper-v4", nil, 99)
	qp, np := spec.InfoSpan("qpos0")
	qv, nv := spec.InfoSpan("qvel0")
	a.Reset()
	_, info := observe(a, spec)
	for i := range np {
		if info[qp+i] != float32(a.d.Qpos[i]) {
			t.Fatalf("qpos0[%d] = %v, qpos after reset %v", i, info[qp+i], a.d.Qpos[i])
		}
	}
	for i := range nv {
		if info[qv+i] != float32(a.d.Qvel[i]) {
			t.Fatalf("qvel0[%d] = %v, qvel after reset %v", i, info[qv+i], a.d.Qvel[i])
		}
	}
	if sumSquares(a.d.Qvel) == 0 {
		t.Fatal("Hopper's reset noise left qvel at zero")
	}
	first := slices.Clone(info[qp : qv+nv])
	b.Reset()
	copy(b.d.Qpos, a.qpos0)
	copy(b.d.Qvel, a.qvel0)
	b.d.forward()
	act := []float32{0.3, -0.2, 0.1}
	for step := range 20 {
		a.Step(act)
		b.Step(act)
		oa, ia := observe(a, spec)
		ob, _ := observe(b, spec)
		if !slices.Equal(oa, ob) {
			t.Fatalf("step %d: the env started from qpos0/qvel0 diverged", step)
		}
		if !slices.Equal(ia[qp:qv+nv], first) {
			t.Fatalf("step %d: qpos0/qvel0 changed during the episode", step)
		}
	}
	a.Reset()
	if _, info = observe(a, spec); slices.Equal(info[qp:qv+nv], first) {
		t.Fatal("a new episode kept the previous one's qpos0/qvel0")
	}
}

func f64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// TestTerminationRules exercises the balance tasks: InvertedPendulum ends past 0.2 rad,
// InvertedDoublePendulum once the tip drops to 1, each paying the alive bonus on the
// terminating step; tasks that never terminate run their whole limit.
func TestTerminationRules(t *testing.T) {
	requireMuJoCo(t)
	ip, _ := makeEnv(t, "InvertedPendulum-v4", nil, 1)
	ip.Reset()
	stepUntilTerminated(t, "InvertedPendulum", ip, []float32{3}, func(n int, r envpool.StepResult) {
		if r.Reward != 1 {
			t.Fatalf("InvertedPendulum reward %v, want 1", r.Reward)
		}
		if r.Terminated != (math.Abs(ip.d.Qpos[1]) > 0.2) {
			t.Fatalf("InvertedPendulum step %d: terminated %v with angle %v", n, r.Terminated, ip.d.Qpos[1])
		}
	})
	idp, _ := makeEnv(t, "InvertedDoublePendulum-v4", nil, 1)
	idp.Reset()
	stepUntilTerminated(t, "InvertedDoublePendulum", idp, []float32{1}, func(n int, r envpool.StepResult) {
		if tipZ := idp.d.SiteXpos[2]; r.Terminated != (tipZ <= 1) {
			t.Fatalf("step %d: terminated %v with tip height %v", n, r.Terminated, tipZ)
		}
	})
	for _, id := range []string{"HalfCheetah-v4", "Swimmer-v4", "Reacher-v4", "Pusher-v4", "HumanoidStandup-v4"} {
		e, spec := makeEnv(t, id, nil, 2)
		e.Reset()
		a := make([]float32, spec.ActionSpace.Size())
		copy(a, spec.ActionSpace.High)
		for n := range 100 {
			if r := e.Step(a); r.Terminated || r.Truncated {
				t.Fatalf("%s ended at step %d; it never terminates", id, n)
			}
		}
	}
}

// stepUntilTerminated steps e with a fixed action, calling check after each step, until
// the episode terminates; 1000 steps without an end fail the test.
func stepUntilTerminated(t *testing.T, what string, e *Env, a []float32, check func(n int, r envpool.StepResult)) {
	t.Helper()
	for n := 1; n <= 1000; n++ {
		r := e.Step(a)
		check(n, r)
		if r.Terminated {
			return
		}
	}
	t.Fatalf("%s did not terminate within 1000 steps", what)
}

// TestReacherRewardBeforeSimulation: the reward is read from the pre-step positions,
// so it equals minus the distance in the previous observation.
func TestReacherRewardBeforeSimulation(t *testing.T) {
	requireMuJoCo(t)
	e, spec := makeEnv(t, "Reacher-v4", nil, 11)
	e.Reset()
	obs, _ := observe(e, spec)
	a := []float32{0.3, -0.2}
	for range 20 {
		r := e.Step(a)
		want := -math.Sqrt(sumSquares(f64(obs[8:11]))) - ctrlCost(a)
		if math.Abs(float64(r.Reward)-want) > 1e-5 {
			t.Fatalf("reward %v, want -|previous fingertip-target| - ctrl = %v", r.Reward, want)
		}
		obs, _ = observe(e, spec)
	}
}

// TestOptions: options change behaviour; unknown or malformed options are errors.
func TestOptions(t *testing.T) {
	requireMuJoCo(t)
	// A z range the standing ant is never inside ends the first step.
	e, _ := makeEnv(t, "Ant-v4", map[string]any{"healthy_z_range": []any{2.0, 3.0}}, 1)
	e.Reset()
	if r := e.Step(make([]float32, 8)); !r.Terminated {
		t.Error("Ant with healthy_z_range [2, 3] did not terminate")
	}
	e, _ = makeEnv(t, "Ant-v4", map[string]any{"healthy_z_range": []any{int64(2), int64(3)}, "terminate_when_unhealthy": false}, 1)
	e.Reset()
	if r := e.Step(make([]float32, 8)); r.Terminated || r.Reward > 0.5 {
		t.Errorf("Ant unhealthy without termination: %+v, want no termination and no healthy bonus", r)
	}
	h, hs := makeEnv(t, "Hopper-v4", map[string]any{"healthy_z_range": []any{0.7, math.Inf(1)}, "ctrl_cost_weight": 2}, 1)
	h.Reset()
	r := h.Step([]float32{1, 1, 1})
	_, info := observe(h, hs)
	if want := infoOf(t, hs, info, "x_velocity") + 1 - 2*3; math.Abs(float64(r.Reward)-want) > 1e-5 {
		t.Errorf("Hopper with ctrl_cost_weight 2: reward %v, want x_velocity + 1 - 6 = %v", r.Reward, want)
	}
	bad := []map[string]any{
		{"no_such_option": 1},
		{"healthy_z_range": []any{1.0}},
		{"healthy_z_range": []any{1.0, 0.5}},
		{"healthy_z_range": "tall"},
		{"ctrl_cost_weight": -1.0},
		{"use_contact_forces": "yes"},
		{"healthy_angle_range": []any{-1.0, 1.0}}, // Hopper's, not Ant's
		{"xml_file": "/nonexistent/ant.xml"},
	}
	for _, o := range bad {
		if _, err := envs.SpecOf("Ant-v4", o); err == nil {
			t.Errorf("Ant-v4 options %v: no error", o)
		} else {
			t.Logf("%v: %v", o, err)
		}
	}
	if _, err := envs.SpecOf("Reacher-v4", map[string]any{"ctrl_cost_weight": 1.0}); err == nil {
		t.Error("Reacher-v4 takes no options but accepted ctrl_cost_weight")
	}
}

// TestFaultEndsOnlyThatEpisode forces a real MuJoCo error (a stack overflow in mj_step)
// and an instability (a huge qvel, which MuJoCo rejects and resets) in single envs of a
// pool: each ends only that env's episode as truncated with the reason in info, the
// process and the other envs carry on, and the env's next episode runs normally.
func TestFaultEndsOnlyThatEpisode(t *testing.T) {
	requireMuJoCo(t)
	for _, mode := range []struct {
		name string
		code int
		do   func(e *Env)
	}{
		{"mujoco error", FaultMuJoCo, func(e *Env) {
			nstack := *(*int32)(unsafe.Add(e.d.p, offD_nstack))
			*(*int32)(unsafe.Add(e.d.p, offD_pstack)) = nstack // no stack left: mj_step calls mju_error
		}},
		{"instability", FaultUnstable, func(e *Env) { e.d.Qvel[6] = 1e30 }},
	} {
		pool, err := envs.Make("Ant-v4", envs.Options{Options: envpool.Options{NumEnvs: 4, NumThreads: 2, Seed: 1}})
		if err != nil {
			t.Fatal(err)
		}
		spec := pool.Spec()
		errCol := spec.InfoIndex("error")
		if _, err := pool.Reset(); err != nil {
			t.Fatal(err)
		}
		actions := make([]float32, 4*8)
		for step := range 6 {
			if step == 2 {
				mode.do(pool.Env(1).(*Env))
			}
			b, err := pool.Step(actions, nil)
			if err != nil {
				t.Fatalf("%s: step %d: %v", mode.name, step, err)
			}
			for row := range b.Size {
				id := b.EnvID[row]
				code := b.Info[row*b.InfoSize+errCol]
				faulted := id == 1 && step == 2
				switch {
				case faulted && (!b.Truncated[row] || b.Terminated[row] || int(code) != mode.code):
					t.Fatalf("%s: env 1 truncated %v terminated %v error %v; want truncated with error %d", mode.name, b.Truncated[row], b.Terminated[row], code, mode.code)
				case !faulted && (b.Truncated[row] || code != 0):
					t.Fatalf("%s: step %d env %d truncated %v error %v; only env 1 at step 2 should fault", mode.name, step, id, b.Truncated[row], code)
				case id == 1 && step == 3 && !b.First[row]:
					t.Fatalf("%s: env 1 did not start a new episode after the fault", mode.name)
				}
				for _, v := range b.RowF32(row) {
					if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
						t.Fatalf("%s: non-finite observation in env %d", mode.name, id)
					}
				}
			}
			if step == 2 {
				code, msg := pool.Env(1).(*Env).LastFault()
				if code != mode.code || msg == "" {
					t.Fatalf("%s: LastFault() = %d %q", mode.name, code, msg)
				}
				t.Logf("%s: %s", mode.name, msg)
			}
		}
		if err := pool.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMissingLibraryNamesPackage runs the test binary again with the library pointed at
// a missing file and checks the error tells the user which Debian package to install.
func TestMissingLibraryNamesPackage(t *testing.T) {
	if os.Getenv("RLPOOL_MUJOCO_LOAD_CHILD") == "1" {
		if err := Load(); err != nil {
			os.Stdout.WriteString("LOAD ERROR: " + err.Error() + "\n")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMissingLibraryNamesPackage$", "-test.v")
	cmd.Env = append(os.Environ(), "RLPOOL_MUJOCO_LOAD_CHILD=1", LibraryEnv+"=/nonexistent/libmujoco.so.2.2.2")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	s := string(out)
	if !strings.Contains(s, "LOAD ERROR:") || !strings.Contains(s, "apt-get install "+LibraryPackage) {
		t.Fatalf("error does not name the Debian package %s:\n%s", LibraryPackage, s)
	}
}

// TestModelErrors: a model that does not compile is an error, not an exit.
func TestModelErrors(t *testing.T) {
	requireMuJoCo(t)
	if _, err := LoadModelXML("broken.xml", []byte("<mujoco><worldbody><body>")); err == nil {
		t.Error("broken XML loaded")
	}
	if _, err := LoadModelXML("empty.xml", nil); err == nil {
		t.Error("empty model loaded")
	}
	m, err := LoadModelXML("ball.xml", []byte(`<mujoco><worldbody><body name="ball"><freejoint/><geom size=".1"/></body></worldbody></mujoco>`))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if _, err := m.ID(mjOBJ_BODY, "nope"); err == nil {
		t.Error("missing body name gave no error")
	}
	if m.NQ != 7 || m.NV != 6 {
		t.Errorf("ball nq %d nv %d, want 7 6", m.NQ, m.NV)
	}
	// The exported Data calls return MuJoCo's errors instead of panicking or exiting.
	d, err := NewData(m)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	*(*int32)(unsafe.Add(d.p, offD_pstack)) = *(*int32)(unsafe.Add(d.p, offD_nstack))
	var me *Error
	if err := d.Step(); !errors.As(err, &me) {
		t.Fatalf("mj_step without stack: error %v, want a *mujoco.Error", err)
	}
	if err := d.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := d.Step(); err != nil || d.Time() <= 0 {
		t.Fatalf("mj_step after reset: %v, time %v", err, d.Time())
	}
}

// TestWrongActionLength is truncated with an error code rather than a panic.
func TestWrongActionLength(t *testing.T) {
	requireMuJoCo(t)
	e, spec := makeEnv(t, "Hopper-v4", nil, 1)
	e.Reset()
	r := e.Step([]float32{1})
	_, info := observe(e, spec)
	if !r.Truncated || infoOf(t, spec, info, "error") != FaultBadAction {
		t.Fatalf("short action: %+v info %v", r, info)
	}
}

// TestRunTestspeed runs Debian's mujoco-testspeed briefly on the embedded Ant model.
func TestRunTestspeed(t *testing.T) {
	if _, err := exec.LookPath(TestspeedProgram); err != nil {
		t.Skipf("needs %s from Debian's libmujoco-samples: %v", TestspeedProgram, err)
	}
	res, err := RunTestspeed(t.Context(), "Ant-v4", 200, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if res.MjStepRate <= 0 || res.FrameSkip != 5 || res.EnvStepRate != res.MjStepRate/5 {
		t.Fatalf("testspeed result %+v", res)
	}
	t.Logf("%v: %.0f mj_step/s = %.0f env steps/s", res.Command, res.MjStepRate, res.EnvStepRate)
}

// TestPoolThreadsDoNotChangeTrajectories steps the same seeds in a one-thread and a
// two-thread pool sharing one model: every row must be identical.
func TestPoolThreadsDoNotChangeTrajectories(t *testing.T) {
	requireMuJoCo(t)
	run := func(threads int) [][]float32 {
		pool, err := envs.Make("Hopper-v4", envs.Options{Options: envpool.Options{NumEnvs: 4, NumThreads: threads, Seed: 10}})
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		rng := rand.New(rand.NewPCG(3, 3))
		actions := make([]float32, 4*3)
		var rows [][]float32
		b, err := pool.Reset()
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			rows = append(rows, slices.Clone(b.ObsF32), slices.Clone(b.Reward))
			for i := range actions {
				actions[i] = float32(rng.Float64()*2 - 1)
			}
			if b, err = pool.Step(actions, nil); err != nil {
				t.Fatal(err)
			}
		}
		return rows
	}
	one, two := run(1), run(2)
	for i := range one {
		if !slices.Equal(one[i], two[i]) {
			t.Fatalf("row %d differs between 1 and 2 threads", i/2)
		}
	}
}

// TestObservationOptionErrors: bad pixel and stacking options are errors naming the
// option, on v4 and v5 tasks alike.
func TestObservationOptionErrors(t *testing.T) {
	requireMuJoCo(t)
	type bad struct {
		id, want string
		opts     map[string]any
	}
	for _, c := range []bad{
		{"Ant-v4", "option pixels_size = 0 is out of range", map[string]any{"from_pixels": true, "pixels_size": 0}},
		{"Ant-v5", "option frame_stack = 0 is out of range", map[string]any{"frame_stack": 0}},
		{"Hopper-v4", "option camera_id = 7: the model has 1 cameras", map[string]any{"from_pixels": true, "camera_id": 7}},
		{"Reacher-v5", "option camera_id = -2 is out of range", map[string]any{"from_pixels": true, "camera_id": -2}},
		{"Ant-v4", "option pixels_size: takes effect only with from_pixels = true", map[string]any{"pixels_size": 64}},
		{"Swimmer-v5", "option camera_id: takes effect only with from_pixels = true", map[string]any{"camera_id": 0}},
		{"Pusher-v4", "option from_pixels", map[string]any{"from_pixels": "yes"}},
		{"Reacher-v4", "option camera_id = 0: the model has no cameras", map[string]any{"from_pixels": true, "camera_id": 0}},
	} {
		_, _, err := envs.MakeEnv(c.id, c.opts, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.id) {
			t.Errorf("%s %v: error %v, want one naming the task and %q", c.id, c.opts, err, c.want)
		}
	}
}
