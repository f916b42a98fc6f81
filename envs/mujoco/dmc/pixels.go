package dmc

import (
	"fmt"
	"image"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// Pixel observations: with the option from_pixels = true a task observes RGB pictures
// of the scene instead of its state, as pixel-based agents (DrQ, Dreamer, CURL) use the
// suite: the picture from camera camera_id (0 by default, the suite's pixels wrapper's)
// at pixels_size x pixels_size (84), the last frame_stack pictures (3) stacked along
// the channel axis. The observation is uint8 (3*frame_stack, size, size), channels
// first, oldest picture first; after a reset the first picture fills every slot.
// Rewards, discounts and step types stay the state task's. The rendering and stacking
// are the mujoco package's (mujoco.PixelStack, shared with the Gymnasium tasks), and so
// are the renderer settings: pixels_fast = true leaves out shadows and reflections.

// pixelConfig is a task's pixel options (size 0: state observations).
type pixelConfig struct {
	size, stack, camera int
	fast                bool
}

// channels is the observation's channel count.
func (c pixelConfig) channels() int { return 3 * c.stack }

// pixels is one env's pixel observation state: the shared picture stack and the
// camera it draws from.
type pixels struct {
	*mujoco.PixelStack
	view mujoco.View
}

func newPixels(p *Physics, cfg pixelConfig) (*pixels, error) {
	ncam := p.M.Size("ncam")
	if cfg.camera >= ncam {
		return nil, fmt.Errorf("dmc: camera_id %d: the model has %d cameras (0 to %d)", cfg.camera, ncam, ncam-1)
	}
	px, err := mujoco.NewPixelStack(p.M, cfg.size, cfg.size, cfg.stack, cfg.fast)
	if err != nil {
		return nil, err
	}
	return &pixels{PixelStack: px, view: mujoco.FixedView(cfg.camera)}, nil
}

// capture draws the current state into the stack; after a reset (fill) the picture
// fills every slot.
func (px *pixels) capture(d *mujoco.Data, fill bool) error { return px.Capture(d, px.view, fill) }

// observe writes the stacked pictures, oldest first, each as three planes (R, G, B).
func (px *pixels) observe(obs []uint8) { px.Observe(obs) }

func (px *pixels) close() {
	if px != nil {
		px.Close()
	}
}

// FrameSize is the side of the pictures FrameRGBA draws for recordings.
const FrameSize = 240

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
	return e.frames.Draw(e.p.D, func() mujoco.View { return mujoco.FixedView(0) })
}

// RenderFPS is the task's frame rate in simulated time: one frame per control step
// (the spec's RenderFPS).
func (e *Env) RenderFPS() float64 { return e.t.spec.RenderFPS }
