package dmc

import (
	"fmt"
	"image"
	"os"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// Pixel observations: with the option from_pixels = true a task observes RGB pictures
// of the scene instead of its state, as pixel-based agents (DrQ, Dreamer, CURL) use the
// suite: the picture from camera camera_id (0 by default, the suite's pixels wrapper's)
// at pixels_size x pixels_size (84), the last frame_stack pictures (3) stacked along
// the channel axis. The observation is uint8 (3*frame_stack, size, size), channels
// first, oldest picture first; after a reset the first picture fills every slot.
// Rewards, discounts and step types stay the state task's.
//
// Each env draws with its own Renderer (MuJoCo's renderer on an OSMesa context, see
// envs/mujoco), from the pool's worker goroutine; the process draws one picture at a
// time (OSMesa is not thread-safe), so pictures do not gain from more workers. Pictures use a 1024-texel shadow
// map and no multisampling: at 84x84 that is several times cheaper than the model's
// settings and differs only in jagged edges. With pixels_fast = true they also leave
// out shadows and the floor's reflections, about four times cheaper again on Mesa's
// llvmpipe, at the price of pictures that differ from the suite's in those two.

// loadPixelRenderer loads libOSMesa for pixel observations. Unless the user chose
// otherwise, it asks Mesa's llvmpipe for one rasteriser thread per context: with one
// context per env, the default of one per core makes a crowd of threads that mostly
// wait.
func loadPixelRenderer() error {
	if os.Getenv("LP_NUM_THREADS") == "" {
		os.Setenv("LP_NUM_THREADS", "1")
	}
	return mujoco.LoadOSMesa()
}

// pixelOptions are the renderer settings of pixel observations, and fastPixelOptions
// those of pixels_fast.
var (
	pixelOptions     = mujoco.RenderOptions{ShadowSize: 1024, Samples: -1}
	fastPixelOptions = mujoco.RenderOptions{Samples: -1, NoShadows: true, NoReflections: true}
)

// pixelConfig is a task's pixel options (size 0: state observations).
type pixelConfig struct {
	size, stack, camera int
	fast                bool
}

// channels is the observation's channel count.
func (c pixelConfig) channels() int { return 3 * c.stack }

// frameLen is the byte size of one picture.
func (c pixelConfig) frameLen() int { return 3 * c.size * c.size }

// pixels is one env's pixel observation state: its renderer and the last pictures, a
// ring of stack frames in HWC order as the renderer writes them.
type pixels struct {
	cfg  pixelConfig
	r    *mujoco.Renderer
	view mujoco.View
	ring [][]uint8
	next int // the ring slot the next picture goes to
}

func newPixels(p *Physics, cfg pixelConfig) (*pixels, error) {
	ncam := p.M.Size("ncam")
	if cfg.camera >= ncam {
		return nil, fmt.Errorf("dmc: camera_id %d: the model has %d cameras (0 to %d)", cfg.camera, ncam, ncam-1)
	}
	o := pixelOptions
	if cfg.fast {
		o = fastPixelOptions
	}
	r, err := mujoco.NewRendererWith(p.M, cfg.size, cfg.size, o)
	if err != nil {
		return nil, err
	}
	px := &pixels{cfg: cfg, r: r, view: mujoco.FixedView(cfg.camera), ring: make([][]uint8, cfg.stack)}
	for i := range px.ring {
		px.ring[i] = make([]uint8, cfg.frameLen())
	}
	return px, nil
}

// capture draws the current state into the next ring slot; after a reset (fill) the
// picture is copied into every slot.
func (px *pixels) capture(d *mujoco.Data, fill bool) error {
	slot := px.ring[px.next]
	if err := px.r.RenderRGB(d, px.view, slot); err != nil {
		return err
	}
	px.next = (px.next + 1) % len(px.ring)
	if fill {
		for _, f := range px.ring {
			copy(f, slot)
		}
	}
	return nil
}

// observe writes the stacked pictures, oldest first, each as three planes (R, G, B).
func (px *pixels) observe(obs []uint8) {
	n := px.cfg.size * px.cfg.size
	for k := range px.ring {
		f := px.ring[(px.next+k)%len(px.ring)]
		planes := obs[k*3*n : (k+1)*3*n]
		for i := range n {
			planes[i] = f[3*i]
			planes[n+i] = f[3*i+1]
			planes[2*n+i] = f[3*i+2]
		}
	}
}

func (px *pixels) close() {
	if px != nil && px.r != nil {
		px.r.Close()
	}
}

// FrameSize is the side of the pictures FrameRGBA draws for recordings.
const FrameSize = 240

// frames is an env's renderer for recordings, made at the first frame.
type frames struct {
	r   *mujoco.Renderer
	img *image.RGBA
}

// An env draws itself, with a system library that may be missing.
var (
	_ envpool.Renderer      = (*Env)(nil)
	_ envpool.RenderChecker = (*Env)(nil)
)

// CanRender reports whether Render can draw (envpool.RenderChecker): nil when
// libOSMesa and MuJoCo's renderer load, else an error naming the package to install.
func (e *Env) CanRender() error { return mujoco.LoadOSMesa() }

// Render draws the env's current state (envpool.Renderer): FrameRGBA's picture.
func (e *Env) Render() (image.Image, error) { return e.FrameRGBA() }

// FrameRGBA draws the env's current state from camera 0, the suite's default for
// pictures, at FrameSize x FrameSize, for recordings (train eval -gif). The image is
// overwritten by the next call.
func (e *Env) FrameRGBA() (*image.RGBA, error) {
	if e.frames == nil {
		r, err := mujoco.NewRendererWith(e.p.M, FrameSize, FrameSize, mujoco.RenderOptions{ShadowSize: 1024})
		if err != nil {
			return nil, err
		}
		e.frames = &frames{r: r, img: image.NewRGBA(image.Rect(0, 0, FrameSize, FrameSize))}
	}
	if err := e.frames.r.RenderRGBA(e.p.D, mujoco.FixedView(0), e.frames.img); err != nil {
		return nil, err
	}
	return e.frames.img, nil
}

// RenderFPS is the task's frame rate in simulated time: one frame per control step
// (the spec's RenderFPS).
func (e *Env) RenderFPS() float64 { return e.t.spec.RenderFPS }
