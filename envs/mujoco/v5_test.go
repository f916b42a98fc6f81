package mujoco

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// The v5 tests check each task's v5 rules against values computed by hand from the
// simulator state (env.Data()), and each v5 option against what it should change.

// v5IDs are the eleven v5 tasks.
var v5IDs = []string{"Ant-v5", "HalfCheetah-v5", "Hopper-v5", "Walker2d-v5", "Humanoid-v5", "HumanoidStandup-v5",
	"Swimmer-v5", "InvertedPendulum-v5", "InvertedDoublePendulum-v5", "Reacher-v5", "Pusher-v5"}

// randomAction fills a with uniform values over 1.5 times the action space, so that
// costs on the raw (unclipped) action are exercised.
func randomAction(rng *rand.Rand, spec envpool.Spec, a []float32) {
	for i := range a {
		lo, hi := float64(spec.ActionSpace.Low[i]), float64(spec.ActionSpace.High[i])
		mid, half := (lo+hi)/2, 0.75*(hi-lo)
		a[i] = float32(mid - half + 2*half*rng.Float64())
	}
}

// near fails the test when got and want differ by more than a float32 rounding.
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 2e-6*max(1, math.Abs(want)) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// requireRunnerTerms checks the reward terms Ant-v5 and Humanoid-v5 share: the
// velocities, the four weighted terms in info, and reward = forward + survive - ctrl -
// contact.
func requireRunnerTerms(t *testing.T, spec envpool.Spec, info []float32, reward float32, vx, vy, forward, ctrl, contact, survive float64) {
	t.Helper()
	nearInfo(t, spec, info, map[string]float64{"x_velocity": vx, "y_velocity": vy, "reward_forward": forward,
		"reward_ctrl": -ctrl, "reward_contact": -contact, "reward_survive": survive})
	near(t, "reward", float64(reward), forward+survive-ctrl-contact)
}

// nearInfo checks info columns against hand-computed values, as near does.
func nearInfo(t *testing.T, spec envpool.Spec, info []float32, want map[string]float64) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(want)) {
		near(t, k, infoOf(t, spec, info, k), want[k])
	}
}

// sameF32 fails the test unless obs equals the float64 values as float32, exactly.
func sameF32(t *testing.T, what string, obs []float32, want ...float64) {
	t.Helper()
	if len(obs) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(obs), len(want))
	}
	for i, w := range want {
		if obs[i] != float32(w) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, obs[i], float32(w))
		}
	}
}

func clipped(v []float64, lo, hi float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = min(max(x, lo), hi)
	}
	return out
}

func cat(parts ...[]float64) []float64 { return slices.Concat(parts...) }

// requireSameRun resets x and y, steps both with the same random actions (resetting
// both when x's episode ends) and fails unless every step's result, observation and
// info are identical.
func requireSameRun(t *testing.T, what string, x, y *Env, spec envpool.Spec, steps int) {
	t.Helper()
	x.Reset()
	y.Reset()
	rng := rand.New(rand.NewPCG(21, 21))
	a := make([]float32, spec.ActionSpace.Size())
	for n := range steps {
		randomAction(rng, spec, a)
		r1, r2 := x.Step(a), y.Step(a)
		o1, i1 := observe(x, spec)
		o2, i2 := observe(y, spec)
		if r1 != r2 || !slices.Equal(o1, o2) || !slices.Equal(i1, i2) {
			t.Fatalf("%s: step %d differs", what, n)
		}
		if r1.Terminated {
			x.Reset()
			y.Reset()
		}
	}
}

// merged returns the options of a with those of b added.
func merged(a, b map[string]any) map[string]any {
	out := maps.Clone(a)
	if out == nil {
		out = map[string]any{}
	}
	maps.Copy(out, b)
	return out
}

