package dmc

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStateFrameStack: frame_stack without from_pixels stacks state observations as
// EnvPool stacks each entry of the suite's dict: every field holds its k frames, oldest
// first, and the layout names k times the field's values. A reset fills every frame;
// each step shifts a field's frames and adds the unstacked env's values (same seed and
// actions) as the newest.
func TestStateFrameStack(t *testing.T) {
	const k = 3
	e, spec := makeEnv(t, "CheetahRun-v1", map[string]any{"frame_stack": k}, 4)
	s, sspec := makeEnv(t, "CheetahRun-v1", nil, 4)
	n := sspec.ObsSpace.Size()
	if !slices.Equal(spec.ObsSpace.Shape, []int{k * n}) || len(spec.ObsLayout) != len(sspec.ObsLayout) {
		t.Fatalf("stacked space %v layout %v, want [%d] and %d fields", spec.ObsSpace.Shape, spec.ObsLayout, k*n, len(sspec.ObsLayout))
	}
	for i, f := range spec.ObsLayout {
		if g := sspec.ObsLayout[i]; f.Name != g.Name || f.Size != k*g.Size || f.Offset != k*g.Offset {
			t.Fatalf("field %d: %+v, want %q with %d values at %d", i, f, g.Name, k*g.Size, k*g.Offset)
		}
	}
	// frames returns frame j of every field of a stacked observation, as one unstacked one.
	frame := func(o []float32, j int) []float32 {
		var out []float32
		for _, f := range sspec.ObsLayout {
			at := k*f.Offset + j*f.Size
			out = append(out, o[at:at+f.Size]...)
		}
		return out
	}
	e.Reset()
	s.Reset()
	got, _ := observe(t, e, spec)
	want, _ := observe(t, s, sspec)
	for j := range k {
		if !slices.Equal(frame(got, j), want) {
			t.Fatalf("after a reset frame %d is %v, want %v", j, frame(got, j), want)
		}
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for step := range 4 {
		a := make([]float32, spec.ActionSpace.Size())
		for i := range a {
			a[i] = float32(2*rng.Float64() - 1)
		}
		e.Step(a)
		s.Step(a)
		prev := got
		got, _ = observe(t, e, spec)
		want, _ = observe(t, s, sspec)
		for j := range k - 1 {
			if !slices.Equal(frame(got, j), frame(prev, j+1)) {
				t.Fatalf("step %d: frame %d did not move to %d", step, j+1, j)
			}
		}
		if !slices.Equal(frame(got, k-1), want) {
			t.Fatalf("step %d: newest frame %v, want %v", step, frame(got, k-1), want)
		}
	}
}
