package mjrobot

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// ObsOptions are the observation options every task of these families takes, with
// EnvPool's and the mujoco package's names; a family's options embed them.
//   - frame_stack (1) makes the observation the last k observations, each layout
//     entry's k frames together, oldest first (a task without a layout, Adroit's,
//     observes a (k, n) array); a reset fills the stack with its observation.
//   - from_pixels observes RGB pictures instead of the state: uint8 (3*frame_stack,
//     pixels_size, pixels_size), channels first, oldest first, drawn from camera_id
//     (-1: the task's Render view). Rewards, endings and info stay the state task's.
//   - pixels_fast draws pictures without shadows or reflections.
type ObsOptions struct {
	FrameStack int  `toml:"frame_stack" range:"[1,16]" help:"observations stacked per observation, oldest first (states: each entry's frames together; pictures: along the channel axis)"`
	FromPixels bool `toml:"from_pixels" help:"observe rendered pictures instead of the state"`
	PixelsSize int  `toml:"pixels_size" range:"[1,1024]" help:"the pictures' side in pixels"`
	CameraID   int  `toml:"camera_id" range:"[-1,inf)" help:"the camera pictures are drawn from; -1: Render's view"`
	PixelsFast bool `toml:"pixels_fast" help:"draw pictures without shadows or reflections (faster)"`
}

// DefaultObs are the observation options' defaults: the state, unstacked; pictures
// of 84 x 84 from Render's view.
func DefaultObs() ObsOptions { return ObsOptions{FrameStack: 1, PixelsSize: 84, CameraID: -1} }

// pixelOnly are the options that mean something only with from_pixels.
var pixelOnly = []string{"pixels_size", "camera_id", "pixels_fast"}

// Observation sets the task's observation options, given the option table they were
// decoded from (to refuse picture options without from_pixels): the spec's
// observation space and layout become the stacked or pictured ones. It fails when a
// picture option comes without from_pixels, camera_id names no camera of the model,
// or the renderer cannot be loaded.
func (t *Task) Observation(o ObsOptions, table map[string]any) error {
	if err := mujoco.PixelOnly(table, o.FromPixels, pixelOnly); err != nil {
		return err
	}
	t.obs = o
	n := t.Spec.ObsSpace.Size()
	inf := float32(math.Inf(1))
	switch {
	case o.FromPixels:
		if ncam := t.Model.Size("ncam"); o.CameraID >= ncam {
			return fmt.Errorf("option camera_id = %d: the model has %d cameras; use -1 (Render's view) or a camera below %d", o.CameraID, ncam, ncam)
		}
		if err := mujoco.LoadPixelRenderer(); err != nil {
			return fmt.Errorf("from_pixels: %w", err)
		}
		t.Spec.ObsSpace = envpool.UniformBox(0, 255, envpool.Uint8, 3*o.FrameStack, o.PixelsSize, o.PixelsSize)
		t.Spec.ObsLayout = nil
	case o.FrameStack > 1 && t.Spec.ObsLayout == nil:
		t.frameLayout = []envpool.ObsField{{Name: "obs", Size: n}}
		t.Spec.ObsSpace = envpool.UniformBox(-inf, inf, envpool.Float32, o.FrameStack, n)
	case o.FrameStack > 1:
		t.frameLayout = t.Spec.ObsLayout
		t.Spec.ObsSpace = envpool.UniformBox(-inf, inf, envpool.Float32, o.FrameStack*n)
		t.Spec.ObsLayout = mujoco.StackedLayout(t.frameLayout, o.FrameStack)
	}
	return nil
}