// TestV5Spaces checks each v5 task's spaces, limits, info keys and default model
// against Gymnasium 1.x's v5 classes, with the options that change the observation.
func TestV5Spaces(t *testing.T) {
	requireMuJoCo(t)
	antKeys := []string{"x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity",
		"reward_forward", "reward_ctrl", "reward_contact", "reward_survive"}
	walkerKeys := []string{"x_position", "z_distance_from_origin", "x_velocity", "reward_forward", "reward_ctrl", "reward_survive"}
	humanoidKeys := []string{"x_position", "y_position", "tendon_length_0", "tendon_length_1", "tendon_velocity_0",
		"tendon_velocity_1", "distance_from_origin", "x_velocity", "y_velocity", "reward_survive", "reward_forward",
		"reward_ctrl", "reward_contact"}
	standupKeys := []string{"x_position", "y_position", "z_distance_from_origin", "tendon_length_0", "tendon_length_1",
		"tendon_velocity_0", "tendon_velocity_1", "reward_linup", "reward_quadctrl", "reward_impact"}
	off := false
	tests := []struct {
		id               string
		opts             map[string]any
		obs, act         int
		frameSkip, limit int
		threshold        float64
		model            string
		infoKeys         []string
	}{
		{"Ant-v5", nil, 105, 8, 5, 1000, 6000, "ant.xml", antKeys},
		{"Ant-v5", map[string]any{excludeKey: off}, 107, 8, 5, 1000, 6000, "ant.xml", antKeys},
		{"Ant-v5", map[string]any{cfrcKey: off}, 27, 8, 5, 1000, 6000, "ant.xml", antKeys},
		{"Ant-v5", map[string]any{cfrcKey: off, excludeKey: off}, 29, 8, 5, 1000, 6000, "ant.xml", antKeys},
		{"HalfCheetah-v5", nil, 17, 6, 5, 1000, 4800, "half_cheetah.xml", []string{"x_position", "x_velocity", "reward_forward", "reward_ctrl"}},
		{"HalfCheetah-v5", map[string]any{excludeKey: off}, 18, 6, 5, 1000, 4800, "half_cheetah.xml", nil},
		{"Hopper-v5", nil, 11, 3, 4, 1000, 3800, "hopper.xml", walkerKeys},
		{"Hopper-v5", map[string]any{excludeKey: off}, 12, 3, 4, 1000, 3800, "hopper.xml", nil},
		{"Walker2d-v5", nil, 17, 6, 4, 1000, math.NaN(), "walker2d_v5.xml", walkerKeys},
		{"Walker2d-v5", map[string]any{excludeKey: off}, 18, 6, 4, 1000, math.NaN(), "walker2d_v5.xml", nil},
		{"Humanoid-v5", nil, 348, 17, 5, 1000, math.NaN(), "humanoid.xml", humanoidKeys},
		{"Humanoid-v5", map[string]any{excludeKey: off}, 350, 17, 5, 1000, math.NaN(), "humanoid.xml", nil},
		{"Humanoid-v5", map[string]any{"include_cinert_in_observation": off}, 218, 17, 5, 1000, math.NaN(), "humanoid.xml", nil},
		{"Humanoid-v5", map[string]any{"include_cvel_in_observation": off}, 270, 17, 5, 1000, math.NaN(), "humanoid.xml", nil},
		{"Humanoid-v5", map[string]any{"include_qfrc_actuator_in_observation": off}, 331, 17, 5, 1000, math.NaN(), "humanoid.xml", nil},
		{"Humanoid-v5", map[string]any{cfrcKey: off}, 270, 17, 5, 1000, math.NaN(), "humanoid.xml", nil},
		{"HumanoidStandup-v5", nil, 348, 17, 5, 1000, math.NaN(), "humanoidstandup.xml", standupKeys},
		{"HumanoidStandup-v5", map[string]any{excludeKey: off, "include_cinert_in_observation": off,
			"include_cvel_in_observation": off, "include_qfrc_actuator_in_observation": off, cfrcKey: off}, 47, 17, 5, 1000, math.NaN(), "humanoidstandup.xml", nil},
		{"Swimmer-v5", nil, 8, 2, 4, 1000, 360, "swimmer.xml", []string{"x_position", "y_position", "distance_from_origin",
			"x_velocity", "y_velocity", "reward_forward", "reward_ctrl"}},
		{"Swimmer-v5", map[string]any{excludeKey: off}, 10, 2, 4, 1000, 360, "swimmer.xml", nil},
		{"InvertedPendulum-v5", nil, 4, 1, 2, 1000, 950, "inverted_pendulum.xml", []string{"reward_survive"}},
		{"InvertedDoublePendulum-v5", nil, 9, 1, 5, 1000, 9100, "inverted_double_pendulum.xml", []string{"reward_survive", "distance_penalty", "velocity_penalty"}},
		{"Reacher-v5", nil, 10, 2, 2, 50, -3.75, "reacher.xml", []string{"reward_dist", "reward_ctrl"}},
		{"Pusher-v5", nil, 23, 7, 5, 100, 0, "pusher_v5.xml", []string{"reward_dist", "reward_ctrl", "reward_near"}},
	}
	seen := map[string]bool{}
	for _, tc := range tests {
		seen[tc.id] = true
		name := fmt.Sprint(tc.id, " ", tc.opts)
		spec, err := envs.SpecOf(tc.id, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := spec.ObsSpace.Shape; len(got) != 1 || got[0] != tc.obs {
			t.Errorf("%s: observation shape %v, want [%d]", name, got, tc.obs)
		}
		if spec.ActionSpace.Size() != tc.act || spec.FrameSkip != tc.frameSkip || spec.MaxEpisodeSteps != tc.limit {
			t.Errorf("%s: %d actions, frame skip %d, limit %d; want %d, %d, %d", name,
				spec.ActionSpace.Size(), spec.FrameSkip, spec.MaxEpisodeSteps, tc.act, tc.frameSkip, tc.limit)
		}
		if math.IsNaN(tc.threshold) != !spec.HasRewardThreshold() || (!math.IsNaN(tc.threshold) && spec.RewardThreshold != tc.threshold) {
			t.Errorf("%s: reward threshold %v, want %v", name, spec.RewardThreshold, tc.threshold)
		}
		if tc.infoKeys != nil && !slices.Equal(spec.InfoKeys, append(slices.Clone(tc.infoKeys), "error", "qpos0", "qvel0")) {
			t.Errorf("%s: info keys %v, want %v, error, qpos0 and qvel0", name, spec.InfoKeys, tc.infoKeys)
		}
		e, _ := makeEnv(t, tc.id, tc.opts, 0)
		if e.m.Name() != tc.model {
			t.Errorf("%s: model %s, want %s", name, e.m.Name(), tc.model)
		}
		requireObservationWritten(t, name, e, spec)
	}
	for _, id := range v5IDs {
		if !seen[id] {
			t.Errorf("%s is not in the table", id)
		}
		if !slices.Contains(TaskIDs(), id) || !slices.Contains(envs.List(), id) {
			t.Errorf("%s is not registered", id)
		}
	}
}

// TestV5Ant checks Ant-v5 step by step against the simulator state: the forward term
// from the main body's (stale) xpos, the control cost on the raw action, the contact
// cost from clipped cfrc_ext (paid although cfrc_ext is in the observation by default,
// unlike v4), the healthy reward only while healthy, positions in info from qpos, and
// the observation's cfrc_ext without the world body. Every weight and range is given a
// non-default value, so each scales its own term.
func TestV5Ant(t *testing.T) {
	requireMuJoCo(t)
	opts := map[string]any{"forward_reward_weight": 2.0, "ctrl_cost_weight": 0.3, "contact_cost_weight": 0.01,
		"healthy_reward": 0.7, "contact_force_range": []any{-0.5, 0.5}, "main_body": "torso",
		"healthy_z_range": []any{0.3, 0.9}}
	e, spec := makeEnv(t, "Ant-v5", opts, 4)
	e.Reset()
	obs, _ := observe(e, spec)
	if sumSquares(f64(obs[27:])) != 0 {
		t.Fatal("reset observation has non-zero cfrc_ext (mj_rnePostConstraint must not run at reset)")
	}
	torso := mustID(t, e.m, "torso")
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]float32, 8)
	contacts, unhealthy := 0, 0
	for n := range 300 {
		randomAction(rng, spec, a)
		x0, y0 := e.d.Xpos[3*torso], e.d.Xpos[3*torso+1]
		r := e.Step(a)
		obs, info := observe(e, spec)
		q, d := e.d.Qpos, e.d
		x1, y1 := d.Xpos[3*torso], d.Xpos[3*torso+1]
		healthy := 0.3 <= q[2] && q[2] <= 0.9
		forward := 2 * (x1 - x0) / 0.05
		ctrl := 0.3 * ctrlCost(a)
		contact := 0.01 * sumSquares(clipped(d.CfrcExt, -0.5, 0.5))
		survive := 0.0
		if healthy {
			survive = 0.7
		} else {
			unhealthy++
		}
		if contact > 0 {
			contacts++
		}
		requireRunnerTerms(t, spec, info, r.Reward, (x1-x0)/0.05, (y1-y0)/0.05, forward, ctrl, contact, survive)
		sameF32(t, "info positions", info[:3], q[0], q[1], math.Sqrt(q[0]*q[0]+q[1]*q[1]))
		sameF32(t, "observation", obs, cat(q[2:], d.Qvel, clipped(d.CfrcExt[6:], -0.5, 0.5))...)
		if r.Terminated == healthy {
			t.Fatalf("step %d: terminated %v with torso height %v", n, r.Terminated, q[2])
		}
		if r.Terminated {
			e.Reset()
		}
	}
	if contacts == 0 || unhealthy == 0 {
		t.Fatalf("%d steps with contact forces, %d unhealthy: the run did not exercise the contact cost and the health rule", contacts, unhealthy)
	}
}

// TestV5AntOptions: main_body by id and by name pick the same body, another body
// moves the forward term to that body; include_cfrc_ext_in_observation=false leaves
// the contact cost in the reward; terminate_when_unhealthy=false never ends the
// episode; use_contact_forces (v4 only) is an error naming what replaced it.
func TestV5AntOptions(t *testing.T) {
	requireMuJoCo(t)
	byID, spec := makeEnv(t, "Ant-v5", map[string]any{"main_body": int64(1)}, 9)
	byName, _ := makeEnv(t, "Ant-v5", nil, 9) // main_body defaults to 1, the torso
	// aux_1 by name: a body whose frame origin is off the torso's (the leg bodies'
	// frames sit on the torso's).
	leg, _ := makeEnv(t, "Ant-v5", map[string]any{"main_body": "aux_1"}, 9)
	noCfrc, nspec := makeEnv(t, "Ant-v5", map[string]any{cfrcKey: false}, 9)
	for _, e := range []*Env{byID, byName, leg, noCfrc} {
		e.Reset()
	}
	legID := mustID(t, leg.m, "aux_1")
	differs := false
	rng := rand.New(rand.NewPCG(3, 4))
	a := make([]float32, 8)
	for n := range 60 {
		randomAction(rng, spec, a)
		x0 := leg.d.Xpos[3*legID]
		rID, rName, rNo := byID.Step(a), byName.Step(a), noCfrc.Step(a)
		leg.Step(a)
		oID, iID := observe(byID, spec)
		oName, iName := observe(byName, spec)
		_, iLeg := observe(leg, spec)
		oNo, iNo := observe(noCfrc, nspec)
		if rID != rName || !slices.Equal(oID, oName) || !slices.Equal(iID, iName) {
			t.Fatalf("step %d: main_body 1 and the default differ", n)
		}
		near(t, "aux_1 x_velocity", infoOf(t, spec, iLeg, "x_velocity"), (leg.d.Xpos[3*legID]-x0)/0.05)
		differs = differs || infoOf(t, spec, iLeg, "x_velocity") != infoOf(t, spec, iID, "x_velocity")
		if rNo != rID || !slices.Equal(iNo, iID) || !slices.Equal(oNo, oID[:27]) {
			t.Fatalf("step %d: without cfrc_ext in the observation the reward, info or the rest of the observation changed", n)
		}
		if rID.Terminated {
			if n < 20 {
				t.Fatalf("the ant fell at step %d, too early to compare the options", n)
			}
			break
		}
	}
	if !differs {
		t.Error("main_body aux_1 gave the torso's velocities")
	}
	never, nspec2 := makeEnv(t, "Ant-v5", map[string]any{"terminate_when_unhealthy": false, "healthy_z_range": []any{2.0, 3.0}}, 1)
	never.Reset()
	for range 20 {
		r := never.Step(make([]float32, 8))
		_, info := observe(never, nspec2)
		if r.Terminated || infoOf(t, nspec2, info, "reward_survive") != 0 {
			t.Fatalf("unhealthy ant without termination: %+v, reward_survive %v", r, infoOf(t, nspec2, info, "reward_survive"))
		}
	}
	_, err := envs.SpecOf("Ant-v5", map[string]any{"use_contact_forces": true})
	if err == nil || !strings.Contains(err.Error(), cfrcKey) || !strings.Contains(err.Error(), "contact_cost_weight") {
		t.Errorf("use_contact_forces on Ant-v5: %v; want an error naming its replacements", err)
	}
	for _, mb := range []any{"no_such_body", int64(14), int64(-1), 1.5, true} {
		if _, err := envs.SpecOf("Ant-v5", map[string]any{"main_body": mb}); err == nil || !strings.Contains(err.Error(), "main_body") {
			t.Errorf("main_body %v: %v, want an error naming main_body", mb, err)
		}
	}
}

