package dmc

// The helpers of the package's tests: making envs and rolling them out, reading and
// checking observations, looking up names and setting states, and the suite's reward
// formulas written out by hand. The formulas are kept apart from the package's
// Tolerance, so that a test that compares a task's reward with them checks Tolerance
// and the task's use of it together.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/mujocotest"
)

// makeEnv builds one env of a task outside any pool, closed when the test ends.
func makeEnv(t testing.TB, id string, opts map[string]any, seed int64) (*Env, envpool.Spec) {
	t.Helper()
	e, spec := mujocotest.MakeEnv(t, id, opts, seed)
	return e.(*Env), spec
}

// randomAction draws a uniform action within the spec's bounds (unbounded: within ±1).
func randomAction(rng *rand.Rand, spec envpool.Spec) []float32 {
	a := make([]float32, spec.ActionSpace.Size())
	for i := range a {
		lo, hi := float64(spec.ActionSpace.Low[i]), float64(spec.ActionSpace.High[i])
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			lo, hi = -1, 1
		}
		a[i] = float32(lo + (hi-lo)*rng.Float64())
	}
	return a
}

// rollout observes an env n times: it resets it every resetEvery observations and
// takes random actions (from a generator seeded with seed) in between, calling
// afterReset (when not nil) right after each reset and check with every observation.
func rollout(t testing.TB, e *Env, spec envpool.Spec, n, resetEvery int, seed uint64, afterReset func(), check func(obs []float32)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for i := range n {
		if i%resetEvery == 0 {
			e.Reset()
			if afterReset != nil {
				afterReset()
			}
		} else {
			e.Step(randomAction(rng, spec))
		}
		obs, _ := observe(t, e, spec)
		check(obs)
	}
}

// observe returns the env's current observation and info, failing the test when the
// task leaves an element unwritten (they start as NaN).
func observe(t testing.TB, e *Env, spec envpool.Spec) ([]float32, []float32) {
	t.Helper()
	obs := make([]float32, spec.ObsSpace.Size())
	for i := range obs {
		obs[i] = float32(math.NaN())
	}
	info := make([]float32, spec.InfoWidth())
	e.Observe(envpool.Obs{F32: obs}, info)
	for i, v := range obs {
		if math.IsNaN(float64(v)) {
			t.Fatalf("%s: observation element %d (%s) left unwritten or NaN", spec.TaskID, i, entryAt(spec, i))
		}
	}
	return obs, info
}

// entryAt names the observation entry that holds element i, for messages.
func entryAt(spec envpool.Spec, i int) string {
	for _, f := range spec.ObsLayout {
		if i >= f.Offset && i < f.Offset+f.Size {
			return f.Name
		}
	}
	return "outside the layout"
}

// entry returns the named entry of an observation, failing when there is none.
func entry(t testing.TB, spec envpool.Spec, obs []float32, name string) []float32 {
	t.Helper()
	for _, f := range spec.ObsLayout {
		if f.Name == name {
			return obs[f.Offset : f.Offset+f.Size]
		}
	}
	t.Fatalf("%s has no observation entry %q", spec.TaskID, name)
	return nil
}

// checkTiming fails unless a task takes frameSkip physics steps of timestep seconds
// per action, so that its episodes span the suite's time limit (seconds).
func checkTiming(t testing.TB, e *Env, spec envpool.Spec, frameSkip int, timestep, seconds float64) {
	t.Helper()
	if dt := e.Physics().M.Timestep; spec.FrameSkip != frameSkip || dt != timestep {
		t.Errorf("%s: frame skip %d of %g s, want %d of %g s (the suite's control timestep / model timestep)", spec.TaskID, spec.FrameSkip, dt, frameSkip, timestep)
	}
	if got := float64(spec.MaxEpisodeSteps*spec.FrameSkip) * e.Physics().M.Timestep; math.Abs(got-seconds) > 1e-9 {
		t.Errorf("%s: episodes last %g s, want the suite's %g s", spec.TaskID, got, seconds)
	}
}

// checkLayout fails unless the spec's observation entries are named and sized as want
// ("name:size", in order).
func checkLayout(t testing.TB, spec envpool.Spec, want ...string) {
	t.Helper()
	var got []string
	for _, f := range spec.ObsLayout {
		got = append(got, fmt.Sprintf("%s:%d", f.Name, f.Size))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s: observation layout %v, want %v", spec.TaskID, got, want)
	}
}

// checkEntry fails unless the named observation entry holds want, each value rounded
// to float32 as the observation holds it, to 1e-6 (relative beyond magnitude 1).
func checkEntry(t testing.TB, spec envpool.Spec, obs []float32, name string, want ...float64) {
	t.Helper()
	got := entry(t, spec, obs, name)
	if len(got) != len(want) {
		t.Fatalf("%s: entry %s has %d values, want %d", spec.TaskID, name, len(got), len(want))
	}
	for i := range got {
		w := float64(float32(want[i]))
		if !near(float64(got[i]), w, 1e-6*max(1, math.Abs(w))) {
			t.Fatalf("%s: %s[%d] = %v, want %v (entry %v, want %v)", spec.TaskID, name, i, got[i], want[i], got, want)
		}
	}
}

