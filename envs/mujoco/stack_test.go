package mujoco

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

// TestPixelObservationsGym: with from_pixels the observation is uint8 (3k, n, n); a
// reset fills every slot with its picture; each step shifts the stack by one picture
// along the channels; the newest picture is Render's view of the state drawn at n x n,
// for the reset and three steps (EnvPool's check); rewards, endings and info columns
// are the state task's, value for value. Ant-v4 draws from its track camera,
// Reacher-v5 from a free camera aimed at the geoms' median; with camera_id 1
// Humanoid-v4 draws from the model's second camera, not its track camera (0).
func TestPixelObservationsGym(t *testing.T) {
	const size, stack = 48, 3
	requireOSMesa(t)
	cameras := map[string]int{"Ant-v4": -1, "Reacher-v5": -1, "Humanoid-v4": 1}
	for id, camera := range cameras {
		t.Run(id, func(t *testing.T) {
			opts := map[string]any{"from_pixels": true, "pixels_size": size, "frame_stack": stack}
			if camera >= 0 {
				opts["camera_id"] = camera
			}
			e, spec := makeEnv(t, id, opts, 5)
			s, sspec := makeEnv(t, id, nil, 5)
			if spec.ObsSpace.DType != envpool.Uint8 || !slices.Equal(spec.ObsSpace.Shape, []int{3 * stack, size, size}) {
				t.Fatalf("pixel space %v %v, want uint8 [9 48 48]", spec.ObsSpace.DType, spec.ObsSpace.Shape)
			}
			if !slices.Equal(spec.InfoKeys, sspec.InfoKeys) {
				t.Fatalf("info keys %v, the state task's %v", spec.InfoKeys, sspec.InfoKeys)
			}
			ref, err := NewRendererWith(e.m, size, size, PixelRenderOptions)
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Close()
			n := 3 * size * size
			obs := make([]uint8, spec.ObsSpace.Size())
			info := make([]float32, spec.InfoWidth())
			// check observes e and compares its newest picture with a fresh drawing and
			// its info with the state env's.
			check := func(when string) []uint8 {
				t.Helper()
				e.Observe(envpool.Obs{U8: obs}, info)
				hwc := make([]uint8, n)
				view := e.renderView()
				if camera >= 0 {
					view = FixedView(camera)
				}
				if err := ref.RenderRGB(e.d, view, hwc); err != nil {
					t.Fatal(err)
				}
				newest, plane := obs[(stack-1)*n:], n/3
				for i, v := range hwc { // pixel i/3's channel i%3 is in plane i%3
					if newest[(i%3)*plane+i/3] != v {
						t.Fatalf("%s: the newest picture is not camera %d's view drawn at %dx%d", when, camera, size, size)
					}
				}
				_, sinfo := observe(s, sspec)
				if !slices.Equal(info, sinfo) {
					t.Fatalf("%s: info %v, the state task's %v", when, info, sinfo)
				}
				return slices.Clone(obs)
			}
			e.Reset()
			s.Reset()
			prev := check("reset")
			for k := 1; k < stack; k++ {
				if !slices.Equal(prev[:n], prev[k*n:(k+1)*n]) {
					t.Fatalf("after a reset slot %d differs from slot 0", k)
				}
			}
			if slices.Min(prev) == slices.Max(prev) {
				t.Fatal("the picture is blank")
			}
			rng := rand.New(rand.NewPCG(2, 2))
			moved := false
			for step := range 3 {
				a := make([]float32, e.m.NU)
				randomAction(rng, spec, a)
				r, sr := e.Step(a), s.Step(a)
				if r != sr {
					t.Fatalf("step %d: result %+v, the state task's %+v", step, r, sr)
				}
				cur := check("step")
				if !slices.Equal(cur[:(stack-1)*n], prev[n:]) {
					t.Fatalf("step %d: the stack did not shift by one picture", step)
				}
				moved = moved || !slices.Equal(cur[(stack-1)*n:], prev[(stack-1)*n:])
				prev = cur
			}
			if !moved {
				t.Error("three steps left the picture unchanged")
			}
		})
	}
}

// TestStateFrameStack: frame_stack on state observations gives (k, n) float32; a reset
// fills every row with the reset's observation; each step shifts the rows and adds the
// unstacked env's observation (same seed, same actions) as the last row.
func TestStateFrameStack(t *testing.T) {
	requireMuJoCo(t)
	const stack = 3
	e, spec := makeEnv(t, "HalfCheetah-v5", map[string]any{"frame_stack": stack}, 9)
	s, sspec := makeEnv(t, "HalfCheetah-v5", nil, 9)
	n := sspec.ObsSpace.Size()
	if spec.ObsSpace.DType != envpool.Float32 || !slices.Equal(spec.ObsSpace.Shape, []int{stack, n}) {
		t.Fatalf("stacked space %v %v, want float32 [%d %d]", spec.ObsSpace.DType, spec.ObsSpace.Shape, stack, n)
	}
	e.Reset()
	s.Reset()
	got, _ := observe(e, spec)
	want, _ := observe(s, sspec)
	for k := range stack {
		if !slices.Equal(got[k*n:(k+1)*n], want) {
			t.Fatalf("after a reset row %d is %v, want the reset's %v", k, got[k*n:(k+1)*n], want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for step := range 5 {
		a := make([]float32, e.m.NU)
		randomAction(rng, spec, a)
		e.Step(a)
		s.Step(a)
		prev := got
		got, _ = observe(e, spec)
		want, _ = observe(s, sspec)
		if !slices.Equal(got[:(stack-1)*n], prev[n:]) || !slices.Equal(got[(stack-1)*n:], want) {
			t.Fatalf("step %d: rows %v, want the previous rows shifted and %v last", step, got, want)
		}
	}
	// frame_stack 1, the default, is the unstacked space.
	_, one := makeEnv(t, "HalfCheetah-v5", map[string]any{"frame_stack": 1}, 9)
	if !slices.Equal(one.ObsSpace.Shape, []int{n}) {
		t.Errorf("frame_stack 1 gives shape %v, want [%d]", one.ObsSpace.Shape, n)
	}
}
