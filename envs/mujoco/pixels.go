package mujoco

import (
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/rlpool/rlpool/envpool"
)

// Pixel observations and frame stacking, shared by this package's Gymnasium tasks and
// the control suite's (package dmc): a task renders the scene after each reset and
// step, keeps the last few pictures, and observes them as uint8 (3*stack, height,
// width), channels first, oldest picture first, as EnvPool's from_pixels observations.
//
// Each env draws with its own Renderer from the pool's worker goroutine; the process
// draws one picture at a time (OSMesa is not thread-safe), so pictures do not gain from
// more workers. Pictures use a 1024-texel shadow map and no multisampling: at 84x84
// that is several times cheaper than a model's settings and differs only in jagged
// edges. The fast settings also leave out shadows and the floor's reflections, about
// four times cheaper again on Mesa's llvmpipe, at the price of pictures that differ in
// those two.

// LoadPixelRenderer loads libOSMesa for pixel observations. Unless the user chose
// otherwise, it asks Mesa's llvmpipe for one rasteriser thread per context: with one
// context per env, the default of one per core makes a crowd of threads that mostly
// wait.
func LoadPixelRenderer() error {
	if os.Getenv("LP_NUM_THREADS") == "" {
		os.Setenv("LP_NUM_THREADS", "1")
	}
	return LoadOSMesa()
}

// PixelRenderOptions are the renderer settings of pixel observations, and
// FastPixelRenderOptions those of the fast ones (pixels_fast).
var (
	PixelRenderOptions     = RenderOptions{ShadowSize: 1024, Samples: -1}
	FastPixelRenderOptions = RenderOptions{Samples: -1, NoShadows: true, NoReflections: true}
)

// PixelOnly returns an error for each of keys given in an option table when
// from_pixels is off: options that mean something only with pixel observations.
func PixelOnly(table map[string]any, fromPixels bool, keys []string) error {
	if fromPixels {
		return nil
	}
	var errs []error
	for _, k := range keys {
		if _, given := table[k]; given {
			errs = append(errs, fmt.Errorf("option %s: takes effect only with from_pixels = true", k))
		}
	}
	return errors.Join(errs...)
}

// FrameStack keeps an env's last observations, stack frames of one length, for
// observations that stack them (EnvPool's frame_stack): a reset fills every slot with
// its frame, each step drops the oldest.
type FrameStack[T uint8 | float32] struct {
	ring [][]T
	next int // the slot the next frame goes to
}

// NewFrameStack makes a stack of stack frames of n values each.
func NewFrameStack[T uint8 | float32](stack, n int) *FrameStack[T] {
	s := &FrameStack[T]{ring: make([][]T, stack)}
	for i := range s.ring {
		s.ring[i] = make([]T, n)
	}
	return s
}

// Slot is where the next frame is to be written before Push.
func (s *FrameStack[T]) Slot() []T { return s.ring[s.next] }

// Push adds the frame written into Slot; with fill (after a reset) it fills every slot.
func (s *FrameStack[T]) Push(fill bool) {
	f := s.ring[s.next]
	s.next = (s.next + 1) % len(s.ring)
	if fill {
		for _, g := range s.ring {
			copy(g, f)
		}
	}
}

// Frame returns the k-th frame, oldest (0) to newest (stack-1).
func (s *FrameStack[T]) Frame(k int) []T { return s.ring[(s.next+k)%len(s.ring)] }

// Len is the number of frames in the stack.
func (s *FrameStack[T]) Len() int { return len(s.ring) }

// Observe writes the frames, oldest first, one after another.
func (s *FrameStack[T]) Observe(obs []T) {
	n := len(s.ring[0])
	for k := range s.ring {
		copy(obs[k*n:(k+1)*n], s.Frame(k))
	}
}

// PixelStack is one env's pixel observation: its renderer and its last pictures, in
// HWC order as the renderer writes them. Observe turns them into planes.
type PixelStack struct {
	r             *Renderer
	frames        *FrameStack[uint8]
	width, height int
}

// NewPixelStack makes a renderer of width x height pictures for model m (the fast
// settings with fast) and a stack of stack pictures.
func NewPixelStack(m *Model, width, height, stack int, fast bool) (*PixelStack, error) {
	o := PixelRenderOptions
	if fast {
		o = FastPixelRenderOptions
	}
	r, err := NewRendererWith(m, width, height, o)
	if err != nil {
		return nil, err
	}
	return &PixelStack{r: r, frames: NewFrameStack[uint8](stack, 3*width*height), width: width, height: height}, nil
}

// Capture draws the current state from view into the stack; after a reset (fill) the
// picture fills every slot.
func (px *PixelStack) Capture(d *Data, view View, fill bool) error {
	if err := px.r.RenderRGB(d, view, px.frames.Slot()); err != nil {
		return err
	}
	px.frames.Push(fill)
	return nil
}

// Observe writes the stacked pictures, oldest first, each as three planes (R, G, B) of
// height rows of width pixels.
func (px *PixelStack) Observe(obs []uint8) {
	n := px.width * px.height
	for k := range px.frames.Len() {
		f := px.frames.Frame(k)
		planes := obs[k*3*n : (k+1)*3*n]
		for i := range n {
			planes[i] = f[3*i]
			planes[n+i] = f[3*i+1]
			planes[2*n+i] = f[3*i+2]
		}
	}
}

// Close frees the renderer; a nil stack is fine.
func (px *PixelStack) Close() {
	if px != nil && px.r != nil {
		px.r.Close()
		px.r = nil
	}
}

// ZeroNonFinite writes 0 over the NaN and infinite values of an observation, so that a
// learner bootstrapping from the last observation of a faulted episode is not poisoned.
func ZeroNonFinite(o []float32) {
	for i, v := range o {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			o[i] = 0
		}
	}
}

// ObserveFields writes the stacked frames field by field, as EnvPool stacks each entry
// of an observation dict: the first field's frames, oldest first, then the next
// field's. layout holds the fields of one frame.
func (s *FrameStack[T]) ObserveFields(obs []T, layout []envpool.ObsField) {
	at := 0
	for _, f := range layout {
		for k := range s.ring {
			at += copy(obs[at:at+f.Size], s.Frame(k)[f.Offset:f.Offset+f.Size])
		}
	}
}

// StackedLayout is the layout of k stacked observations of layout (ObserveFields'
// order): each field's k frames together, in the field order.
func StackedLayout(layout []envpool.ObsField, k int) []envpool.ObsField {
	out := make([]envpool.ObsField, len(layout))
	for i, f := range layout {
		out[i] = envpool.ObsField{Name: f.Name, Offset: k * f.Offset, Size: k * f.Size, Scalar: f.Scalar, Frames: k, Shape: f.Shape}
	}
	return out
}