// checkObs fails unless the whole observation equals want, entry by entry as
// checkEntry compares them.
func checkObs(t testing.TB, spec envpool.Spec, obs []float32, want []float64) {
	t.Helper()
	if len(obs) != len(want) {
		t.Fatalf("%s: observation of %d values, want %d", spec.TaskID, len(obs), len(want))
	}
	for _, f := range spec.ObsLayout {
		checkEntry(t, spec, obs, f.Name, want[f.Offset:f.Offset+f.Size]...)
	}
}

// near reports whether got lies within tol of want.
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// checkNear fails unless got is within 1e-6 of want.
func checkNear(t testing.TB, what string, got, want float64) {
	t.Helper()
	if !near(got, want, 1e-6) {
		t.Fatalf("%s = %.9g, want %.9g", what, got, want)
	}
}

// checkInRange fails unless lo <= x <= hi.
func checkInRange(t testing.TB, what string, x, lo, hi float64) {
	t.Helper()
	if !(x >= lo && x <= hi) {
		t.Fatalf("%s = %g, outside [%g, %g]", what, x, lo, hi)
	}
}

// mustID resolves a name of a model object (mujoco.ObjBody, ...) or fails.
func mustID(t testing.TB, p *Physics, objType int, name string) int {
	t.Helper()
	id, err := p.ID(objType, name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// mustJoint returns where a named joint's values start in qpos and qvel, or fails.
func mustJoint(t testing.TB, p *Physics, name string) Joint {
	t.Helper()
	return p.jointAt(mustID(t, p, mujoco.ObjJoint, name))
}

// sensorValues returns a copy of the current values of named sensors, one after
// another, or fails.
func sensorValues(t testing.TB, p *Physics, names ...string) []float64 {
	t.Helper()
	var out []float64
	for _, n := range names {
		out = append(out, p.SensorData(p.sensorAt(mustID(t, p, mujoco.ObjSensor, n)))...)
	}
	return out
}

// mapped returns f of each of xs, for observations that transform sensor values
// (log1p of touch, asinh of forces, ...).
func mapped(f func(float64) float64, xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// forward runs mj_forward after a test has written a state, or fails.
func forward(t testing.TB, p *Physics) {
	t.Helper()
	if err := p.Forward(); err != nil {
		t.Fatal(err)
	}
}

// setState writes qpos (nil: the model's qpos0) and qvel (nil: zeros), zeroes the
// controls unless ctrl is given, and runs a forward pass, so that a reward can be
// computed by hand from the state.
func setState(t testing.TB, p *Physics, qpos, qvel, ctrl []float64) {
	t.Helper()
	copy(p.D.Qpos, p.M.Qpos0)
	if qpos != nil {
		copy(p.D.Qpos, qpos)
	}
	clear(p.D.Qvel)
	copy(p.D.Qvel, qvel)
	clear(p.D.Ctrl)
	copy(p.D.Ctrl, ctrl)
	forward(t, p)
}

// rewardAt sets a state (see setState) and returns the task's reward of it.
func rewardAt(t testing.TB, e *Env, qpos, qvel, ctrl []float64) float64 {
	t.Helper()
	setState(t, e.Physics(), qpos, qvel, ctrl)
	return e.logic.reward(e.Physics())
}

// meanStd returns the mean and the standard deviation of xs.
func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

// sq returns x squared.
func sq(x float64) float64 { return x * x }

// inFrame returns the world vector v in the frame of a row-major rotation matrix
// (R^T v), written out apart from the package's vecInFrame.
func inFrame(mat []float64, v ...float64) []float64 {
	out := make([]float64, 3)
	for j := range 3 {
		for i := range 3 {
			out[j] += mat[3*i+j] * v[i]
		}
	}
	return out
}

// marginsOutside is the distance of x from [lo, hi] in margins (0 inside).
func marginsOutside(x, lo, hi, margin float64) float64 {
	switch {
	case x < lo:
		return (lo - x) / margin
	case x > hi:
		return (x - hi) / margin
	}
	return 0
}

// gaussianTol is tolerance's gaussian fall-off with 0.1 at the margin, written out:
// 1 inside [lo, hi], else 0.1^(d^2) with d the distance in margins.
func gaussianTol(x, lo, hi, margin float64) float64 {
	d := marginsOutside(x, lo, hi, margin)
	return math.Pow(0.1, d*d)
}

// linearTol is tolerance's linear fall-off written out: 1 inside [lo, hi], else
// 1 - d*(1 - v) (v at one margin), clipped at 0.
func linearTol(x, lo, hi, margin, v float64) float64 {
	return max(0, 1-marginsOutside(x, lo, hi, margin)*(1-v))
}

// smallControlByHand is the suite's small_control written out: (4 + the mean over the
// controls of max(0, 1 - u^2)) / 5.
func smallControlByHand(ctrl ...float64) float64 {
	s := 0.0
	for _, u := range ctrl {
		s += max(0, 1-u*u)
	}
	return (4 + s/float64(len(ctrl))) / 5
}