// TestV5HealthyRewardOnlyWhileHealthy: on the step that ends an episode by the health
// rule, v4 pays the healthy reward and v5 does not. A height range the body is never
// inside ends the first step of both.
func TestV5HealthyRewardOnlyWhileHealthy(t *testing.T) {
	requireMuJoCo(t)
	for _, tc := range []struct {
		name   string
		zRange []any
		bonus  float64
		v5     map[string]any // makes v5's physics and other terms v4's
	}{
		{"Ant", []any{2.0, 3.0}, 1, map[string]any{"contact_cost_weight": 0.0, cfrcKey: false}},
		{"Hopper", []any{5.0, math.Inf(1)}, 1, nil},
		{"Walker2d", []any{5.0, 6.0}, 1, map[string]any{"xml_file": "walker2d.xml"}},
		{"Humanoid", []any{3.0, 4.0}, 5, map[string]any{"contact_cost_weight": 0.0}},
	} {
		opts := map[string]any{"healthy_z_range": tc.zRange}
		v4, _ := makeEnv(t, tc.name+"-v4", opts, 2)
		v5, spec5 := makeEnv(t, tc.name+"-v5", merged(opts, tc.v5), 2)
		v4.Reset()
		v5.Reset()
		zero := make([]float32, spec5.ActionSpace.Size())
		r4, r5 := v4.Step(zero), v5.Step(zero)
		if !r4.Terminated || !r5.Terminated {
			t.Fatalf("%s: terminated v4 %v v5 %v, want both", tc.name, r4.Terminated, r5.Terminated)
		}
		_, info := observe(v5, spec5)
		if s := infoOf(t, spec5, info, "reward_survive"); s != 0 {
			t.Errorf("%s-v5: reward_survive %v on the terminating step, want 0", tc.name, s)
		}
		// Same seed, same zero action, same physics: the rewards differ by the bonus.
		near(t, tc.name+" v4 - v5 reward", float64(r4.Reward)-float64(r5.Reward), tc.bonus)
	}
}

// TestV5PlanarWalkers checks Hopper-v5 and Walker2d-v5 against the state: the forward
// and control terms with non-default weights, the healthy reward only while healthy
// (strict ranges), z_distance_from_origin from qpos[1] and qpos0, the observation, and
// the health options one at a time.
func TestV5PlanarWalkers(t *testing.T) {
	requireMuJoCo(t)
	for _, tc := range []struct {
		id          string
		health      func(q, v []float64) bool
		checksState bool
	}{
		{"Hopper-v5", func(q, v []float64) bool {
			for _, x := range cat(q[2:], v) {
				if !(-100 < x && x < 100) {
					return false
				}
			}
			return 0.7 < q[1] && -0.2 < q[2] && q[2] < 0.2
		}, true},
		{"Walker2d-v5", func(q, v []float64) bool { return 0.8 < q[1] && q[1] < 2 && -1 < q[2] && q[2] < 1 }, false},
	} {
		opts := map[string]any{"forward_reward_weight": 1.5, "ctrl_cost_weight": 0.01, "healthy_reward": 2.0}
		e, spec := makeEnv(t, tc.id, opts, 6)
		e.Reset()
		_, info := observe(e, spec)
		sameF32(t, tc.id+" reset info", info[:2], e.d.Qpos[0], e.d.Qpos[1]-1.25)
		rng := rand.New(rand.NewPCG(6, 6))
		a := make([]float32, spec.ActionSpace.Size())
		ends, dt := 0, 0.008
		for n := 0; n < 400; n++ {
			randomAction(rng, spec, a)
			x0 := e.d.Qpos[0]
			r := e.Step(a)
			obs, info := observe(e, spec)
			q := e.d.Qpos
			healthy := tc.health(q, e.d.Qvel)
			forward := 1.5 * (q[0] - x0) / dt
			survive := 0.0
			if healthy {
				survive = 2
			}
			nearInfo(t, spec, info, map[string]float64{
				"reward_forward": forward,
				"reward_ctrl":    -0.01 * ctrlCost(a),
				"reward_survive": survive,
			})
			near(t, "reward", float64(r.Reward), forward+survive-0.01*ctrlCost(a))
			sameF32(t, "state info", info[:3], q[0], q[1]-e.m.Qpos0[1], (q[0]-x0)/dt)
			sameF32(t, "observation", obs, cat(q[1:], clipped(e.d.Qvel, -10, 10))...)
			if r.Terminated == healthy {
				t.Fatalf("%s step %d: terminated %v, healthy %v", tc.id, n, r.Terminated, healthy)
			}
			if r.Terminated {
				ends++
				e.Reset()
			}
		}
		if ends == 0 {
			t.Fatalf("%s never terminated in 400 random steps: the health rule was not exercised", tc.id)
		}
		// Each health option on its own: a range the reset state is outside of ends the
		// first step.
		bad := map[string]any{
			"healthy_z_range":     []any{1.3, math.Inf(1)},
			"healthy_angle_range": []any{0.1, 0.2},
		}
		if tc.checksState {
			bad["healthy_state_range"] = []any{-1e-4, 1e-4}
		}
		for k, v := range bad {
			for _, terminate := range []bool{true, false} {
				e, spec := makeEnv(t, tc.id, map[string]any{k: v, "terminate_when_unhealthy": terminate}, 6)
				e.Reset()
				r := e.Step(make([]float32, spec.ActionSpace.Size()))
				_, info := observe(e, spec)
				if r.Terminated != terminate || infoOf(t, spec, info, "reward_survive") != 0 {
					t.Errorf("%s %s=%v terminate %v: terminated %v, reward_survive %v", tc.id, k, v, terminate, r.Terminated, infoOf(t, spec, info, "reward_survive"))
				}
			}
		}
	}
	if _, err := envs.SpecOf("Walker2d-v5", map[string]any{"healthy_state_range": []any{-1.0, 1.0}}); err == nil {
		t.Error("Walker2d-v5 accepted Hopper's healthy_state_range")
	}
}

// TestV5Walker2dModel: v5's model gives both feet friction 1.9 (v4's right foot has
// 0.9); xml_file "walker2d.xml" brings back v4's model, under v5's rules.
func TestV5Walker2dModel(t *testing.T) {
	requireMuJoCo(t)
	friction := func(e *Env, geom string) float64 {
		id, err := e.m.ID(mjOBJ_GEOM, geom)
		if err != nil {
			t.Fatal(err)
		}
		return e.m.float64s(offM_geom_friction, 3*e.m.int(offM_ngeom))[3*id]
	}
	v5, spec := makeEnv(t, "Walker2d-v5", nil, 1)
	old, _ := makeEnv(t, "Walker2d-v5", map[string]any{"xml_file": "walker2d.xml"}, 1)
	v4, _ := makeEnv(t, "Walker2d-v4", nil, 1)
	if f, g := friction(v5, "foot_geom"), friction(v5, "foot_left_geom"); f != 1.9 || g != 1.9 {
		t.Errorf("Walker2d-v5 foot friction %v and %v, want 1.9 and 1.9", f, g)
	}
	if f, g := friction(old, "foot_geom"), friction(v4, "foot_geom"); f != 0.9 || g != 0.9 {
		t.Errorf("walker2d.xml right foot friction %v (as xml_file) and %v (v4), want 0.9", f, g)
	}
	// The friction changes the trajectory once the right foot pushes sideways on the
	// floor (small actions keep the walker up long enough).
	v5.Reset()
	old.Reset()
	rng := rand.New(rand.NewPCG(2, 2))
	a := make([]float32, 6)
	diverged := false
	for range 300 {
		randomAction(rng, spec, a)
		for i := range a {
			a[i] *= 0.3
		}
		r5, r4 := v5.Step(a), old.Step(a)
		o5, _ := observe(v5, spec)
		o4, _ := observe(old, spec)
		if diverged = !slices.Equal(o5, o4); diverged || r5.Terminated || r4.Terminated {
			break
		}
	}
	if !diverged {
		t.Error("Walker2d-v5 with walker2d_v5.xml and walker2d.xml ran the same trajectory")
	}
}

