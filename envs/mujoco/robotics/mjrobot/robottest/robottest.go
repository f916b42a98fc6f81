// Package robottest holds the checks the tests of the Gymnasium-Robotics families on
// package mjrobot (pointmaze, adroit, kitchen) share: making envs outside a pool,
// reading observations by layout entry, whole random episodes in sync and async pools,
// and the refusal of bad options and actions.
package robottest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/mujocotest"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot"
)

// RequireMuJoCo skips a test when libmujoco cannot be loaded (mujocotest).
func RequireMuJoCo(t testing.TB) { t.Helper(); mujocotest.RequireMuJoCo(t) }

// MakeEnv builds one env of a task outside any pool, closed when the test ends
// (mujocotest).
func MakeEnv(t testing.TB, id string, opts map[string]any, seed int64) (envpool.Env, envpool.Spec) {
	t.Helper()
	return mujocotest.MakeEnv(t, id, opts, seed)
}

// Observe reads an env's observation and info, failing on an element left unwritten.
func Observe(t testing.TB, e envpool.Env, spec envpool.Spec) (obs, info []float32) {
	t.Helper()
	obs = make([]float32, spec.ObsSpace.Size())
	for i := range obs {
		obs[i] = float32(math.NaN())
	}
	info = make([]float32, spec.InfoWidth())
	e.Observe(envpool.Obs{F32: obs}, info)
	for i, v := range obs {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("%s: observation element %d is %v (unwritten or not finite)", spec.TaskID, i, v)
		}
	}
	return obs, info
}

// Entry returns the named entry of an observation, by the spec's layout.
func Entry(t testing.TB, spec envpool.Spec, obs []float32, name string) []float32 {
	t.Helper()
	for _, f := range spec.ObsLayout {
		if f.Name == name {
			return obs[f.Offset : f.Offset+f.Size]
		}
	}
	t.Fatalf("%s: no observation entry %q", spec.TaskID, name)
	return nil
}

// Info returns the named info key's columns of an info row.
func Info(t testing.TB, spec envpool.Spec, info []float32, key string) []float32 {
	t.Helper()
	at, n := spec.InfoSpan(key)
	if at < 0 {
		t.Fatalf("%s: no info key %q", spec.TaskID, key)
	}
	return info[at : at+n]
}

// RandomAction draws a uniform action in [-1, 1] per element.
func RandomAction(rng *rand.Rand, n int) []float32 {
	a := make([]float32, n)
	for i := range a {
		a[i] = float32(2*rng.Float64() - 1)
	}
	return a
}

// Episodes runs PoolEpisodes for each id as a subtest.
func Episodes(t *testing.T, limit int, ids ...string) {
	for _, id := range ids {
		t.Run(id, func(t *testing.T) { PoolEpisodes(t, id, limit) })
	}
}

// MakeLogic builds one env of a task outside any pool and returns it with its task
// logic, of the type L the family's tests read state from.
func MakeLogic[L any](t *testing.T, id string, opts map[string]any, seed int64) (*mjrobot.Env, L, envpool.Spec) {
	t.Helper()
	e, spec := MakeEnv(t, id, opts, seed)
	me := e.(*mjrobot.Env)
	l, ok := me.Logic().(L)
	if !ok {
		t.Fatalf("%s: logic %T", id, me.Logic())
	}
	return me, l, spec
}

// PoolEpisodes runs a task through random episodes in a sync pool (2 envs, batches
// of 2) and an async pool (3 envs, batches of 2) until every env has ended an episode:
// every observation is finite, no step reports a fault, rewards are finite, and an
// episode is truncated exactly at the time limit unless it terminates before. limit,
// when positive, replaces the task's time limit (max_episode_steps) to keep slow
// models' tests short.
func PoolEpisodes(t *testing.T, id string, limit int) {
	RequireMuJoCo(t)
	for _, mode := range []struct{ envs, batch int }{{2, 2}, {3, 2}} {
		opts := envpool.Options{NumEnvs: mode.envs, BatchSize: mode.batch, NumThreads: 2, Seed: 5, MaxEpisodeSteps: limit}
		pool, err := envs.Make(id, envs.Options{Options: opts})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		spec := *pool.Spec()
		if limit <= 0 {
			limit = spec.MaxEpisodeSteps
		}
		errCol := spec.InfoIndex(mjrobot.ErrorKey)
		nu := spec.ActionSpace.Size()
		rng := rand.New(rand.NewPCG(3, 4))
		b, err := pool.Reset()
		ends := map[int32]bool{}
		for err == nil && len(ends) < mode.envs {
			for i := range b.Size {
				for _, x := range b.RowF32(i) {
					if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
						t.Fatalf("%s: env %d: non-finite observation", id, b.EnvID[i])
					}
				}
				r := float64(b.Reward[i])
				if f := b.InfoRow(i)[errCol]; f != 0 || math.IsNaN(r) || math.IsInf(r, 0) {
					t.Fatalf("%s: env %d step %d: fault %v, reward %v", id, b.EnvID[i], b.ElapsedStep[i], f, r)
				}
				if !b.Terminated[i] && b.Truncated[i] != (int(b.ElapsedStep[i]) == limit) {
					t.Fatalf("%s: env %d: truncated %v at step %d of %d", id, b.EnvID[i], b.Truncated[i], b.ElapsedStep[i], limit)
				}
				if b.Truncated[i] || b.Terminated[i] {
					ends[b.EnvID[i]] = true
				}
			}
			act := make([]float32, b.Size*nu)
			for i := range b.Size {
				copy(act[i*nu:], RandomAction(rng, nu))
			}
			b, err = pool.Step(act, slices.Clone(b.EnvID))
		}
		pool.Close()
		if err != nil {
			t.Fatalf("%s (%d envs): %v", id, mode.envs, err)
		}
	}
}

