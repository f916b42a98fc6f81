package mujoco

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"github.com/ebitengine/purego"
)

// ViewKind says how a View places the camera: MuJoCo's mjtCamera.
type ViewKind int

// View kinds.
const (
	// ViewFree looks at Lookat from Distance, turned by Azimuth and Elevation.
	ViewFree ViewKind = mjCAMERA_FREE
	// ViewTracking is a free view whose Lookat follows body ID (the centre of mass of
	// its subtree), keeping the distance and angles it is given.
	ViewTracking ViewKind = mjCAMERA_TRACKING
	// ViewFixed is the model's camera ID (a <camera> of the MJCF, which may itself
	// follow a body, like Gymnasium's "track" cameras).
	ViewFixed ViewKind = mjCAMERA_FIXED
)

// View is where a picture is taken from: MuJoCo's abstract camera (mjvCamera). ID is
// the model camera's id for ViewFixed and the followed body's id for ViewTracking; the
// pose fields are used by ViewFree and ViewTracking. (A v5 task's default_camera_config
// is a Camera; Env.FrameView turns it into a View.)
type View struct {
	Kind ViewKind
	ID   int
	// Lookat is the point looked at, Distance the camera's distance from it.
	Lookat   [3]float64
	Distance float64
	// Azimuth and Elevation turn the camera around Lookat, in degrees.
	Azimuth, Elevation float64
}

// FixedView is the model's camera id, as the control suite renders (camera 0 by
// default) and as Gymnasium renders a model's "track" camera.
func FixedView(id int) View { return View{Kind: ViewFixed, ID: id} }

// DefaultView is MuJoCo's default free camera (mjv_defaultCamera): looking at the
// origin from 2 units, azimuth 90 and elevation -45 degrees. Gymnasium's viewers start
// from it before applying a task's camera settings.
func DefaultView() View {
	return View{Kind: ViewFree, ID: -1, Distance: 2, Azimuth: 90, Elevation: -45}
}

// NamedView returns the model's camera of that name as a fixed view.
func (m *Model) NamedView(name string) (View, error) {
	id, err := m.ID(mjOBJ_CAMERA, name)
	if err != nil {
		return View{}, err
	}
	return FixedView(id), nil
}

// FreeView is the model's own free camera (mjv_defaultFreeCamera): it looks at
// stat.center from 1.5 x stat.extent with the model's <visual><global> azimuth and
// elevation, framing the whole model as MuJoCo's viewer first shows it.
func (m *Model) FreeView() View {
	c := View{Kind: ViewFree, ID: -1, Distance: 1.5 * m.Extent()}
	copy(c.Lookat[:], unsafe.Slice((*float64)(unsafe.Add(m.p, offM_stat_center)), 3))
	c.Azimuth = float64(*(*float32)(unsafe.Add(m.p, offM_vis_global_azimuth)))
	c.Elevation = float64(*(*float32)(unsafe.Add(m.p, offM_vis_global_elevation)))
	return c
}

// Extent is stat.extent, the model's spatial size, which free cameras scale with.
func (m *Model) Extent() float64 { return *(*float64)(unsafe.Add(m.p, offM_stat_extent)) }

// Renderer draws a model's states with MuJoCo's own OpenGL renderer (mjv_updateScene,
// mjr_render, mjr_readPixels) on an off-screen OpenGL context from Mesa's OSMesa
// (llvmpipe, on the CPU): no display, no GPU, no cgo. It owns an OSMesa context,
// MuJoCo's rendering context (the model's meshes and textures, uploaded once), a
// scene and a read-back buffer, all allocated once: a frame allocates no buffers (a
// few small call records, about 250 bytes).
//
// Threads: an OpenGL context is current on one thread at a time, so every method locks
// the calling goroutine to its thread (runtime.LockOSThread) for the duration of the
// call, makes the context current, does all OpenGL work and releases the context
// before returning. Any goroutine may therefore call any method, including pool
// workers already locked to their threads. All Renderers of the process take turns
// (glMu): Mesa's OSMesa is not safe to draw with from two threads at once. The one
// thing a caller must not do is keep an OpenGL context of its own current on the
// calling thread across a call: the call leaves no context current.
//
// Costs: making a Renderer uploads the model's meshes and textures (milliseconds); the
// first frame of a process also compiles llvmpipe's shaders (a second or two). A frame
// costs mostly the shadow map and multisampling, not the picture size: Ant-v4 takes
// about 50-110 ms at 84x84 or 240x240 as the model asks (4096-texel shadows, 4x
// multisampling), a third of that with RenderOptions{ShadowSize: 1024}, and a few ms
// at 84x84 without multisampling too (BenchmarkRender; llvmpipe on 2 busy cores).
// Reuse one Renderer per env; Close frees it.
type Renderer struct {
	mu     sync.Mutex
	m      *Model
	w, h   int
	ctx    uintptr // OSMesaContext
	mem    []byte  // mmap'd: the C structs below and the pixel buffers
	colour unsafe.Pointer
	scene  unsafe.Pointer // mjvScene
	con    unsafe.Pointer // mjrContext
	opt    unsafe.Pointer // mjvOption
	pert   unsafe.Pointer // mjvPerturb
	cam    unsafe.Pointer // mjvCamera
	rgb    []byte         // mjr_readPixels' output, bottom row first
	rectLo uintptr        // the viewport mjrRect, as two argument registers
	rectHi uintptr
	closed bool
}

