package mujoco

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// Observation options every Gymnasium task takes, EnvPool's (docs/design/mujoco.md,
// Pixels and frame stacking):
//   - from_pixels = true observes RGB pictures instead of the state: uint8
//     (3*frame_stack, pixels_size, pixels_size), channels first, oldest picture first,
//     drawn from camera_id (-1, the default: the view Render draws from, worked out
//     again for each picture; 0 and up: the model's cameras). Rewards, endings and
//     info columns stay the state task's.
//   - frame_stack (1) stacks the last observations: pictures along the channel axis,
//     states along a new first axis, (frame_stack, n). A reset fills every slot with
//     its observation; each step drops the oldest.
//   - pixels_fast draws without shadows or reflections (see PixelRenderOptions).

// obsOptions are the observation options, decoded as a group (FamilyOptions.DecodeStruct).
type obsOptions struct {
	FromPixels bool `toml:"from_pixels" help:"observe rendered pictures instead of the state"`
	FrameStack int  `toml:"frame_stack" range:"[1,16]" help:"observations per step, oldest first (pictures along the channel axis, states along a new first axis)"`
	PixelsSize int  `toml:"pixels_size" range:"[1,1024]" help:"the pictures' side in pixels"`
	CameraID   int  `toml:"camera_id" range:"[-1,inf)" help:"the camera to render from; -1: Render's view"`
	PixelsFast bool `toml:"pixels_fast" help:"render without shadows or reflections (faster)"`
}

// pixelOnlyKeys are the options that need from_pixels.
var pixelOnlyKeys = []string{"pixels_size", "camera_id", "pixels_fast"}

// observation reads the observation options (defaults: state, no stacking, 84x84
// pictures from Render's view).
func (o *options) observation() obsOptions {
	oo := obsOptions{FrameStack: 1, PixelsSize: 84, CameraID: -1}
	o.fo.DecodeStruct(&oo)
	if err := PixelOnly(o.given, oo.FromPixels, pixelOnlyKeys); err != nil {
		o.fo.Report(err)
	}
	return oo
}

// check makes sure the options fit the model and the renderer loads.
func (oo obsOptions) check(m *Model) error {
	if !oo.FromPixels {
		return nil
	}
	switch ncam := m.Size("ncam"); {
	case oo.CameraID >= ncam && ncam == 0:
		return fmt.Errorf("option camera_id = %d: the model has no cameras; use -1, the default view", oo.CameraID)
	case oo.CameraID >= ncam:
		return fmt.Errorf("option camera_id = %d: the model has %d cameras; use -1 (the default view) or 0 to %d", oo.CameraID, ncam, ncam-1)
	}
	if err := LoadPixelRenderer(); err != nil {
		return fmt.Errorf("from_pixels: %w", err)
	}
	return nil
}

// space is the observation space for state observations of n values.
func (oo obsOptions) space(n int) envpool.Space {
	if oo.FromPixels {
		return envpool.UniformBox(0, 255, envpool.Uint8, 3*oo.FrameStack, oo.PixelsSize, oo.PixelsSize)
	}
	inf := float32(math.Inf(1))
	if oo.FrameStack > 1 {
		return envpool.UniformBox(-inf, inf, envpool.Float32, oo.FrameStack, n)
	}
	return envpool.UniformBox(-inf, inf, envpool.Float32, n)
}

// newObsStacks makes an env's picture stack or state stack, as its options ask.
func (e *Env) newObsStacks() error {
	oo := e.t.obs
	if oo.FromPixels {
		px, err := NewPixelStack(e.m, oo.PixelsSize, oo.PixelsSize, oo.FrameStack, oo.PixelsFast)
		if err != nil {
			return err
		}
		e.pix = px
	} else if oo.FrameStack > 1 {
		e.states = NewFrameStack[float32](oo.FrameStack, e.t.b.obsDim())
	}
	return nil
}

// pixelView is the view of the next picture: camera camera_id, or Render's view of the
// current state.
func (e *Env) pixelView() View {
	if id := e.t.obs.CameraID; id >= 0 {
		return FixedView(id)
	}
	return e.renderView()
}

// pushObs adds the current observation to the env's stack, if it stacks (fill: after a
// reset). A picture that cannot be drawn, or a MuJoCo error while drawing it, is a
// MuJoCo fault of the episode.
func (e *Env) pushObs(fill bool) {
	defer e.recoverFault(nil)
	switch {
	case e.pix != nil:
		if err := e.pix.Capture(e.d, e.pixelView(), fill); err != nil {
			e.setFault(FaultMuJoCo, err.Error())
		}
	case e.states != nil:
		e.observeState(e.states.Slot())
		e.states.Push(fill)
	}
}

// closeObsStacks frees the picture renderer, if the env has one.
func (e *Env) closeObsStacks() {
	e.pix.Close()
	e.pix = nil
}
