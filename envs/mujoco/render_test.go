package mujoco

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/rlpool/rlpool/envs"
)

var updateRender = flag.Bool("update-render", false, "rewrite the reference pictures in testdata/ from this machine's renderer")

// requireOSMesa skips a test when libMuJoCo or libOSMesa cannot be loaded, naming the
// package to install.
func requireOSMesa(t testing.TB) {
	t.Helper()
	requireMuJoCo(t)
	if err := LoadOSMesa(); err != nil {
		t.Skipf("rendering tests need Mesa's off-screen OpenGL (apt-get install %s, or set %s): %v", OSMesaPackage, OSMesaLibraryEnv, err)
	}
}

// antAfterReset is Ant-v4 seeded 1 right after its reset: the fixed state the
// reference picture shows.
func antAfterReset(t testing.TB) *Env {
	t.Helper()
	e, _ := makeEnv(t, "Ant-v4", nil, 1)
	e.Reset()
	return e
}

func newRenderer(t testing.TB, m *Model, w, h int, o RenderOptions) *Renderer {
	t.Helper()
	r, err := NewRendererWith(m, w, h, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func render(t testing.TB, r *Renderer, d *Data, v View) *image.RGBA {
	t.Helper()
	img, err := r.Render(d, v)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestRenderAntReference renders Ant-v4 after a seeded reset from its "track" camera
// at 120x120, as the model asks (shadows, reflections, 4x multisampling), and compares
// the picture with testdata/ant_track_120.png; the recordings' cheaper settings must
// pass too. The same comparison must fail for the same state seen from the free
// camera and for a later state.
func TestRenderAntReference(t *testing.T) {
	requireOSMesa(t)
	e := antAfterReset(t)
	r := newRenderer(t, e.m, 120, 120, RenderOptions{})
	track, err := e.m.NamedView("track")
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, r, e.d, track)
	ref := filepath.Join("testdata", "ant_track_120.png")
	if *updateRender {
		if err := WritePNG(ref, got); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", ref)
	}
	want, err := ReadPNG(ref)
	if err != nil {
		t.Fatalf("%v (regenerate with go test -run TestRenderAntReference -update-render ./envs/mujoco/)", err)
	}
	if want.Rect != got.Rect {
		t.Fatalf("reference is %v, the renderer drew %v", want.Rect, got.Rect)
	}
	mean, frac := PictureDiff(got, want)
	t.Logf("against the reference: mean difference %.2f per channel, %.2f%% of pixels differ", mean, 100*frac)
	if mean > ReferenceMeanTol || frac > ReferenceFracTol {
		out := filepath.Join(t.TempDir(), "ant_track_120.png")
		if err := WritePNG(out, got); err != nil {
			t.Fatal(err)
		}
		t.Errorf("picture differs from %s: mean %.2f (tolerance %.1f), %.2f%% of pixels (tolerance %.0f%%); this one is in %s",
			ref, mean, ReferenceMeanTol, 100*frac, 100*ReferenceFracTol, out)
	}

	// The cheaper settings draw the same picture within the tolerance.
	for _, o := range []RenderOptions{frameOptions, {ShadowSize: 1024, Samples: -1}} {
		cheap := render(t, newRenderer(t, e.m, 120, 120, o), e.d, track)
		if mean, frac := PictureDiff(cheap, want); mean > ReferenceMeanTol || frac > ReferenceFracTol {
			t.Errorf("options %+v: %.2f, %.2f%% from the reference", o, mean, 100*frac)
		}
	}

	// The comparison can fail: another camera, and the same camera 20 steps later.
	other := render(t, r, e.d, e.m.FreeView())
	mean, frac = PictureDiff(other, want)
	t.Logf("the free camera against the reference: %.2f, %.2f%%", mean, 100*frac)
	if mean < 3*ReferenceMeanTol && frac < 3*ReferenceFracTol {
		t.Errorf("the free camera's picture is within %.2f / %.2f%% of the track camera's reference", mean, 100*frac)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	a := make([]float32, e.m.NU)
	for range 20 {
		for i := range a {
			a[i] = float32(2*rng.Float64() - 1)
		}
		e.Step(a)
	}
	later := render(t, r, e.d, track)
	mean, frac = PictureDiff(later, want)
	t.Logf("20 steps later against the reference: %.2f, %.2f%%", mean, 100*frac)
	if mean < 2*ReferenceMeanTol && frac < 2*ReferenceFracTol {
		t.Errorf("the picture 20 steps later is within %.2f / %.2f%% of the reference", mean, 100*frac)
	}
}

// TestRenderViewsAndBuffers draws one state from each kind of view, checks that
// RenderRGB, RenderRGBA and Render agree (top row first), and that bad arguments are
// errors.
func TestRenderViewsAndBuffers(t *testing.T) {
	requireOSMesa(t)
	e := antAfterReset(t)
	r := newRenderer(t, e.m, 64, 48, RenderOptions{ShadowSize: 512})
	if w, h := r.Size(); w != 64 || h != 48 {
		t.Fatalf("Size() = %d, %d", w, h)
	}
	torso, err := e.m.ID(ObjBody, "torso")
	if err != nil {
		t.Fatal(err)
	}
	tracking := View{Kind: ViewTracking, ID: torso, Distance: 3, Azimuth: 45, Elevation: -30}
	views := map[string]View{"fixed": FixedView(0), "free": e.m.FreeView(), "tracking": tracking, "default": DefaultView()}
	pics := map[string]*image.RGBA{}
	for name, v := range views {
		img := render(t, r, e.d, v)
		pics[name] = img
		rgb := make([]byte, 64*48*3)
		if err := r.RenderRGB(e.d, v, rgb); err != nil {
			t.Fatal(err)
		}
		for y := range 48 {
			for x := range 64 {
				p, q := img.Pix[img.PixOffset(x, y):], rgb[3*(64*y+x):]
				if p[0] != q[0] || p[1] != q[1] || p[2] != q[2] || p[3] != 255 {
					t.Fatalf("%s: RenderRGB and Render differ at (%d, %d): %v, %v", name, x, y, q[:3], p[:4])
				}
			}
		}
	}
	for a := range views {
		for b := range views {
			if a < b {
				if mean, _ := PictureDiff(pics[a], pics[b]); mean < 1 {
					t.Errorf("the %s and %s views drew the same picture (mean difference %.2f)", a, b, mean)
				}
			}
		}
	}
	// The sky is at the top of the track camera's picture and the floor at the bottom:
	// rows are top first.
	fixed := pics["fixed"]
	top, bottom := fixed.RGBAAt(32, 1), fixed.RGBAAt(32, 46)
	if top == bottom {
		t.Errorf("top and bottom rows have the same colour %v", top)
	}

	bad := []struct {
		name string
		err  error
	}{
		{"a fixed camera past the model's", r.RenderRGB(e.d, FixedView(e.m.Size("ncam")), make([]byte, 64*48*3))},
		{"a negative body", r.RenderRGB(e.d, View{Kind: ViewTracking, ID: -1}, make([]byte, 64*48*3))},
		{"an unknown kind", r.RenderRGB(e.d, View{Kind: 7}, make([]byte, 64*48*3))},
		{"a short buffer", r.RenderRGB(e.d, FixedView(0), make([]byte, 64*48*3-1))},
		{"a wrong-sized image", r.RenderRGBA(e.d, FixedView(0), image.NewRGBA(image.Rect(0, 0, 48, 64)))},
	}
	for _, b := range bad {
		if b.err == nil {
			t.Errorf("rendering with %s succeeded", b.name)
		}
	}
	if _, err := e.m.NamedView("no-such-camera"); err == nil {
		t.Error("NamedView of a missing camera succeeded")
	}
	hop, _ := makeEnv(t, "Hopper-v4", nil, 1)
	if err := r.RenderRGB(hop.d, FixedView(0), make([]byte, 64*48*3)); err == nil || !strings.Contains(err.Error(), "differs") {
		t.Errorf("rendering Hopper's data with Ant's renderer: %v", err)
	}
	for _, o := range []RenderOptions{{ShadowSize: -1}, {Samples: -2}, {Samples: 64}} {
		if _, err := NewRendererWith(e.m, 8, 8, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
	if _, err := NewRenderer(e.m, 0, 10); err == nil {
		t.Error("a 0x10 renderer was made")
	}
	r.Close()
	if err := r.RenderRGB(e.d, FixedView(0), make([]byte, 64*48*3)); err != ErrRendererClosed {
		t.Errorf("rendering after Close: %v, want ErrRendererClosed", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestRenderOnAnyThread renders with one renderer from goroutines locked to different
// OS threads, one after the other and at once, and with two renderers in parallel:
// every picture must equal the first, and no call may leave a context current.
func TestRenderOnAnyThread(t *testing.T) {
	requireOSMesa(t)
	e := antAfterReset(t)
	r := newRenderer(t, e.m, 48, 48, RenderOptions{ShadowSize: 512})
	track := FixedView(0)
	first := render(t, r, e.d, track)

	// On two threads held at once, so they are surely different ones.
	var tids [2]int
	var imgs [2]*image.RGBA
	var errs [2]error
	var current [2]uintptr
	draw := func(i int) {
		tids[i] = syscall.Gettid()
		imgs[i], errs[i] = r.Render(e.d, track)
		current[i], _, _ = purego.SyscallN(gl.getCurrentContext)
	}
	held, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		draw(0)
		close(held)
		<-release
	}()
	<-held
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		draw(1)
		close(done)
	}()
	<-done
	close(release)
	for i := range 2 {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if current[i] != 0 {
			t.Errorf("thread %d: a context is still current after Render", tids[i])
		}
		if !bytes.Equal(imgs[i].Pix, first.Pix) {
			t.Errorf("the picture drawn on thread %d differs from the first", tids[i])
		}
	}
	if tids[0] == tids[1] {
		t.Errorf("both goroutines ran on thread %d", tids[0])
	}

	// One renderer shared by four goroutines at once, each drawing its own env's state,
	// and a second renderer alongside.
	r2 := newRenderer(t, e.m, 48, 48, RenderOptions{ShadowSize: 512})
	var datas []*Data
	var want []*image.RGBA
	for seed := range 4 {
		env, _ := makeEnv(t, "Ant-v4", nil, int64(10+seed))
		env.Reset()
		datas = append(datas, env.d)
		want = append(want, render(t, r, env.d, track))
	}
	if bytes.Equal(want[0].Pix, want[1].Pix) {
		t.Fatal("two seeds' states drew the same picture: the check below could not tell them apart")
	}
	var mu sync.Mutex
	var bad []string
	var wg sync.WaitGroup
	for g := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rr, i := r, g
			if g == 4 {
				rr, i = r2, 0
			}
			for k := range 3 {
				img, err := rr.Render(datas[i], track)
				if err == nil && !bytes.Equal(img.Pix, want[i].Pix) {
					err = fmt.Errorf("picture differs from the one drawn alone")
				}
				if err != nil {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("goroutine %d frame %d: %v", g, k, err))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, b := range bad {
		t.Error(b)
	}
}

// TestEveryTaskFrames draws every task's first frame from its own view (FrameView):
// a picture, not a blank, with the view Gymnasium uses.
func TestEveryTaskFrames(t *testing.T) {
	requireOSMesa(t)
	for _, id := range TaskIDs() {
		t.Run(id, func(t *testing.T) {
			e, _ := makeEnv(t, id, nil, 3)
			e.Reset()
			v := e.FrameView()
			_, hasTrack := e.m.NamedView("track")
			if (hasTrack == nil) != (v.Kind == ViewFixed) {
				t.Errorf("view %+v; the model has a track camera: %v", v, hasTrack == nil)
			}
			img, err := e.FrameRGBA()
			if err != nil {
				t.Fatal(err)
			}
			if img.Rect.Dx() != FrameSize || img.Rect.Dy() != FrameSize {
				t.Fatalf("frame is %v", img.Rect)
			}
			// Not blank: many colours, and a good share of pixels away from the most
			// common one (the background). Some tasks' models have no sky or floor, so
			// the background may be black.
			counts := map[[3]uint8]int{}
			for i := 0; i < len(img.Pix); i += 4 {
				counts[[3]uint8{img.Pix[i], img.Pix[i+1], img.Pix[i+2]}]++
			}
			most := 0
			for _, c := range counts {
				most = max(most, c)
			}
			n := len(img.Pix) / 4
			if len(counts) < 64 || float64(n-most) < 0.02*float64(n) {
				t.Errorf("frame looks blank: %d colours, %.1f%% of pixels off the background", len(counts), 100*float64(n-most)/float64(n))
			}
			if os.Getenv("RLPOOL_RENDER_OUT") != "" {
				if err := WritePNG(filepath.Join(os.Getenv("RLPOOL_RENDER_OUT"), id+".png"), img); err != nil {
					t.Fatal(err)
				}
			}
			if e.RenderFPS() <= 0 {
				t.Errorf("RenderFPS %v", e.RenderFPS())
			}
		})
	}
}

// TestFrameViewsFollowGymnasium checks the v4 free views against Gymnasium v0.29.1's
// settings: lookat and distance from DEFAULT_CAMERA_CONFIG, else the geoms' median and
// stat.extent, at MuJoCo's default angles.
func TestFrameViewsFollowGymnasium(t *testing.T) {
	requireMuJoCo(t)
	e, _ := makeEnv(t, "InvertedDoublePendulum-v4", nil, 1)
	e.Reset()
	if v := e.FrameView(); v.Kind != ViewFree || v.Distance != 4.1225 || v.Lookat != [3]float64{0, 0, 0.12250000000000005} || v.Azimuth != 90 || v.Elevation != -45 {
		t.Errorf("InvertedDoublePendulum-v4 view %+v", v)
	}
	e, _ = makeEnv(t, "Reacher-v4", nil, 1)
	e.Reset()
	v := e.FrameView()
	if v.Kind != ViewFree || v.Distance != e.m.Extent() {
		t.Errorf("Reacher-v4 view %+v, want distance = extent %v", v, e.m.Extent())
	}
	xpos := e.d.Float64s("geom_xpos")
	col := make([]float64, 0, len(xpos)/3)
	for i := 2; i < len(xpos); i += 3 {
		col = append(col, xpos[i])
	}
	if v.Lookat[2] != frameMedian(col) {
		t.Errorf("Reacher-v4 lookat z %v, want the geoms' median %v", v.Lookat[2], frameMedian(col))
	}
	if got := frameMedian([]float64{3, 1, 2, 10}); got != 2.5 {
		t.Errorf("median of 1 2 3 10 = %v", got)
	}
	e, _ = makeEnv(t, "Ant-v4", nil, 1)
	track, _ := e.m.NamedView("track")
	if v := e.FrameView(); v != track {
		t.Errorf("Ant-v4 view %+v, want the track camera %+v", v, track)
	}
	// FreeView is mjv_defaultFreeCamera.
	fv := e.m.FreeView()
	if fv.Kind != ViewFree || math.Abs(fv.Distance-1.5*e.m.Extent()) > 1e-12 {
		t.Errorf("FreeView %+v", fv)
	}
}

// TestDefaultViewIsMuJoCos compares DefaultView with mjv_defaultCamera's struct.
func TestDefaultViewIsMuJoCos(t *testing.T) {
	requireOSMesa(t)
	e := antAfterReset(t)
	r := newRenderer(t, e.m, 8, 8, RenderOptions{})
	// NewRenderer left mjv_defaultCamera's values in the camera struct; read them back.
	c := r.cam
	got := View{
		Kind:      ViewKind(*(*int32)(unsafe.Add(c, offCamera_type))),
		ID:        int(*(*int32)(unsafe.Add(c, offCamera_fixedcamid))),
		Distance:  *(*float64)(unsafe.Add(c, offCamera_distance)),
		Azimuth:   *(*float64)(unsafe.Add(c, offCamera_azimuth)),
		Elevation: *(*float64)(unsafe.Add(c, offCamera_elevation)),
	}
	if got != DefaultView() {
		t.Errorf("mjv_defaultCamera gives %+v, DefaultView %+v", got, DefaultView())
	}
}

// TestMissingOSMesaNamesPackage loads a renderer in a child process pointed at a
// missing library: the error names Debian's package and the variable.
func TestMissingOSMesaNamesPackage(t *testing.T) {
	if os.Getenv("RLPOOL_OSMESA_LOAD_CHILD") == "1" {
		if err := LoadOSMesa(); err != nil {
			os.Stdout.WriteString("LOAD ERROR: " + err.Error() + "\n")
		}
		if _, _, err := envs.MakeEnv("Ant-v4", map[string]any{"from_pixels": true}, 0); err != nil {
			os.Stdout.WriteString("MAKE ERROR: " + err.Error() + "\n")
		}
		return
	}
	requireMuJoCo(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestMissingOSMesaNamesPackage$", "-test.v")
	cmd.Env = append(os.Environ(), "RLPOOL_OSMESA_LOAD_CHILD=1", OSMesaLibraryEnv+"=/nonexistent/libOSMesa.so.8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	s := string(out)
	if !strings.Contains(s, "LOAD ERROR:") || !strings.Contains(s, "apt-get install "+OSMesaPackage) || !strings.Contains(s, OSMesaLibraryEnv) {
		t.Fatalf("error does not name the Debian package %s and %s:\n%s", OSMesaPackage, OSMesaLibraryEnv, s)
	}
	// Pixel observations need the renderer: make says so at once, naming the task.
	if !strings.Contains(s, "MAKE ERROR: ") || !strings.Contains(s, "Ant-v4: from_pixels: mujoco: rendering") || strings.Count(s, "apt-get install "+OSMesaPackage) != 2 {
		t.Fatalf("making Ant-v4 with from_pixels does not fail naming the task, the option and %s:\n%s", OSMesaPackage, s)
	}
}

// BenchmarkRender times drawing Ant-v4 from its track camera and reading the pixels
// back, at the control suite's 84x84 and the recordings' 240x240: as the model asks
// (model: 4096-texel shadow map, 4x multisampling), with the recordings' 1024-texel
// shadow map (frames), that without multisampling (noaa), and with neither
// multisampling, shadows nor reflections (plain). frames/cpu-s counts
// every thread's CPU time, llvmpipe's included, so it holds on a busy machine.
func BenchmarkRender(b *testing.B) {
	requireOSMesa(b)
	e := antAfterReset(b)
	for _, size := range []int{84, 240} {
		for _, o := range []struct {
			name string
			opts RenderOptions
		}{{"model", RenderOptions{}}, {"frames", frameOptions}, {"noaa", RenderOptions{ShadowSize: 1024, Samples: -1}},
			{"plain", RenderOptions{Samples: -1, NoShadows: true, NoReflections: true}}} {
			b.Run(fmt.Sprintf("%dx%d/%s", size, size, o.name), func(b *testing.B) {
				r := newRenderer(b, e.m, size, size, o.opts)
				pix := make([]byte, size*size*3)
				if err := r.RenderRGB(e.d, FixedView(0), pix); err != nil { // compiles the shaders
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cpuTime()
				start := time.Now()
				for range b.N {
					if err := r.RenderRGB(e.d, FixedView(0), pix); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "frames/s")
				if d := cpuTime() - cpu0; d > 0 {
					b.ReportMetric(float64(b.N)/d.Seconds(), "frames/cpu-s")
				}
			})
		}
	}
}