// The mjrRect viewport is passed by value: a 16-byte struct of four ints goes in two
// integer registers on amd64 and arm64. These fail to compile if the layout changes.
var (
	_ [sizeofMjrRect - 16]byte
	_ [16 - sizeofMjrRect]byte
)

// ErrRendererClosed is returned by a Renderer's methods after Close.
var ErrRendererClosed = errors.New("mujoco: the renderer is closed")

// RenderOptions trade a renderer's fidelity for speed. The zero value draws what the
// model asks for, as Gymnasium and the control suite do. On llvmpipe the shadow map
// and multisampling are most of a frame's cost (see Renderer): for 84x84 pixel
// observations {ShadowSize: 1024, Samples: -1} is several times faster than the zero
// value and differs only in jagged edges.
type RenderOptions struct {
	// ShadowSize is the side of the square shadow map in texels; 0 keeps the model's
	// (<visual><quality shadowsize>, 4096 by default). With llvmpipe, clearing and
	// drawing a 4096x4096 map is most of a small frame's cost; 1024 looks the same at
	// a few hundred pixels.
	ShadowSize int
	// Samples is the off-screen buffer's multisampling (anti-aliasing); 0 keeps the
	// model's (<quality offsamples>, 4 by default) and -1 turns it off.
	Samples int
	// NoShadows and NoReflections skip the shadow and the reflection passes.
	NoShadows, NoReflections bool
}

// NewRenderer makes a renderer of width x height pictures of m's states, drawn as the
// model asks (RenderOptions{}).
func NewRenderer(m *Model, width, height int) (*Renderer, error) {
	return NewRendererWith(m, width, height, RenderOptions{})
}