// TestV5SameAsV4: HalfCheetah and Swimmer keep v4's dynamics, observation and reward
// in v5 (only info changes), as Gymnasium notes; Hopper keeps them except on the step
// that ends an episode, which v5 does not reward.
func TestV5SameAsV4(t *testing.T) {
	requireMuJoCo(t)
	for _, name := range []string{"HalfCheetah", "Swimmer", "Hopper"} {
		v4, spec4 := makeEnv(t, name+"-v4", nil, 8)
		v5, spec5 := makeEnv(t, name+"-v5", nil, 8)
		v4.Reset()
		v5.Reset()
		rng := rand.New(rand.NewPCG(8, 8))
		a := make([]float32, spec5.ActionSpace.Size())
		for n := range 200 {
			randomAction(rng, spec5, a)
			r4, r5 := v4.Step(a), v5.Step(a)
			o4, i4 := observe(v4, spec4)
			o5, i5 := observe(v5, spec5)
			if !slices.Equal(o4, o5) || r4.Terminated != r5.Terminated {
				t.Fatalf("%s step %d: v4 and v5 observations or endings differ", name, n)
			}
			if r4.Terminated {
				near(t, name+" terminating v4 - v5 reward", float64(r4.Reward-r5.Reward), 1)
				break
			}
			if r4.Reward != r5.Reward {
				t.Fatalf("%s step %d: reward v4 %v, v5 %v", name, n, r4.Reward, r5.Reward)
			}
			if infoOf(t, spec4, i4, "x_velocity") != infoOf(t, spec5, i5, "x_velocity") {
				t.Fatalf("%s step %d: x_velocity differs", name, n)
			}
		}
	}
}

// TestV5HalfCheetahAndSwimmer checks the renamed reward_forward key, the weights and
// the reset info of the two tasks that never terminate.
func TestV5HalfCheetahAndSwimmer(t *testing.T) {
	requireMuJoCo(t)
	for _, tc := range []struct {
		id  string
		dt  float64
		dim int // position coordinates in info: x, or x and y
	}{{"HalfCheetah-v5", 0.05, 1}, {"Swimmer-v5", 0.04, 2}} {
		e, spec := makeEnv(t, tc.id, map[string]any{"forward_reward_weight": 3.0, "ctrl_cost_weight": 0.2, excludeKey: false}, 5)
		e.Reset()
		obs, info := observe(e, spec)
		q := e.d.Qpos
		if tc.dim == 1 {
			sameF32(t, tc.id+" reset info", info[:1], q[0])
		} else {
			sameF32(t, tc.id+" reset info", info[:3], q[0], q[1], math.Sqrt(q[0]*q[0]+q[1]*q[1]))
		}
		sameF32(t, tc.id+" reset observation", obs, cat(q, e.d.Qvel)...)
		rng := rand.New(rand.NewPCG(5, 5))
		a := make([]float32, spec.ActionSpace.Size())
		for range 100 {
			randomAction(rng, spec, a)
			x0 := e.d.Qpos[0]
			r := e.Step(a)
			_, info := observe(e, spec)
			forward := 3 * (e.d.Qpos[0] - x0) / tc.dt
			nearInfo(t, spec, info, map[string]float64{
				"reward_forward": forward,
				"reward_ctrl":    -0.2 * ctrlCost(a),
			})
			near(t, "reward", float64(r.Reward), forward-0.2*ctrlCost(a))
			if r.Terminated {
				t.Fatalf("%s terminated", tc.id)
			}
		}
	}
}

// humanoidTendons computes the humanoid's two fixed tendons by hand from the model
// file's coefficients: each is knee angle minus hip_y angle, for length and velocity.
func humanoidTendons(t *testing.T, e *Env) []float64 {
	joint := func(name string) (int, int) {
		id, err := e.m.ID(mjOBJ_JOINT, name)
		if err != nil {
			t.Fatal(err)
		}
		return 7 + id - 1, 6 + id - 1 // after the free root joint, each joint is a hinge
	}
	lh, lhv := joint("left_hip_y")
	lk, lkv := joint("left_knee")
	rh, rhv := joint("right_hip_y")
	rk, rkv := joint("right_knee")
	q, v := e.d.Qpos, e.d.Qvel
	return []float64{q[lk] - q[lh], q[rk] - q[rh], v[lkv] - v[lhv], v[rkv] - v[rhv]}
}

// TestV5Humanoid checks Humanoid-v5 against the state: the centre-of-mass forward
// term, the control cost, the restored contact cost clipped by contact_cost_range, the
// healthy reward only while healthy, info positions from qpos and the tendons, and the
// observation without the world body's rows and the root's actuator forces.
func TestV5Humanoid(t *testing.T) {
	requireMuJoCo(t)
	opts := map[string]any{"forward_reward_weight": 2.0, "ctrl_cost_weight": 0.3, "contact_cost_weight": 1e-4,
		"contact_cost_range": []any{0.125, 0.75}, "healthy_reward": 3.0, "healthy_z_range": []any{1.0, 2.0}}
	e, spec := makeEnv(t, "Humanoid-v5", opts, 3)
	e.Reset()
	_, info := observe(e, spec)
	q := e.d.Qpos
	sameF32(t, "reset info", info[:7], cat([]float64{q[0], q[1]}, humanoidTendons(t, e), []float64{math.Sqrt(q[0]*q[0] + q[1]*q[1])})...)
	rng := rand.New(rand.NewPCG(7, 7))
	a := make([]float32, 17)
	clippedLow, clippedHigh, ends := 0, 0, 0
	for n := 0; n < 300; n++ {
		randomAction(rng, spec, a)
		x0, y0 := massCenter(e)
		r := e.Step(a)
		obs, info := observe(e, spec)
		d := e.d
		q := d.Qpos
		x1, y1 := massCenter(e)
		forward := 2 * (x1 - x0) / 0.015
		ctrl := 0.3 * sumSquares(d.Ctrl)
		raw := 1e-4 * sumSquares(d.CfrcExt)
		contact := min(max(raw, 0.125), 0.75)
		clippedLow += boolInt(raw < 0.125)
		clippedHigh += boolInt(raw > 0.75)
		healthy := 1 < q[2] && q[2] < 2
		survive := 3 * float64(boolInt(healthy))
		requireRunnerTerms(t, spec, info, r.Reward, (x1-x0)/0.015, (y1-y0)/0.015, forward, ctrl, contact, survive)
		l, v := tendons(e)
		sameF32(t, "info state", info[:7], cat([]float64{q[0], q[1]}, l, v, []float64{math.Sqrt(q[0]*q[0] + q[1]*q[1])})...)
		sameF32(t, "observation", obs, cat(q[2:], d.Qvel, d.Cinert[10:], d.Cvel[6:], d.QfrcActuator[6:], d.CfrcExt[6:])...)
		if r.Terminated == healthy {
			t.Fatalf("step %d: terminated %v at height %v", n, r.Terminated, q[2])
		}
		if r.Terminated {
			ends++
			e.Reset()
		}
	}
	if clippedLow == 0 || clippedHigh == 0 || ends == 0 {
		t.Fatalf("contact cost below the range %d times, above it %d times, %d falls: the range and health rule were not exercised", clippedLow, clippedHigh, ends)
	}
}

// TestV5HumanoidObservationParts: each include_*_in_observation=false removes exactly
// its part, the others keep their content.
func TestV5HumanoidObservationParts(t *testing.T) {
	requireMuJoCo(t)
	for _, id := range []string{"Humanoid-v5", "HumanoidStandup-v5"} {
		parts := []string{"include_cinert_in_observation", "include_cvel_in_observation", "include_qfrc_actuator_in_observation", cfrcKey}
		for drop := -1; drop < len(parts); drop++ {
			opts := map[string]any{excludeKey: false}
			if drop >= 0 {
				opts[parts[drop]] = false
			}
			e, spec := makeEnv(t, id, opts, 2)
			e.Reset()
			for range 3 {
				e.Step(make([]float32, 17))
			}
			obs, _ := observe(e, spec)
			d := e.d
			want := [][]float64{d.Qpos, d.Qvel}
			for i, p := range [][]float64{d.Cinert[10:], d.Cvel[6:], d.QfrcActuator[6:], d.CfrcExt[6:]} {
				if i != drop {
					want = append(want, p)
				}
			}
			sameF32(t, fmt.Sprint(id, opts), obs, cat(want...)...)
		}
	}
}

