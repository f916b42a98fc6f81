// Package goalenvtest holds the checks the goal-conditioned robot families' tests
// share: making envs, whole episodes in sync and async pools with every step's reward
// recomputed through the pool's goal-reward capability, spaces and info keys, and the
// refusal of bad options and actions.
package goalenvtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco/mujocotest"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv"
)

// RequireMuJoCo skips a test when libmujoco cannot be loaded (mujocotest).
func RequireMuJoCo(t testing.TB) { t.Helper(); mujocotest.RequireMuJoCo(t) }

// MakeEnv builds one env of a task outside any pool, closed when the test ends.
func MakeEnv(t testing.TB, id string, opts map[string]any, seed int64) (*goalenv.Env, envpool.Spec) {
	t.Helper()
	e, spec := mujocotest.MakeEnv(t, id, opts, seed)
	return e.(*goalenv.Env), spec
}

// Observe returns the env's current observation and info row.
func Observe(e *goalenv.Env, spec envpool.Spec) (obs, info []float32) {
	obs, info = make([]float32, spec.ObsSpace.Size()), make([]float32, spec.InfoWidth())
	e.Observe(envpool.Obs{F32: obs}, info)
	return obs, info
}

// Entry returns the named entry of an observation.
func Entry(t testing.TB, spec envpool.Spec, obs []float32, name string) []float32 {
	t.Helper()
	for _, f := range spec.ObsLayout {
		if f.Name == name {
			return obs[f.Offset : f.Offset+f.Size]
		}
	}
	t.Fatalf("%s has no observation entry %q", spec.TaskID, name)
	return nil
}

// CheckSpec asserts the spec EnvPool gives the task: the three entries of the given
// sizes in Gymnasium's order, unbounded float32 observations, actions in [-1, 1], the
// time limit, and the info keys is_success and distance.
func CheckSpec(t testing.TB, spec envpool.Spec, obsDim, goalDim, actDim, limit int) {
	t.Helper()
	want := []envpool.ObsField{
		{Name: envpool.GoalObservation, Offset: 0, Size: obsDim},
		{Name: envpool.GoalAchieved, Offset: obsDim, Size: goalDim},
		{Name: envpool.GoalDesired, Offset: obsDim + goalDim, Size: goalDim},
	}
	if fmt.Sprint(spec.ObsLayout) != fmt.Sprint(want) {
		t.Errorf("%s: layout %v, want %v", spec.TaskID, spec.ObsLayout, want)
	}
	o, a := spec.ObsSpace, spec.ActionSpace
	if o.Kind != envpool.Box || o.DType != envpool.Float32 || !slices.Equal(o.Shape, []int{obsDim + 2*goalDim}) || !math.IsInf(float64(o.Low[0]), -1) || !math.IsInf(float64(o.High[0]), 1) {
		t.Errorf("%s: observation space %v low %v high %v", spec.TaskID, o, o.Low[0], o.High[0])
	}
	if a.Kind != envpool.Box || !slices.Equal(a.Shape, []int{actDim}) || slices.Min(a.Low) != -1 || slices.Max(a.Low) != -1 || slices.Min(a.High) != 1 || slices.Max(a.High) != 1 {
		t.Errorf("%s: action space %v low %v high %v", spec.TaskID, a, a.Low, a.High)
	}
	if spec.MaxEpisodeSteps != limit || !slices.Equal(spec.InfoKeys, []string{"is_success", "distance"}) || spec.InfoWidth() != 2 {
		t.Errorf("%s: limit %d, info keys %v (width %d)", spec.TaskID, spec.MaxEpisodeSteps, spec.InfoKeys, spec.InfoWidth())
	}
}

