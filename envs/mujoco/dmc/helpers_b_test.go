package dmc

// Test helpers of the walker, hopper, humanoid, humanoid_CMU, swimmer and fish tests
// (helper file "b"); their names end in B to keep clear of the other domains' helpers.

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// wantLayoutB fails unless the spec's observation entries have these names and sizes,
// in this order.
func wantLayoutB(t *testing.T, spec envpool.Spec, names []string, sizes []int) {
	t.Helper()
	if len(spec.ObsLayout) != len(names) {
		t.Fatalf("%s: layout %+v, want entries %v of sizes %v", spec.TaskID, spec.ObsLayout, names, sizes)
	}
	for i, f := range spec.ObsLayout {
		if f.Name != names[i] || f.Size != sizes[i] {
			t.Fatalf("%s: entry %d is %s (%d), want %s (%d)", spec.TaskID, i, f.Name, f.Size, names[i], sizes[i])
		}
	}
}

// wantEntryB fails unless the named observation entry holds want (as float32, to 1e-6
// relative).
func wantEntryB(t *testing.T, spec envpool.Spec, obs []float32, name string, want ...float64) {
	t.Helper()
	got := entry(t, spec, obs, name)
	if len(got) != len(want) {
		t.Fatalf("%s: entry %s has %d values, want %d", spec.TaskID, name, len(got), len(want))
	}
	for i := range got {
		w := float64(float32(want[i]))
		if math.Abs(float64(got[i])-w) > 1e-6*max(1, math.Abs(w)) {
			t.Fatalf("%s: %s[%d] = %v, want %v", spec.TaskID, name, i, got[i], want[i])
		}
	}
}

// nearB fails unless got is within 1e-6 of want.
func nearB(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !(math.Abs(got-want) <= 1e-6) {
		t.Fatalf("%s = %.9g, want %.9g", what, got, want)
	}
}

// bodyIDB resolves a body name or fails.
func bodyIDB(t *testing.T, p *Physics, name string) int {
	t.Helper()
	id, err := p.ID(mujoco.ObjBody, name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// jointAtB returns where a named joint's values start in qpos and qvel, or fails.
func jointAtB(t *testing.T, p *Physics, name string) Joint {
	t.Helper()
	j, err := p.Joints(name)
	if err != nil {
		t.Fatal(err)
	}
	return j[0]
}

// sensorValuesB returns a named sensor's current values, or fails.
func sensorValuesB(t *testing.T, p *Physics, name string) []float64 {
	t.Helper()
	s, err := p.Sensors(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.SensorData(s[0])
}

// setStateB writes qpos and qvel (nil: zeros), zeroes the controls unless ctrl is given,
// and runs a forward pass, so that a reward can be computed by hand from the state.
func setStateB(t *testing.T, p *Physics, qpos, qvel, ctrl []float64) {
	t.Helper()
	copy(p.D.Qpos, p.M.Qpos0)
	if qpos != nil {
		copy(p.D.Qpos, qpos)
	}
	clear(p.D.Qvel)
	copy(p.D.Qvel, qvel)
	clear(p.D.Ctrl)
	copy(p.D.Ctrl, ctrl)
	if err := p.Forward(); err != nil {
		t.Fatal(err)
	}
}

// statesB visits n states of env e: a reset every `every` states and random actions
// (from a generator seeded with seed) between them, calling check with each state's
// observation.
func statesB(t *testing.T, e *Env, spec envpool.Spec, n, every int, seed uint64, check func(obs []float32)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := range n {
		if i%every == 0 {
			e.Reset()
		} else {
			e.Step(randomAction(rng, spec))
		}
		obs, _ := observe(t, e, spec)
		check(obs)
	}
}

// marginsB is the distance of x from [lo, hi] in margins (0 inside).
func marginsB(x, lo, hi, margin float64) float64 {
	switch {
	case x < lo:
		return (lo - x) / margin
	case x > hi:
		return (x - hi) / margin
	}
	return 0
}

// gaussianTolB is tolerance's gaussian fall-off with 0.1 at the margin, written out:
// 1 inside [lo, hi], else 0.1^(d^2) with d the distance in margins.
func gaussianTolB(x, lo, hi, margin float64) float64 {
	d := marginsB(x, lo, hi, margin)
	return math.Pow(0.1, d*d)
}

// linearTolB is tolerance's linear fall-off written out: 1 inside [lo, hi], else
// 1 - d*(1 - v) (v at one margin), clipped at 0.
func linearTolB(x, lo, hi, margin, v float64) float64 {
	return max(0, 1-marginsB(x, lo, hi, margin)*(1-v))
}