// BadInput checks that a task refuses an unknown option, a bad option value (given as
// key and value), a NaN action and an action of the wrong length with errors or
// faults naming them, without a panic.
func BadInput(t *testing.T, id, badKey string, badValue any) {
	RequireMuJoCo(t)
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"speed": 3.0}, "speed"},
		{map[string]any{badKey: badValue}, badKey},
	} {
		if _, err := envs.SpecOf(id, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, options %v: %v, want an error naming %s", id, c.opts, err, c.want)
		}
	}
	pool, err := envs.Make(id, envs.Options{Options: envpool.Options{NumEnvs: 1, BatchSize: 1, NumThreads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Reset(); err != nil {
		t.Fatal(err)
	}
	nan := make([]float32, pool.Spec().ActionSpace.Size())
	nan[0] = float32(math.NaN())
	if _, err := pool.Step(nan, []int32{0}); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("%s: a NaN action: %v, want an error naming it", id, err)
	}
	e, spec := MakeEnv(t, id, nil, 1)
	e.Reset()
	r := e.Step(make([]float32, spec.ActionSpace.Size()+1))
	_, info := Observe(t, e, spec)
	if !r.Truncated || info[spec.InfoIndex(mjrobot.ErrorKey)] != mujoco.FaultBadAction {
		t.Errorf("%s: an action one value too long: %+v, info %v, want truncation with the bad-action fault", id, r, info)
	}
	if f, ok := e.(interface{ Fault() (int, string) }); ok {
		if _, msg := f.Fault(); !strings.Contains(msg, fmt.Sprint(spec.ActionSpace.Size()+1)) {
			t.Errorf("%s: fault message %q does not name the action's length", id, msg)
		}
	}
	e.Reset()
	if r := e.Step(make([]float32, spec.ActionSpace.Size())); r.Truncated {
		t.Errorf("%s: the episode after a bad action ended at once", id)
	}
}

// Render draws a task's env after a reset and a few steps through its Render method
// (the mujoco package's offscreen renderer) and checks the picture is FrameSize
// square and not one flat colour. It skips when libOSMesa cannot be loaded.
func Render(t *testing.T, id string) {
	RequireMuJoCo(t)
	if err := mujoco.LoadOSMesa(); err != nil {
		t.Skipf("rendering tests need Mesa's off-screen OpenGL (apt-get install %s): %v", mujoco.OSMesaPackage, err)
	}
	e, spec := MakeEnv(t, id, nil, 1)
	r, ok := e.(envpool.Renderer)
	if !ok {
		t.Fatalf("%s: envs do not render", id)
	}
	e.Reset()
	for range 3 {
		e.Step(make([]float32, spec.ActionSpace.Size()))
	}
	img, err := r.Render()
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	b := img.Bounds()
	if b.Dx() != mjrobot.FrameSize || b.Dy() != mjrobot.FrameSize {
		t.Fatalf("%s: picture %v, want %d square", id, b, mjrobot.FrameSize)
	}
	first := img.At(0, 0)
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			if img.At(x, y) != first {
				return
			}
		}
	}
	t.Errorf("%s: the picture is one flat colour", id)
}

// Pixels checks a task's picture observations: with from_pixels, pixels_size 32 and
// frame_stack 2 the observation is uint8 (6, 32, 32) without a layout, a reset fills
// both pictures alike, and the pictures are not one flat colour; picture options
// without from_pixels and a camera the model lacks are refused by name. It skips
// when libOSMesa cannot be loaded.
func Pixels(t *testing.T, id string) {
	RequireMuJoCo(t)
	for _, bad := range []map[string]any{{"pixels_size": 32}, {"from_pixels": true, "camera_id": 99}} {
		if _, err := envs.SpecOf(id, bad); err == nil || !strings.Contains(err.Error(), "option") {
			t.Errorf("%s, options %v: %v, want an error naming the option", id, bad, err)
		}
	}
	if err := mujoco.LoadOSMesa(); err != nil {
		t.Skipf("pictures need Mesa's off-screen OpenGL (apt-get install %s): %v", mujoco.OSMesaPackage, err)
	}
	e, spec := MakeEnv(t, id, map[string]any{"from_pixels": true, "pixels_size": 32, "frame_stack": 2}, 1)
	if s := spec.ObsSpace; s.DType != envpool.Uint8 || !slices.Equal(s.Shape, []int{6, 32, 32}) || spec.ObsLayout != nil {
		t.Fatalf("%s: picture observation %v, layout %v", id, s, spec.ObsLayout)
	}
	obs := make([]uint8, spec.ObsSpace.Size())
	info := make([]float32, spec.InfoWidth())
	e.Reset()
	e.Observe(envpool.Obs{U8: obs}, info)
	if !slices.Equal(obs[:3*32*32], obs[3*32*32:]) {
		t.Errorf("%s: the two pictures after a reset differ", id)
	}
	if slices.Min(obs) == slices.Max(obs) {
		t.Errorf("%s: the picture is one flat colour", id)
	}
	e.Step(make([]float32, spec.ActionSpace.Size()))
	e.Observe(envpool.Obs{U8: obs}, info)
	if f := info[spec.InfoIndex(mjrobot.ErrorKey)]; f != 0 {
		t.Errorf("%s: fault %v after a step with pictures", id, f)
	}
}