// PoolEpisodes runs a task in a sync pool (one env) and an async pool (two envs,
// batches of one) with uniform random actions until every env has ended one episode,
// or for steps batches when steps > 0 (for slow models whose other ids run whole
// episodes). Every row must be finite, never terminated, truncated exactly at the time
// limit, with is_success 0 or 1 and a distance of at least 0, and with the reward the
// pool's GoalReward recomputes from the row's achieved and desired goals.
func PoolEpisodes(t *testing.T, id string, steps int) {
	RequireMuJoCo(t)
	for _, mode := range []struct{ envs, batch int }{{1, 1}, {2, 1}} {
		pool, err := envs.Make(id, envs.Options{Options: envpool.Options{NumEnvs: mode.envs, BatchSize: mode.batch, NumThreads: 1, Seed: 7}})
		if err != nil {
			t.Fatal(err)
		}
		spec := *pool.Spec()
		var ach, des envpool.ObsField
		for _, f := range spec.ObsLayout {
			switch f.Name {
			case envpool.GoalAchieved:
				ach = f
			case envpool.GoalDesired:
				des = f
			}
		}
		rng := rand.New(rand.NewPCG(3, 4))
		b, err := pool.Reset()
		ended := map[int32]bool{}
		for n := 0; err == nil && (steps > 0 && n < steps || steps == 0 && len(ended) < mode.envs); n++ {
			for i := range b.Size {
				row, info := b.RowF32(i), b.InfoRow(i)
				for _, x := range row {
					if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
						t.Fatalf("%s env %d: non-finite observation", id, b.EnvID[i])
					}
				}
				if b.Terminated[i] || b.Truncated[i] != (b.ElapsedStep[i] == int32(spec.MaxEpisodeSteps)) {
					t.Fatalf("%s env %d step %d: terminated %v truncated %v", id, b.EnvID[i], b.ElapsedStep[i], b.Terminated[i], b.Truncated[i])
				}
				if (info[0] != 0 && info[0] != 1) || !(info[1] >= 0) {
					t.Fatalf("%s env %d: info %v", id, b.EnvID[i], info)
				}
				if b.ElapsedStep[i] > 0 {
					r, err := pool.GoalReward(int(b.EnvID[i]), row[ach.Offset:ach.Offset+ach.Size], row[des.Offset:des.Offset+des.Size])
					if err != nil || math.Abs(float64(r-b.Reward[i])) > 1e-5*(1+math.Abs(float64(r))) {
						t.Fatalf("%s env %d step %d: reward %v, compute_reward %v (%v)", id, b.EnvID[i], b.ElapsedStep[i], b.Reward[i], r, err)
					}
				}
				ended[b.EnvID[i]] = ended[b.EnvID[i]] || b.Truncated[i]
			}
			act := make([]float32, b.Size*spec.ActionSpace.Size())
			for k := range act {
				act[k] = float32(2*rng.Float64() - 1)
			}
			b, err = pool.Step(act, slices.Clone(b.EnvID))
		}
		if err != nil {
			t.Fatal(err)
		}
		pool.Close()
	}
}

// BadInput checks that a task refuses an unknown option and a bad option value with
// errors naming them, and that a NaN action or one of the wrong length ends the
// episode as truncated with the fault named, without a panic.
func BadInput(t *testing.T, id string) {
	RequireMuJoCo(t)
	for opts, want := range map[string]map[string]any{
		"reward_typ":  {"reward_typ": "dense"},
		"reward_type": {"reward_type": "shaped"},
		"frame_skip":  {"frame_skip": 0},
	} {
		if _, err := envs.SpecOf(id, want); err == nil || !strings.Contains(err.Error(), opts) {
			t.Errorf("%s with %v: error %v, want one naming %s", id, want, err, opts)
		}
	}
	e, spec := MakeEnv(t, id, nil, 1)
	n := spec.ActionSpace.Size()
	for _, c := range []struct {
		action []float32
		want   string
	}{{make([]float32, n+1), "action has"}, {append(make([]float32, n-1), float32(math.NaN())), "NaN"}} {
		e.Reset()
		if r := e.Step(c.action); !r.Truncated || !strings.Contains(e.Fault(), c.want) {
			t.Errorf("%s: action %v: %+v, fault %q", id, c.action, r, e.Fault())
		}
		if obs, _ := Observe(e, spec); slices.ContainsFunc(obs, func(x float32) bool { return math.IsNaN(float64(x)) }) {
			t.Errorf("%s: NaN in the observation after a bad action", id)
		}
		e.Reset()
		if e.Fault() != "" {
			t.Errorf("%s: fault %q survives a reset", id, e.Fault())
		}
	}
}

// SameEpisodes checks that two ids (an old version EnvPool routes to the current one)
// run the same episode: with the same seed and actions, the same rewards and
// observations for steps steps.
func SameEpisodes(t *testing.T, idA, idB string, steps int) {
	a, spec := MakeEnv(t, idA, nil, 9)
	b, _ := MakeEnv(t, idB, nil, 9)
	a.Reset()
	b.Reset()
	act := make([]float32, spec.ActionSpace.Size())
	for step := range steps {
		for i := range act {
			act[i] = float32(math.Sin(float64(3*step + i)))
		}
		if ra, rb := a.Step(act), b.Step(act); ra != rb {
			t.Fatalf("step %d: %s %+v, %s %+v", step, idA, ra, idB, rb)
		}
		oa, _ := Observe(a, spec)
		ob, _ := Observe(b, spec)
		if !slices.Equal(oa, ob) {
			t.Fatalf("step %d: %s and %s observations differ", step, idA, idB)
		}
	}
}