// TestV5HumanoidStandup checks the reward terms with non-default weights and range,
// that uph_cost_weight changes nothing (Gymnasium's v5 never applies it), the info
// state columns and the reset noise.
func TestV5HumanoidStandup(t *testing.T) {
	requireMuJoCo(t)
	opts := map[string]any{"ctrl_cost_weight": 0.2, "impact_cost_weight": 1e-4, "impact_cost_range": []any{math.Inf(-1), 0.25}, "uph_cost_weight": 3.0}
	e, spec := makeEnv(t, "HumanoidStandup-v5", opts, 1)
	plain, pspec := makeEnv(t, "HumanoidStandup-v5", map[string]any{"ctrl_cost_weight": 0.2, "impact_cost_weight": 1e-4, "impact_cost_range": []any{math.Inf(-1), 0.25}}, 1)
	e.Reset()
	plain.Reset()
	_, info := observe(e, spec)
	q := e.d.Qpos
	sameF32(t, "reset info", info[:7], cat([]float64{q[0], q[1], q[2] - e.m.Qpos0[2]}, humanoidTendons(t, e))...)
	rng := rand.New(rand.NewPCG(4, 4))
	a := make([]float32, 17)
	capped := 0
	for range 100 {
		randomAction(rng, spec, a)
		r, rp := e.Step(a), plain.Step(a)
		_, info := observe(e, spec)
		_, pinfo := observe(plain, pspec)
		d := e.d
		up := d.Qpos[2] / 0.003
		ctrl := 0.2 * sumSquares(d.Ctrl)
		raw := 1e-4 * sumSquares(d.CfrcExt)
		impact := min(raw, 0.25)
		capped += boolInt(raw > 0.25)
		nearInfo(t, spec, info, map[string]float64{
			"reward_linup":    up,
			"reward_quadctrl": -ctrl,
			"reward_impact":   -impact,
		})
		near(t, "reward", float64(r.Reward), up-ctrl-impact+1)
		l, v := tendons(e)
		sameF32(t, "info state", info[:7], cat([]float64{d.Qpos[0], d.Qpos[1], d.Qpos[2] - e.m.Qpos0[2]}, l, v)...)
		if r != rp || !slices.Equal(info, pinfo) || r.Terminated {
			t.Fatal("uph_cost_weight changed the step, or the task terminated")
		}
	}
	if capped == 0 {
		t.Fatal("the impact cost never reached impact_cost_range's high end")
	}
	z, _ := makeEnv(t, "HumanoidStandup-v5", map[string]any{"reset_noise_scale": 0.0}, 1)
	z.Reset()
	if !slices.Equal(z.d.Qpos, z.m.Qpos0) || sumSquares(z.d.Qvel) != 0 {
		t.Error("reset_noise_scale 0 did not reset to qpos0 and zero velocity")
	}
}

// TestV5InvertedPendulums: InvertedPendulum-v5 pays 1 while upright and 0 on the
// terminating step; InvertedDoublePendulum-v5 pays healthy_reward only while the tip
// is above 1, keeps only the cart's constraint force in its 9 values, and with no
// reset noise starts with the tip at 1.2.
func TestV5InvertedPendulums(t *testing.T) {
	requireMuJoCo(t)
	ip, ispec := makeEnv(t, "InvertedPendulum-v5", map[string]any{"reset_noise_scale": 0.05}, 1)
	ip.Reset()
	for i, x := range cat(ip.d.Qpos, ip.d.Qvel) {
		if math.Abs(x) > 0.05 {
			t.Fatalf("InvertedPendulum-v5 reset value %d = %v outside reset_noise_scale 0.05", i, x)
		}
	}
	stepUntilTerminated(t, "InvertedPendulum-v5", ip, []float32{3}, func(n int, r envpool.StepResult) {
		obs, info := observe(ip, ispec)
		sameF32(t, "observation", obs, cat(ip.d.Qpos, ip.d.Qvel)...)
		upright := math.Abs(ip.d.Qpos[1]) <= 0.2
		if r.Terminated == upright || float64(r.Reward) != float64(boolInt(upright)) || infoOf(t, ispec, info, "reward_survive") != float64(r.Reward) {
			t.Fatalf("step %d: angle %v, terminated %v, reward %v, info %v", n, ip.d.Qpos[1], r.Terminated, r.Reward, info)
		}
	})

	def, defSpec := makeEnv(t, "InvertedDoublePendulum-v5", nil, 1)
	def.Reset()
	def.Step([]float32{0})
	if _, info := observe(def, defSpec); infoOf(t, defSpec, info, "reward_survive") != 10 {
		t.Errorf("default healthy reward %v, want 10", infoOf(t, defSpec, info, "reward_survive"))
	}
	idp, dspec := makeEnv(t, "InvertedDoublePendulum-v5", map[string]any{"healthy_reward": 5.0, "reset_noise_scale": 0.0}, 1)
	idp.Reset()
	if tip := idp.d.SiteXpos[2]; math.Abs(tip-1.2) > 1e-12 {
		t.Fatalf("tip height %v with no reset noise, want 1.2", tip)
	}
	stepUntilTerminated(t, "InvertedDoublePendulum-v5", idp, []float32{0.4}, func(n int, r envpool.StepResult) {
		obs, info := observe(idp, dspec)
		q, v := idp.d.Qpos, idp.d.Qvel
		x, y := idp.d.SiteXpos[0], idp.d.SiteXpos[2]
		dist := 0.01*x*x + (y-2)*(y-2)
		vel := 1e-3*v[1]*v[1] + 5e-3*v[2]*v[2]
		alive := 5 * float64(boolInt(y > 1))
		nearInfo(t, dspec, info, map[string]float64{
			"reward_survive":   alive,
			"distance_penalty": -dist,
			"velocity_penalty": -vel,
		})
		near(t, "reward", float64(r.Reward), alive-dist-vel)
		sameF32(t, "observation", obs, cat([]float64{q[0], math.Sin(q[1]), math.Sin(q[2]), math.Cos(q[1]), math.Cos(q[2])},
			clipped(v, -10, 10), clipped(idp.d.QfrcConstraint[:1], -10, 10))...)
		if r.Terminated != (y <= 1) {
			t.Fatalf("step %d: terminated %v with tip height %v", n, r.Terminated, y)
		}
	})
}

// TestV5DoublePendulumConstraint drives the cart into its slider limit, where the
// cart's constraint force is not zero, to check that the observation's last value is
// that force, clipped to [-10, 10].
func TestV5DoublePendulumConstraint(t *testing.T) {
	requireMuJoCo(t)
	e, spec := makeEnv(t, "InvertedDoublePendulum-v5", map[string]any{"reset_noise_scale": 0.0}, 1)
	e.Reset()
	e.d.Qpos[0], e.d.Qvel[0] = 0.95, 3
	hit := false
	for range 5 {
		e.Step([]float32{1})
		obs, _ := observe(e, spec)
		c := e.d.QfrcConstraint
		sameF32(t, "observation tail", obs[8:], min(max(c[0], -10), 10))
		hit = hit || c[0] != 0 && c[0] != c[1]
	}
	if !hit {
		t.Fatal("the cart's constraint force stayed zero (or equal to the first hinge's): the check proved nothing")
	}
}