// NewRendererWith makes a renderer of width x height pictures of m's states with
// options. The off-screen buffer is made the size of the picture (the model's
// <global offwidth offheight> only matters to windows, which this renderer has none
// of); the shared model itself is never changed.
func NewRendererWith(m *Model, width, height int, o RenderOptions) (*Renderer, error) {
	if width <= 0 || height <= 0 || width > 8192 || height > 8192 {
		return nil, fmt.Errorf("mujoco: renderer size %dx%d: want 1 to 8192 pixels a side", width, height)
	}
	if o.ShadowSize < 0 || o.ShadowSize > 16384 || o.Samples < -1 || o.Samples > 16 {
		return nil, fmt.Errorf("mujoco: render options %+v: want ShadowSize 0 (the model's) to 16384 and Samples -1 (none), 0 (the model's) to 16", o)
	}
	if err := LoadOSMesa(); err != nil {
		return nil, err
	}
	r := &Renderer{m: m, w: width, h: height}
	if err := r.alloc(); err != nil {
		return nil, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// OSMesa: RGBA, 24-bit depth, 8-bit stencil, no accumulation buffer, no sharing.
	glMu.Lock()
	ctx, _, _ := purego.SyscallN(gl.createContextExt, glRGBA, 24, 8, 0, 0)
	glMu.Unlock()
	if ctx == 0 {
		r.free()
		return nil, fmt.Errorf("mujoco: OSMesaCreateContextExt failed: Mesa could not make an off-screen OpenGL context")
	}
	r.ctx = ctx
	if err := r.bind(); err != nil {
		r.destroy()
		return nil, err
	}
	err := r.makeContext(o)
	r.release()
	if err != nil {
		r.destroy()
		return nil, err
	}
	return r, nil
}

// alloc maps one block of memory outside Go's heap for the C structs and the pixel
// buffers: OSMesa keeps the colour buffer's address while the context lives, and
// MuJoCo's structs hold pointers of its own, so none of it may be Go memory.
func (r *Renderer) alloc() error {
	align := func(n int) int { return (n + 63) &^ 63 }
	sizes := []int{sizeofMjvScene, sizeofMjrContext, sizeofMjvOption, sizeofMjvPerturb, sizeofMjvCamera, r.w * r.h * 3, r.w * r.h * 4}
	total := 0
	for _, s := range sizes {
		total += align(s)
	}
	mem, err := syscall.Mmap(-1, 0, total, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return fmt.Errorf("mujoco: allocating %d bytes for a renderer: %v", total, err)
	}
	r.mem = mem
	ptrs := []*unsafe.Pointer{&r.scene, &r.con, &r.opt, &r.pert, &r.cam, nil, &r.colour}
	at := 0
	for i, s := range sizes {
		if ptrs[i] != nil {
			*ptrs[i] = unsafe.Pointer(&mem[at])
		} else {
			r.rgb = mem[at : at+s : at+s]
		}
		at += align(s)
	}
	var rect [16]byte
	binary.LittleEndian.PutUint32(rect[offRect_left:], 0)
	binary.LittleEndian.PutUint32(rect[offRect_bottom:], 0)
	binary.LittleEndian.PutUint32(rect[offRect_width:], uint32(r.w))
	binary.LittleEndian.PutUint32(rect[offRect_height:], uint32(r.h))
	r.rectLo = uintptr(binary.LittleEndian.Uint64(rect[:8]))
	r.rectHi = uintptr(binary.LittleEndian.Uint64(rect[8:]))
	return nil
}

// makeContext sets up MuJoCo's side with the OSMesa context current: default option
// and perturbation, a scene of up to max(1000, 2 ngeom + 100) geoms (Gymnasium and the
// control suite allot 1000) and a rendering context drawing into the off-screen buffer.
func (r *Renderer) makeContext(o RenderOptions) error {
	m := r.m
	purego.SyscallN(gl.defaultOption, uintptr(r.opt))
	purego.SyscallN(gl.defaultPerturb, uintptr(r.pert))
	purego.SyscallN(gl.defaultCamera, uintptr(r.cam))
	purego.SyscallN(gl.defaultScene, uintptr(r.scene))
	purego.SyscallN(gl.defaultContext, uintptr(r.con))
	maxGeom := max(1000, 2*m.Size("ngeom")+100)
	if err := guard(func() { purego.SyscallN(gl.makeScene, uintptr(m.p), uintptr(r.scene), uintptr(maxGeom)) }); err != nil {
		return fmt.Errorf("mujoco: making a scene for %s: %w", m.name, err)
	}
	flags := unsafe.Slice((*uint8)(unsafe.Add(r.scene, offScene_flags)), mjNRNDFLAG)
	if o.NoShadows {
		flags[mjRND_SHADOW] = 0
	}
	if o.NoReflections {
		flags[mjRND_REFLECTION] = 0
	}
	// mjr_makeContext reads the buffer sizes and multisampling from the model; they are
	// set on a copy, since the model is shared by running envs.
	var cp uintptr
	err := guard(func() { cp, _, _ = purego.SyscallN(gl.copyModel, 0, uintptr(m.p)) })
	if err == nil && cp == 0 {
		err = errors.New("mj_copyModel returned nothing (out of memory?)")
	}
	if err != nil {
		purego.SyscallN(gl.freeScene, uintptr(r.scene))
		return fmt.Errorf("mujoco: copying %s for its rendering context: %w", m.name, err)
	}
	c := ptrAt(cp)
	*(*int32)(unsafe.Add(c, offM_vis_global_offwidth)) = int32(r.w)
	*(*int32)(unsafe.Add(c, offM_vis_global_offheight)) = int32(r.h)
	if o.ShadowSize > 0 {
		*(*int32)(unsafe.Add(c, offM_vis_shadowsize)) = int32(o.ShadowSize)
	}
	if o.Samples != 0 {
		*(*int32)(unsafe.Add(c, offM_vis_offsamples)) = int32(max(o.Samples, 0))
	}
	err = guard(func() {
		purego.SyscallN(gl.makeContext, cp, uintptr(r.con), mjFONTSCALE_100)
		purego.SyscallN(gl.setBuffer, mjFB_OFFSCREEN, uintptr(r.con))
	})
	purego.SyscallN(lib.deleteModel, cp)
	if err == nil && *(*int32)(unsafe.Add(r.con, offContext_currentBuffer)) != mjFB_OFFSCREEN {
		err = errors.New("no off-screen buffer (does Mesa's OpenGL lack framebuffer objects?)")
	}
	if err != nil {
		purego.SyscallN(gl.freeContext, uintptr(r.con))
		purego.SyscallN(gl.freeScene, uintptr(r.scene))
		return fmt.Errorf("mujoco: making MuJoCo's rendering context for %s: %w", m.name, err)
	}
	return nil
}

// glMu serialises all OpenGL work of the process: with one context current per
// thread, two renderers drawing at once on two threads still crash now and then
// (a segmentation fault inside mjr_render after thousands of frames from two pool
// workers; Mesa's OSMesa is not thread-safe in practice, as other MuJoCo bindings
// found too). Pictures are therefore drawn one at a time, whichever thread asks.
var glMu sync.Mutex

// bind takes the process's OpenGL lock and makes the context current on the calling
// thread, drawing into the renderer's colour buffer. The caller holds the thread
// locked and calls release after its OpenGL work.
func (r *Renderer) bind() error {
	glMu.Lock()
	ok, _, _ := purego.SyscallN(gl.makeCurrent, r.ctx, uintptr(r.colour), glUnsignedByte, uintptr(r.w), uintptr(r.h))
	if ok&0xff == 0 {
		glMu.Unlock()
		return errors.New("mujoco: OSMesaMakeCurrent failed: cannot make the renderer's OpenGL context current")
	}
	return nil
}

// release leaves no context current on the calling thread, so that the next call may
// bind the context on another thread, and gives the OpenGL lock back.
func (r *Renderer) release() {
	purego.SyscallN(gl.makeCurrent, 0, 0, 0, 0, 0)
	glMu.Unlock()
}

// Size returns the width and height of the renderer's pictures.
func (r *Renderer) Size() (width, height int) { return r.w, r.h }

// Model returns the model the renderer draws.
func (r *Renderer) Model() *Model { return r.m }

// RenderRGB draws d's current state from cam into dst: width x height RGB pixels, 3
// bytes each, top row first (flipped from OpenGL's bottom-up rows), len(dst) ==
// width*height*3. It allocates no buffers. This is the call for pixel observations:
// the control suite's from_pixels is RenderRGB(d, FixedView(0), obs) on an 84x84
// renderer made once per env.
//
// Threads: call it from any goroutine, locked to its OS thread (a pool worker) or not.
// For the length of the call it locks the goroutine to its thread, makes the
// renderer's OpenGL context current there and releases it before returning, so the
// env may be stepped by a different worker thread each time. The calling thread must
// not have an OpenGL context of its own current (the call leaves none). Calls on one
// Renderer wait for each other; give each env its own Renderer to render in parallel.
//
// d must be a Data of the renderer's model (or of a Copy of it, with the same geoms,
// meshes and textures); the scene is built from d's own model, so a Copy's edited geom
// sizes and colours show. The call leaves d's simulation state as it was, but d must
// not be stepped during it.
func (r *Renderer) RenderRGB(d *Data, cam View, dst []uint8) error {
	if len(dst) != r.w*r.h*3 {
		return fmt.Errorf("mujoco: RenderRGB into %d bytes; a %dx%d RGB picture takes %d", len(dst), r.w, r.h, r.w*r.h*3)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.draw(d, cam); err != nil {
		return err
	}
	row := r.w * 3
	for y := range r.h {
		copy(dst[y*row:(y+1)*row], r.rgb[(r.h-1-y)*row:(r.h-y)*row])
	}
	return nil
}

// Render draws d's current state from cam into a new image (see RenderRGB).
func (r *Renderer) Render(d *Data, cam View) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, r.w, r.h))
	if err := r.RenderRGBA(d, cam, img); err != nil {
		return nil, err
	}
	return img, nil
}

