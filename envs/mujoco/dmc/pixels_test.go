package dmc

import (
	"flag"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/mujocotest"
)

var updateRender = flag.Bool("update-render", false, "rewrite the reference pictures in testdata/ from this machine's renderer")

// requireOSMesa skips a test when Mesa's off-screen OpenGL cannot be loaded.
func requireOSMesa(t testing.TB) {
	t.Helper()
	mujocotest.RequireMuJoCo(t)
	if err := mujoco.LoadOSMesa(); err != nil {
		t.Skipf("rendering tests need Mesa's off-screen OpenGL (apt-get install %s): %v", mujoco.OSMesaPackage, err)
	}
}

// TestPixelObservations: with from_pixels the observation is uint8 (3k, n, n); a reset
// fills all k slots with its picture; each step shifts the stack by one picture (the
// newest of one step is the middle one of the next); state tasks' rewards and info stay.
func TestPixelObservations(t *testing.T) {
	requireOSMesa(t)
	opts := map[string]any{"from_pixels": true, "pixels_size": 48, "frame_stack": 3}
	e, spec := makeEnv(t, "CheetahRun-v1", opts, 1)
	if spec.ObsSpace.DType != envpool.Uint8 || !slices.Equal(spec.ObsSpace.Shape, []int{9, 48, 48}) || spec.ObsLayout != nil {
		t.Fatalf("pixel spec: %v %v, layout %v", spec.ObsSpace.DType, spec.ObsSpace.Shape, spec.ObsLayout)
	}
	n := 3 * 48 * 48
	obs := func() []uint8 {
		o := make([]uint8, spec.ObsSpace.Size())
		info := make([]float32, spec.InfoWidth())
		e.Observe(envpool.Obs{U8: o}, info)
		if info[2] != 0 {
			f, msg := e.Fault()
			t.Fatalf("fault %d: %s", f, msg)
		}
		return o
	}
	e.Reset()
	o0 := obs()
	if !slices.Equal(o0[:n], o0[n:2*n]) || !slices.Equal(o0[:n], o0[2*n:]) {
		t.Fatalf("after a reset the three slots differ")
	}
	if slices.Max(o0) == slices.Min(o0) {
		t.Fatalf("the picture is blank")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	prev := o0
	changed := false
	for range 10 {
		e.Step(randomAction(rng, spec))
		o := obs()
		if !slices.Equal(o[:2*n], prev[n:]) {
			t.Fatalf("the stack did not shift by one picture")
		}
		changed = changed || !slices.Equal(o[2*n:], prev[2*n:])
		prev = o
	}
	if !changed {
		t.Errorf("ten steps of random actions left the picture unchanged")
	}
	// The newest picture is camera 0's view of the state, channels as planes.
	r, err := mujoco.NewRendererWith(e.Physics().M, 48, 48, mujoco.PixelRenderOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rgb := make([]uint8, n)
	if err := r.RenderRGB(e.Physics().D, mujoco.FixedView(0), rgb); err != nil {
		t.Fatal(err)
	}
	newest := prev[2*n:]
	for i := range 48 * 48 {
		for c := range 3 {
			if newest[c*48*48+i] != rgb[3*i+c] {
				t.Fatalf("pixel %d channel %d: observation %d, camera 0 %d", i, c, newest[c*48*48+i], rgb[3*i+c])
			}
		}
	}
}

// TestPixelPool steps a pixel task (pixels_fast) in a pool of 4 envs on 2 workers, the way training
// runs it: every row is written and the episode bookkeeping is the state task's.
func TestPixelPool(t *testing.T) {
	requireOSMesa(t)
	pool, err := envs.Make("WalkerWalk-v1", envs.Options{Family: map[string]any{"from_pixels": true, "pixels_fast": true},
		Options: envpool.Options{NumEnvs: 4, BatchSize: 4, NumThreads: 2, Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	spec := *pool.Spec()
	if !slices.Equal(spec.ObsSpace.Shape, []int{9, 84, 84}) {
		t.Fatalf("shape %v, want the defaults 9x84x84", spec.ObsSpace.Shape)
	}
	b, err := pool.Reset()
	if err != nil {
		t.Fatal(err)
	}
	act := make([]float32, 4*spec.ActionSpace.Size())
	for range 5 {
		if b, err = pool.Step(act, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 4 {
		row := b.RowU8(i)
		if slices.Max(row) == slices.Min(row) {
			t.Errorf("env %d: blank observation", i)
		}
	}
}

// TestPixelOptions: bad pixel options are errors naming them, and pixel options without
// from_pixels are refused rather than ignored.
func TestPixelOptions(t *testing.T) {
	requireOSMesa(t)
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"from_pixels": true, "pixels_size": 0}, "pixels_size"},
		{map[string]any{"from_pixels": true, "frame_stack": 0}, "frame_stack"},
		{map[string]any{"from_pixels": true, "camera_id": 7}, "camera_id"},
		{map[string]any{"from_pixels": true, "camera_id": -1}, "camera_id"},
		{map[string]any{"pixels_size": 64}, "pixels_size"},
		{map[string]any{"pixels_fast": true}, "pixels_fast"},
	} {
		_, _, err := envs.MakeEnv("CheetahRun-v1", c.opts, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("options %v: %v, want an error naming %s", c.opts, err, c.want)
		}
	}
}

// TestRenderCheetahReference draws CheetahRun-v1 after a seeded reset from camera 0 at
// 120x120 and compares it with testdata/cheetah_run_cam0_120.png; the same comparison
// must fail for a later state.
func TestRenderCheetahReference(t *testing.T) {
	requireOSMesa(t)
	e, _ := makeEnv(t, "CheetahRun-v1", nil, 1)
	e.Reset()
	r, err := mujoco.NewRenderer(e.Physics().M, 120, 120)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Render(e.Physics().D, mujoco.FixedView(0))
	if err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join("testdata", "cheetah_run_cam0_120.png")
	if *updateRender {
		if err := mujoco.WritePNG(ref, got); err != nil {
			t.Fatal(err)
		}
	}
	want, err := mujoco.ReadPNG(ref)
	if err != nil {
		t.Fatalf("%v (regenerate with go test -run TestRenderCheetahReference -update-render ./envs/mujoco/dmc/)", err)
	}
	mean, frac := mujoco.PictureDiff(got, want)
	if mean > mujoco.ReferenceMeanTol || frac > mujoco.ReferenceFracTol {
		out := filepath.Join(t.TempDir(), "cheetah_run_cam0_120.png")
		mujoco.WritePNG(out, got)
		t.Errorf("picture differs from %s: mean %.2f, %.2f%% of pixels; this one is in %s", ref, mean, 100*frac, out)
	}
	// The comparison can fail: the other camera, and a state 300 steps later.
	other, err := r.Render(e.Physics().D, mujoco.FixedView(1))
	if err != nil {
		t.Fatal(err)
	}
	if mean, frac := mujoco.PictureDiff(other, want); mean < 3*mujoco.ReferenceMeanTol && frac < 3*mujoco.ReferenceFracTol {
		t.Errorf("camera 1's picture is within %.2f / %.2f%% of camera 0's reference", mean, 100*frac)
	}
	// The cheetah turned over (root angle + pi).
	p := e.Physics()
	rooty := mustJoint(t, p, "rooty")
	p.D.Qpos[rooty.Qpos] += math.Pi
	forward(t, p)
	later, err := r.Render(p.D, mujoco.FixedView(0))
	if err != nil {
		t.Fatal(err)
	}
	if mean, frac := mujoco.PictureDiff(later, want); mean < mujoco.ReferenceMeanTol && frac < mujoco.ReferenceFracTol {
		t.Errorf("the cheetah on its back is within %.2f / %.2f%% of the reference", mean, 100*frac)
	}
	// Recordings draw the same camera.
	f, err := e.FrameRGBA()
	if err != nil || f.Rect.Dx() != FrameSize {
		t.Fatalf("FrameRGBA: %v, %v", f.Rect, err)
	}
	if e.RenderFPS() != 100 {
		t.Errorf("RenderFPS %v, want 100 (one frame per 10 ms control step)", e.RenderFPS())
	}
}

// TestEveryDomainFrames: each domain's model (its first task's) draws from camera 0
// (what train eval -gif records, there at FrameSize with shadows) a picture that is
// not blank; here at 64x64 without shadows or reflections, and one task per domain,
// since making a renderer takes about half a second (textures uploaded to llvmpipe).
func TestEveryDomainFrames(t *testing.T) {
	requireOSMesa(t)
	pic := make([]uint8, 3*64*64)
	seen := map[string]bool{}
	for _, d := range taskDefs {
		if seen[d.domain] {
			continue
		}
		seen[d.domain] = true
		id := d.id()
		e, _ := makeEnv(t, id, nil, 1)
		e.Reset()
		r, err := mujoco.NewRendererWith(e.Physics().M, 64, 64, mujoco.FastPixelRenderOptions)
		if err == nil {
			err = r.RenderRGB(e.Physics().D, mujoco.FixedView(0), pic)
			r.Close()
		}
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		colours := map[[3]uint8]bool{}
		for i := 0; i < len(pic); i += 3 {
			colours[[3]uint8{pic[i], pic[i+1], pic[i+2]}] = true
		}
		if len(colours) < 16 {
			t.Errorf("%s: the picture has %d colours; blank?", id, len(colours))
		}
	}
}