// TestV5ResetInfo: the v5 tasks that return info from reset give the state columns of
// their step info (positions from qpos, heights against qpos0, the humanoid tendons)
// and zeros elsewhere; the manipulation and pendulum tasks, like Gymnasium's, give none.
func TestV5ResetInfo(t *testing.T) {
	requireMuJoCo(t)
	for _, id := range v5IDs {
		e, spec := makeEnv(t, id, nil, 12)
		for episode := range 2 {
			e.Reset()
			_, info := observe(e, spec)
			q := e.d.Qpos
			var want []float64
			switch id {
			case "Ant-v5", "Swimmer-v5":
				want = []float64{q[0], q[1], math.Sqrt(q[0]*q[0] + q[1]*q[1])}
			case "HalfCheetah-v5":
				want = []float64{q[0]}
			case "Hopper-v5", "Walker2d-v5":
				want = []float64{q[0], q[1] - 1.25}
			case "Humanoid-v5":
				want = cat([]float64{q[0], q[1]}, humanoidTendons(t, e), []float64{math.Sqrt(q[0]*q[0] + q[1]*q[1])})
			case "HumanoidStandup-v5":
				want = cat([]float64{q[0], q[1], q[2] - e.m.Qpos0[2]}, humanoidTendons(t, e))
			}
			state := len(want)
			want = append(want, make([]float64, spec.InfoIndex("qpos0")-state)...) // the scalars: the rest are 0
			for i, w := range want {
				if math.Abs(float64(info[i])-w) > 1e-6 {
					t.Fatalf("%s reset %d: info %s = %v, want %v", id, episode, spec.InfoKeys[i], info[i], w)
				}
			}
			if state > 0 && want[0] == 0 {
				t.Fatalf("%s: reset x_position is exactly 0: the noise did not move it", id)
			}
			for range 3 {
				e.Step(make([]float32, spec.ActionSpace.Size()))
			}
		}
	}
}

// TestV5ReacherAndPusher: v5 computes the distance terms after the simulation (from
// the xpos mj_step leaves) and weighs every term, info included; Reacher's observation
// drops the always-zero z difference; Pusher-v5's object is the heavier cylinder of
// pusher_v5.xml.
func TestV5ReacherAndPusher(t *testing.T) {
	requireMuJoCo(t)
	r, rspec := makeEnv(t, "Reacher-v5", map[string]any{"reward_dist_weight": 2.0, "reward_control_weight": 0.5}, 3)
	r.Reset()
	f, g := mustID(t, r.m, "fingertip"), mustID(t, r.m, "target")
	rng := rand.New(rand.NewPCG(1, 1))
	a := make([]float32, 2)
	for range 50 {
		randomAction(rng, rspec, a)
		res := r.Step(a)
		obs, info := observe(r, rspec)
		fp, gp := r.body(f), r.body(g)
		dist := -2 * distance(fp, gp)
		ctrl := -0.5 * ctrlCost(a)
		nearInfo(t, rspec, info, map[string]float64{
			"reward_dist": dist,
			"reward_ctrl": ctrl,
		})
		near(t, "reward", float64(res.Reward), dist+ctrl)
		q := r.d.Qpos
		sameF32(t, "observation", obs, math.Cos(q[0]), math.Cos(q[1]), math.Sin(q[0]), math.Sin(q[1]), q[2], q[3],
			r.d.Qvel[0], r.d.Qvel[1], fp[0]-gp[0], fp[1]-gp[1])
	}

	p, pspec := makeEnv(t, "Pusher-v5", map[string]any{"reward_near_weight": 0.25, "reward_dist_weight": 3.0, "reward_control_weight": 0.5}, 3)
	p.Reset()
	tip, obj, goal := mustID(t, p.m, "tips_arm"), mustID(t, p.m, "object"), mustID(t, p.m, "goal")
	for range 50 {
		a7 := make([]float32, 7)
		randomAction(rng, pspec, a7)
		res := p.Step(a7)
		obs, info := observe(p, pspec)
		nearTerm := -0.25 * distance(p.body(obj), p.body(tip))
		dist := -3 * distance(p.body(obj), p.body(goal))
		ctrl := -0.5 * ctrlCost(a7)
		nearInfo(t, pspec, info, map[string]float64{
			"reward_near": nearTerm,
			"reward_dist": dist,
			"reward_ctrl": ctrl,
		})
		near(t, "reward", float64(res.Reward), dist+ctrl+nearTerm)
		sameF32(t, "observation", obs, cat(p.d.Qpos[:7], p.d.Qvel[:7], p.body(tip), p.body(obj), p.body(goal))...)
	}
	v4, _ := makeEnv(t, "Pusher-v4", nil, 3)
	m5, m4 := p.m.BodyMass[obj], v4.m.BodyMass[mustID(t, v4.m, "object")]
	if want := 0.01 * math.Pi * 0.05 * 0.05 * 0.1; math.Abs(m5-want) > 1e-15 || m4 >= m5/100 {
		t.Errorf("object mass v5 %v (want %v, the 0.01-density cylinder), v4 %v", m5, want, m4)
	}
}

// TestV5RewardAfterSimulation contrasts v4 and v5 on the same trajectory: v4's Reacher
// reward is the distance before the step, v5's the distance after it.
func TestV5RewardAfterSimulation(t *testing.T) {
	requireMuJoCo(t)
	v4, spec4 := makeEnv(t, "Reacher-v4", nil, 5)
	v5, spec5 := makeEnv(t, "Reacher-v5", nil, 5)
	v4.Reset()
	v5.Reset()
	f, g := mustID(t, v5.m, "fingertip"), mustID(t, v5.m, "target")
	a := []float32{0.5, -0.5}
	for range 20 {
		before := -distance(v4.body(f), v4.body(g))
		r4, r5 := v4.Step(a), v5.Step(a)
		after := -distance(v5.body(f), v5.body(g))
		near(t, "v4 reward", float64(r4.Reward), before-ctrlCost(a))
		near(t, "v5 reward", float64(r5.Reward), after-ctrlCost(a))
		if before == after {
			t.Fatal("the arm did not move")
		}
		o4, _ := observe(v4, spec4)
		o5, _ := observe(v5, spec5)
		if !slices.Equal(o4[:10], o5) {
			t.Fatalf("v4 and v5 observations differ beyond the dropped z difference: %v %v", o4, o5)
		}
	}
}

// TestV5Defaults: a task built with no options runs exactly like one given Gymnasium
// 1.x's default for every option, as its v5 class lists them.
func TestV5Defaults(t *testing.T) {
	requireMuJoCo(t)
	inf := math.Inf(1)
	walker := map[string]any{"forward_reward_weight": 1.0, "ctrl_cost_weight": 1e-3, "healthy_reward": 1.0,
		"terminate_when_unhealthy": true, "reset_noise_scale": 5e-3, excludeKey: true}
	humanoidParts := map[string]any{excludeKey: true, "include_cinert_in_observation": true, "include_cvel_in_observation": true,
		"include_qfrc_actuator_in_observation": true, cfrcKey: true, "reset_noise_scale": 1e-2}
	defaults := map[string]map[string]any{
		"Ant-v5": {"xml_file": "ant.xml", "frame_skip": 5, "forward_reward_weight": 1.0, "ctrl_cost_weight": 0.5,
			"contact_cost_weight": 5e-4, "healthy_reward": 1.0, "main_body": int64(1), "terminate_when_unhealthy": true,
			"healthy_z_range": []any{0.2, 1.0}, "contact_force_range": []any{-1.0, 1.0}, "reset_noise_scale": 0.1,
			excludeKey: true, cfrcKey: true},
		"HalfCheetah-v5": {"xml_file": "half_cheetah.xml", "frame_skip": 5, "forward_reward_weight": 1.0,
			"ctrl_cost_weight": 0.1, "reset_noise_scale": 0.1, excludeKey: true},
		"Hopper-v5": merged(walker, map[string]any{"xml_file": "hopper.xml", "frame_skip": 4, "healthy_state_range": []any{-100.0, 100.0},
			"healthy_z_range": []any{0.7, inf}, "healthy_angle_range": []any{-0.2, 0.2}}),
		"Walker2d-v5": merged(walker, map[string]any{"xml_file": "walker2d_v5.xml", "frame_skip": 4,
			"healthy_z_range": []any{0.8, 2.0}, "healthy_angle_range": []any{-1.0, 1.0}}),
		"Humanoid-v5": merged(humanoidParts, map[string]any{"xml_file": "humanoid.xml", "frame_skip": 5, "forward_reward_weight": 1.25,
			"ctrl_cost_weight": 0.1, "contact_cost_weight": 5e-7, "contact_cost_range": []any{-inf, 10.0},
			"healthy_reward": 5.0, "terminate_when_unhealthy": true, "healthy_z_range": []any{1.0, 2.0}}),
		"HumanoidStandup-v5": merged(humanoidParts, map[string]any{"xml_file": "humanoidstandup.xml", "frame_skip": 5, "uph_cost_weight": 1.0,
			"ctrl_cost_weight": 0.1, "impact_cost_weight": 0.5e-6, "impact_cost_range": []any{-inf, 10.0}}),
		"Swimmer-v5": {"xml_file": "swimmer.xml", "frame_skip": 4, "forward_reward_weight": 1.0, "ctrl_cost_weight": 1e-4,
			"reset_noise_scale": 0.1, excludeKey: true},
		"InvertedPendulum-v5":       {"xml_file": "inverted_pendulum.xml", "frame_skip": 2, "reset_noise_scale": 0.01},
		"InvertedDoublePendulum-v5": {"xml_file": "inverted_double_pendulum.xml", "frame_skip": 5, "healthy_reward": 10.0, "reset_noise_scale": 0.1},
		"Reacher-v5":                {"xml_file": "reacher.xml", "frame_skip": 2, "reward_dist_weight": 1.0, "reward_control_weight": 1.0},
		"Pusher-v5": {"xml_file": "pusher_v5.xml", "frame_skip": 5, "reward_near_weight": 0.5, "reward_dist_weight": 1.0,
			"reward_control_weight": 0.1},
	}
	for _, id := range v5IDs {
		plain, spec := makeEnv(t, id, nil, 21)
		explicit, _ := makeEnv(t, id, defaults[id], 21)
		requireSameRun(t, fmt.Sprintf("%s with no options and with %v", id, defaults[id]), plain, explicit, spec, 150)
	}
}