// RenderRGBA draws d's current state from cam into img, which must be width x height;
// alpha is 255. It allocates no buffers (see RenderRGB).
func (r *Renderer) RenderRGBA(d *Data, cam View, img *image.RGBA) error {
	if img.Rect.Dx() != r.w || img.Rect.Dy() != r.h {
		return fmt.Errorf("mujoco: RenderRGBA into a %dx%d image; the renderer draws %dx%d", img.Rect.Dx(), img.Rect.Dy(), r.w, r.h)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.draw(d, cam); err != nil {
		return err
	}
	for y := range r.h {
		src := r.rgb[(r.h-1-y)*r.w*3:]
		out := img.Pix[y*img.Stride : y*img.Stride+r.w*4]
		for x := range r.w {
			out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = src[3*x], src[3*x+1], src[3*x+2], 255
		}
	}
	return nil
}

// draw renders d from cam into r.rgb (bottom row first). The caller holds r.mu until
// it has copied r.rgb out.
func (r *Renderer) draw(d *Data, cam View) error {
	if r.closed {
		return ErrRendererClosed
	}
	if d == nil || d.p == nil {
		return errors.New("mujoco: rendering a nil or closed Data")
	}
	if err := r.checkData(d); err != nil {
		return err
	}
	if err := r.setCamera(d.m, cam); err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := r.bind(); err != nil {
		return err
	}
	defer r.release()
	err := guard(func() {
		purego.SyscallN(gl.updateScene, uintptr(d.m.p), uintptr(d.p), uintptr(r.opt), uintptr(r.pert), uintptr(r.cam), mjCAT_ALL, uintptr(r.scene))
		purego.SyscallN(gl.render, r.rectLo, r.rectHi, uintptr(r.scene), uintptr(r.con))
		purego.SyscallN(gl.readPixels, uintptr(unsafe.Pointer(&r.rgb[0])), 0, r.rectLo, r.rectHi, uintptr(r.con))
	})
	if err != nil {
		return fmt.Errorf("mujoco: rendering %s: %w", r.m.name, err)
	}
	return nil
}

// checkData refuses a Data whose model does not match the uploaded one.
func (r *Renderer) checkData(d *Data) error {
	if d.m == r.m {
		return nil
	}
	for _, n := range []string{"ngeom", "nbody", "ncam", "nmesh", "ntex", "nmat", "nhfield", "nskin", "nlight"} {
		if d.m.Size(n) != r.m.Size(n) {
			return fmt.Errorf("mujoco: rendering a Data of %s with a renderer of %s: %s differs (%d, %d)", d.m.name, r.m.name, n, d.m.Size(n), r.m.Size(n))
		}
	}
	return nil
}

// setCamera writes cam into the mjvCamera after checking its ids against m.
func (r *Renderer) setCamera(m *Model, cam View) error {
	c := r.cam
	switch cam.Kind {
	case ViewFixed:
		if n := m.Size("ncam"); cam.ID < 0 || cam.ID >= n {
			return fmt.Errorf("mujoco: camera id %d: %s has %d cameras", cam.ID, m.name, n)
		}
	case ViewTracking:
		if n := m.NBody; cam.ID < 0 || cam.ID >= n {
			return fmt.Errorf("mujoco: tracked body id %d: %s has %d bodies", cam.ID, m.name, n)
		}
	case ViewFree:
	default:
		return fmt.Errorf("mujoco: unknown view kind %d (want ViewFree, ViewTracking or ViewFixed)", cam.Kind)
	}
	*(*int32)(unsafe.Add(c, offCamera_type)) = int32(cam.Kind)
	fixed, track := int32(-1), int32(-1)
	if cam.Kind == ViewFixed {
		fixed = int32(cam.ID)
	} else if cam.Kind == ViewTracking {
		track = int32(cam.ID)
	}
	*(*int32)(unsafe.Add(c, offCamera_fixedcamid)) = fixed
	*(*int32)(unsafe.Add(c, offCamera_trackbodyid)) = track
	copy(unsafe.Slice((*float64)(unsafe.Add(c, offCamera_lookat)), 3), cam.Lookat[:])
	*(*float64)(unsafe.Add(c, offCamera_distance)) = cam.Distance
	*(*float64)(unsafe.Add(c, offCamera_azimuth)) = cam.Azimuth
	*(*float64)(unsafe.Add(c, offCamera_elevation)) = cam.Elevation
	return nil
}

// Close frees the rendering context, the scene and the OpenGL context. Later calls
// return ErrRendererClosed; closing twice is harmless.
func (r *Renderer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := r.bind(); err == nil {
		purego.SyscallN(gl.freeContext, uintptr(r.con))
		r.release()
	}
	purego.SyscallN(gl.freeScene, uintptr(r.scene))
	r.destroy()
	return nil
}

// destroy frees the OSMesa context and the mapped memory.
func (r *Renderer) destroy() {
	if r.ctx != 0 {
		glMu.Lock()
		purego.SyscallN(gl.destroyContext, r.ctx)
		glMu.Unlock()
		r.ctx = 0
	}
	r.free()
}

func (r *Renderer) free() {
	if r.mem != nil {
		syscall.Munmap(r.mem)
		r.mem, r.rgb = nil, nil
	}
}