// TestV5ResetNoiseScale: 0 resets to qpos0 and zero velocity; doubling the scale
// doubles every offset from qpos0 drawn with the same seed (quaternions aside, which
// mj_forward normalises).
func TestV5ResetNoiseScale(t *testing.T) {
	requireMuJoCo(t)
	for _, id := range []string{"Ant-v5", "HalfCheetah-v5", "Hopper-v5", "Walker2d-v5", "Humanoid-v5", "HumanoidStandup-v5",
		"Swimmer-v5", "InvertedPendulum-v5", "InvertedDoublePendulum-v5"} {
		zero, _ := makeEnv(t, id, map[string]any{"reset_noise_scale": 0.0}, 3)
		zero.Reset()
		if !slices.Equal(zero.d.Qpos, zero.m.Qpos0) || sumSquares(zero.d.Qvel) != 0 {
			t.Errorf("%s: reset_noise_scale 0 left qpos %v, qvel %v", id, zero.d.Qpos, zero.d.Qvel)
		}
		one, _ := makeEnv(t, id, map[string]any{"reset_noise_scale": 0.02}, 3)
		two, _ := makeEnv(t, id, map[string]any{"reset_noise_scale": 0.04}, 3)
		one.Reset()
		two.Reset()
		free := strings.HasPrefix(id, "Ant") || strings.HasPrefix(id, "Humanoid")
		for i, q0 := range one.m.Qpos0 {
			if free && i >= 3 && i < 7 {
				continue
			}
			near(t, fmt.Sprintf("%s qpos[%d] offset ratio", id, i), two.d.Qpos[i]-q0, 2*(one.d.Qpos[i]-q0))
		}
		for i, v := range one.d.Qvel {
			near(t, fmt.Sprintf("%s qvel[%d] ratio", id, i), two.d.Qvel[i], 2*v)
		}
	}
	if _, err := envs.SpecOf("Reacher-v5", map[string]any{"reset_noise_scale": 0.1}); err == nil {
		t.Error("Reacher-v5 has no reset_noise_scale but accepted it")
	}
}

// TestV5FrameSkip: frame_skip sets the mj_step calls per env step and with them dt,
// which the velocity terms divide by; it must be an integer >= 1.
func TestV5FrameSkip(t *testing.T) {
	requireMuJoCo(t)
	for _, id := range v5IDs {
		spec, err := envs.SpecOf(id, map[string]any{"frame_skip": int64(3)})
		if err != nil {
			t.Fatalf("%s frame_skip 3: %v", id, err)
		}
		e, _ := makeEnv(t, id, map[string]any{"frame_skip": 3}, 1)
		e.Reset()
		e.Step(make([]float32, spec.ActionSpace.Size()))
		if spec.FrameSkip != 3 || math.Abs(e.d.Time()-3*e.m.Timestep) > 1e-12 {
			t.Errorf("%s frame_skip 3: spec frame skip %d, time after one step %v (timestep %v)", id, spec.FrameSkip, e.d.Time(), e.m.Timestep)
		}
		for _, bad := range []any{0, int64(-2), 1.5, "4"} {
			if _, err := envs.SpecOf(id, map[string]any{"frame_skip": bad}); err == nil || !strings.Contains(err.Error(), "frame_skip") {
				t.Errorf("%s frame_skip %v: %v, want an error naming frame_skip", id, bad, err)
			}
		}
	}
	e, spec := makeEnv(t, "Hopper-v5", map[string]any{"frame_skip": 2}, 1)
	e.Reset()
	x0 := e.d.Qpos[0]
	e.Step([]float32{0.5, 0.5, 0.5})
	_, info := observe(e, spec)
	near(t, "x_velocity with frame_skip 2", infoOf(t, spec, info, "x_velocity"), (e.d.Qpos[0]-x0)/0.004)
	if _, err := envs.SpecOf("Hopper-v4", map[string]any{"frame_skip": 2}); err == nil {
		t.Error("Hopper-v4 has no frame_skip but accepted it")
	}
}

// TestV5XMLFile: every v5 task loads a model file from disk; a copy of the task's own
// model runs the same trajectory; a missing file, and MJCF that MuJoCo 2.2.2 refuses
// (an attribute of a later release, a range relying on MuJoCo 3's autolimits default),
// are errors that say what 2.2.2 needs.
func TestV5XMLFile(t *testing.T) {
	requireMuJoCo(t)
	dir := t.TempDir()
	for _, id := range v5IDs {
		xml, err := ModelXML(id)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, strings.ToLower(strings.TrimSuffix(id, "-v5"))+"_copy.xml")
		if err := os.WriteFile(path, xml, 0o644); err != nil {
			t.Fatal(err)
		}
		own, spec := makeEnv(t, id, nil, 4)
		copied, _ := makeEnv(t, id, map[string]any{"xml_file": path}, 4)
		if copied.m == own.m || copied.m.Name() != filepath.Base(path) {
			t.Fatalf("%s: xml_file %s did not load the file (model %s)", id, path, copied.m.Name())
		}
		requireSameRun(t, id+" on its own model and on a copy", own, copied, spec, 20)
	}
	bad := map[string]string{
		"gravcomp.xml":   `<mujoco><worldbody><body name="b" gravcomp="1"><joint name="j" type="hinge"/><geom size=".1"/></body></worldbody><actuator><motor joint="j"/></actuator></mujoco>`,
		"autolimits.xml": `<mujoco><worldbody><body name="b"><joint name="j" type="hinge" range="-1 1"/><geom size=".1"/></body></worldbody><actuator><motor joint="j"/></actuator></mujoco>`,
	}
	for name, body := range bad {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := envs.SpecOf("InvertedPendulum-v5", map[string]any{"xml_file": path})
		if err == nil || !strings.Contains(err.Error(), "MuJoCo 2.2.2") || !strings.Contains(err.Error(), "autolimits") {
			t.Errorf("xml_file %s: %v; want MuJoCo's error and what 2.2.2 needs", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if _, err := envs.SpecOf("Hopper-v5", map[string]any{"xml_file": filepath.Join(dir, "missing.xml")}); err == nil ||
		!strings.Contains(err.Error(), "missing.xml") || strings.Contains(err.Error(), "autolimits") {
		t.Errorf("a missing xml_file: %v; want the read error alone", err)
	}
	// MuJoCo 2.2.2 drops contacts past nconmax with only a warning; v5 ends the episode
	// as truncated with the error column set instead of stepping on without them.
	antXML, err := ModelXML("Ant-v5")
	if err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "ant_nconmax1.xml")
	if err := os.WriteFile(small, []byte(strings.Replace(string(antXML), `<mujoco model="ant">`, `<mujoco model="ant"><size nconmax="1"/>`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	e, spec := makeEnv(t, "Ant-v5", map[string]any{"xml_file": small}, 1)
	e.Reset()
	for n := 1; ; n++ {
		r := e.Step(make([]float32, 8))
		if r.Truncated {
			_, info := observe(e, spec)
			code, msg := e.LastFault()
			if infoOf(t, spec, info, "error") != FaultMuJoCo || code != FaultMuJoCo || !strings.Contains(msg, "nconmax") {
				t.Fatalf("full contact buffer: error column %v, fault %d %q", infoOf(t, spec, info, "error"), code, msg)
			}
			break
		}
		if n > 100 {
			t.Fatal("an ant with room for one contact stood for 100 steps without a fault")
		}
	}
	// A model too small for the task's rules is refused at build, not at the first step.
	if _, err := envs.SpecOf("Pusher-v5", map[string]any{"xml_file": "reacher.xml"}); err == nil || !strings.Contains(err.Error(), "needs a model") {
		t.Errorf("Pusher-v5 on the Reacher model: %v", err)
	}
}

// TestV5Camera: each v5 task keeps Gymnasium's default view, default_camera_config
// replaces it as a whole, bad tables are errors naming the field, and the v4 tasks
// have none.
func TestV5Camera(t *testing.T) {
	requireMuJoCo(t)
	defaults := map[string]string{
		"Ant-v5":                    "{distance=4}",
		"HalfCheetah-v5":            "{distance=4}",
		"Hopper-v5":                 "{trackbodyid=2 lookat=[0 0 1.15] distance=3 elevation=-20}",
		"Walker2d-v5":               "{trackbodyid=2 lookat=[0 0 1.15] distance=4 elevation=-20}",
		"Humanoid-v5":               "{trackbodyid=1 lookat=[0 0 2] distance=4 elevation=-20}",
		"HumanoidStandup-v5":        "{trackbodyid=1 lookat=[0 0 0.8925] distance=4 elevation=-20}",
		"Swimmer-v5":                "{}",
		"InvertedPendulum-v5":       "{trackbodyid=0 distance=2.04}",
		"InvertedDoublePendulum-v5": "{}",
		"Reacher-v5":                "{trackbodyid=0}",
		"Pusher-v5":                 "{trackbodyid=-1 distance=4}",
	}
	for _, id := range v5IDs {
		e, _ := makeEnv(t, id, nil, 1)
		if got := e.DefaultCamera().String(); got != defaults[id] {
			t.Errorf("%s default camera %s, want %s", id, got, defaults[id])
		}
	}
	table := map[string]any{"type": int64(1), "trackbodyid": int64(1), "fixedcamid": int64(-1), "lookat": []any{1.0, int64(2), 3.5},
		"distance": 2.5, "azimuth": 90.0, "elevation": -10.0}
	e, _ := makeEnv(t, "Ant-v5", map[string]any{"default_camera_config": table}, 1)
	c := e.DefaultCamera()
	if got, want := c.String(), "{type=1 fixedcamid=-1 trackbodyid=1 lookat=[1 2 3.5] distance=2.5 azimuth=90 elevation=-10}"; got != want {
		t.Errorf("camera %s, want %s", got, want)
	}
	e, _ = makeEnv(t, "Hopper-v5", map[string]any{"default_camera_config": map[string]any{}}, 1)
	if !e.DefaultCamera().IsZero() {
		t.Errorf("an empty default_camera_config kept %s", e.DefaultCamera())
	}
	v4, _ := makeEnv(t, "Ant-v4", nil, 1)
	if !v4.DefaultCamera().IsZero() {
		t.Error("Ant-v4 has a default camera")
	}
	for _, bad := range []struct {
		cfg  any
		want string
	}{
		{map[string]any{"orthographic": int64(1)}, "orthographic"},
		{map[string]any{"zoom": 2.0}, "zoom"},
		{map[string]any{"type": int64(4)}, "type"},
		{map[string]any{"type": 1.5}, "type"},
		{map[string]any{"lookat": []any{1.0, 2.0}}, "lookat"},
		{map[string]any{"lookat": []any{1.0, 2.0, math.NaN()}}, "lookat"},
		{map[string]any{"distance": -1.0}, "distance"},
		{map[string]any{"elevation": "low"}, "elevation"},
		{map[string]any{"trackbodyid": int64(-2)}, "trackbodyid"},
		{map[string]any{"trackbodyid": int64(14)}, "trackbodyid"},
		{map[string]any{"fixedcamid": int64(1)}, "fixedcamid"},
		{4.0, "default_camera_config"},
	} {
		_, err := envs.SpecOf("Ant-v5", map[string]any{"default_camera_config": bad.cfg})
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("default_camera_config %v: %v, want an error naming %s", bad.cfg, err, bad.want)
		}
	}
	if _, err := envs.SpecOf("Ant-v4", map[string]any{"default_camera_config": map[string]any{}}); err == nil {
		t.Error("Ant-v4 accepted default_camera_config")
	}
}

// TestV5OptionErrors: each task refuses options it does not take and malformed values,
// naming them.
func TestV5OptionErrors(t *testing.T) {
	requireMuJoCo(t)
	for _, tc := range []struct {
		id   string
		opts map[string]any
		want string
	}{
		{"Ant-v5", map[string]any{"no_such_option": 1.0}, "no_such_option"},
		{"Ant-v5", map[string]any{"contact_cost_weight": -1.0}, "contact_cost_weight"},
		{"Ant-v5", map[string]any{"contact_force_range": []any{1.0, -1.0}}, "contact_force_range"},
		{"Ant-v5", map[string]any{cfrcKey: "yes"}, cfrcKey},
		{"HalfCheetah-v5", map[string]any{"healthy_reward": 1.0}, "healthy_reward"},
		{"Hopper-v5", map[string]any{"healthy_state_range": []any{1.0}}, "healthy_state_range"},
		{"Walker2d-v5", map[string]any{"healthy_angle_range": "wide"}, "healthy_angle_range"},
		{"Humanoid-v5", map[string]any{"contact_cost_range": []any{1.0, 0.0}}, "contact_cost_range"},
		{"Humanoid-v5", map[string]any{"contact_force_range": []any{-1.0, 1.0}}, "contact_force_range"},
		{"Humanoid-v5", map[string]any{"include_cvel_in_observation": 0.0}, "include_cvel_in_observation"},
		{"HumanoidStandup-v5", map[string]any{"impact_cost_range": []any{"a", "b"}}, "impact_cost_range"},
		{"HumanoidStandup-v5", map[string]any{"healthy_z_range": []any{1.0, 2.0}}, "healthy_z_range"},
		{"HumanoidStandup-v5", map[string]any{"uph_cost_weight": "high"}, "uph_cost_weight"},
		{"Swimmer-v5", map[string]any{"main_body": int64(1)}, "main_body"},
		{"InvertedPendulum-v5", map[string]any{"healthy_reward": 1.0}, "healthy_reward"},
		{"InvertedDoublePendulum-v5", map[string]any{"reset_noise_scale": -0.1}, "reset_noise_scale"},
		{"Reacher-v5", map[string]any{"reward_near_weight": 1.0}, "reward_near_weight"},
		{"Reacher-v5", map[string]any{"reward_control_weight": -1.0}, "reward_control_weight"},
		{"Pusher-v5", map[string]any{"reward_dist_weight": "far"}, "reward_dist_weight"},
		{"Pusher-v5", map[string]any{"xml_file": ""}, "xml_file"},
	} {
		_, err := envs.SpecOf(tc.id, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: %v, want an error naming %s", tc.id, tc.opts, err, tc.want)
		}
	}
}

// TestEnvPoolModelNames: EnvPool's names for its copies of Gymnasium's models load the
// embedded models, and the spec reports the name given.
func TestEnvPoolModelNames(t *testing.T) {
	requireMuJoCo(t)
	for _, id := range []string{"HalfCheetah-v5", "Swimmer-v5"} {
		name := map[string]string{"HalfCheetah-v5": "half_cheetah_envpool.xml", "Swimmer-v5": "swimmer_envpool.xml"}[id]
		a, spec := makeEnv(t, id, map[string]any{"xml_file": name}, 4)
		b, _ := makeEnv(t, id, nil, 4)
		if spec.Options["xml_file"] != name {
			t.Fatalf("%s: spec reports xml_file %v, want %s", id, spec.Options["xml_file"], name)
		}
		a.Reset()
		b.Reset()
		act := make([]float32, spec.ActionSpace.Size())
		for i := range act {
			act[i] = 0.5
		}
		for step := range 10 {
			a.Step(act)
			b.Step(act)
			oa, _ := observe(a, spec)
			ob, _ := observe(b, spec)
			if !slices.Equal(oa, ob) {
				t.Fatalf("%s with %s differs from the default model at step %d", id, name, step)
			}
		}
	}
	if _, _, err := envs.MakeEnv("Ant-v4", map[string]any{"xml_file": "nosuch_envpool.xml"}, 0); err == nil {
		t.Fatal("an EnvPool-style name without an embedded model was accepted")
	}
}
