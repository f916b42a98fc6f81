package envpool

import (
	"fmt"
	"math"
)

// DType is the element type of an observation array.
type DType int

const (
	// Float32 observations (classic control, MuJoCo).
	Float32 DType = iota
	// Uint8 observations (pixels).
	Uint8
)

// String returns the numpy-style name of the dtype.
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Uint8:
		return "uint8"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

// Size is the number of bytes per element.
func (d DType) Size() int {
	if d == Uint8 {
		return 1
	}
	return 4
}

// SpaceKind tells discrete spaces from boxes.
type SpaceKind int

const (
	// Discrete is a space of the integers 0..N-1.
	Discrete SpaceKind = iota
	// Box is a space of real vectors with per-element bounds.
	Box
)

// Space describes observations or actions, as Gymnasium's Discrete and Box do.
type Space struct {
	Kind  SpaceKind
	N     int       // number of choices, Discrete only
	Shape []int     // element shape, Box only (Discrete is a scalar)
	Low   []float32 // per-element lower bounds, Box only (len = Size())
	High  []float32 // per-element upper bounds, Box only
	DType DType
}

// DiscreteSpace returns Discrete(n).
func DiscreteSpace(n int) Space { return Space{Kind: Discrete, N: n} }

// BoxSpace returns a float32 box with the given bounds; shape defaults to [len(low)].
func BoxSpace(low, high []float32, shape ...int) Space {
	if len(shape) == 0 {
		shape = []int{len(low)}
	}
	return Space{Kind: Box, Shape: shape, Low: low, High: high, DType: Float32}
}

// UniformBox returns a box of the given shape with the same bounds on every element.
func UniformBox(low, high float32, dtype DType, shape ...int) Space {
	s := Space{Kind: Box, Shape: shape, DType: dtype}
	n := s.Size()
	s.Low, s.High = make([]float32, n), make([]float32, n)
	for i := range n {
		s.Low[i], s.High[i] = low, high
	}
	return s
}

// Size is the number of scalar elements in one sample of the space (1 for Discrete).
func (s Space) Size() int {
	if s.Kind == Discrete {
		return 1
	}
	n := 1
	for _, d := range s.Shape {
		n *= d
	}
	return n
}

// String formats the space as Gymnasium prints it.
func (s Space) String() string {
	if s.Kind == Discrete {
		return fmt.Sprintf("Discrete(%d)", s.N)
	}
	return fmt.Sprintf("Box(%v, %s)", s.Shape, s.DType)
}

// Spec is what a learner knows of an environment: its spaces, limits and info columns.
type Spec struct {
	TaskID          string
	ObsSpace        Space
	ActionSpace     Space
	MaxEpisodeSteps int      // 0 means no limit
	FrameSkip       int      // emulator frames (or physics steps) per env step, for frames/s figures
	InfoKeys        []string // names of the family's per-row info values, in column order
	// InfoLens gives, in InfoKeys' order, how many float32 columns each key holds: a
	// key whose value is an array (Atari's 128 RAM bytes, a MuJoCo episode's initial
	// qpos) holds that many consecutive columns. Nil means one column per key (all
	// scalars); so does an entry of 0.
	InfoLens        []int
	RewardThreshold float64 // score at which the task counts as solved; NaN when none
	// RenderFPS is the rate, in frames per second, at which the task's pictures
	// (Renderer) play at the speed of the task's own clock, one picture per env step
	// (Gymnasium's metadata["render_fps"]); 0 when the family does not say.
	RenderFPS float64
	// RenderWidth and RenderHeight are the size of a picture for people when the caller
	// asks for none (EnvPool's render() default: Gymnasium's screen for classic
	// control, the console's 160 x 210 for Atari, 480 x 480 for MuJoCo); 0 when the
	// family does not say, and the picture's own size applies.
	RenderWidth, RenderHeight int
	// ObsLayout, when set, names consecutive slices of the flat observation: a task whose
	// observation is an ordered dict (the control suite's "position", "velocity", ...)
	// is flattened in that order for the learners, and the layout says where each entry is.
	ObsLayout []ObsField
	// Options are the family options the task was made with, defaults included, by
	// key (EnvPool's spec.config reports them): for programs that show or record a
	// task's settings. Nil when the family does not report them.
	Options map[string]any
}

// ObsField is one named entry of a flattened observation: Size values starting Offset.
// Scalar marks an entry whose frame is a scalar rather than a vector of one (the
// control suite's Walker height, EnvPool's shape () rather than (1,)), so that
// bindings that split the observation give it the right shape. Frames, when above 1,
// says the entry holds that many stacked frames of Size/Frames values each, oldest
// first (frame_stack on state observations).
type ObsField struct {
	Name   string
	Offset int
	Size   int
	Scalar bool
	Frames int
	// Shape, when set, is the shape of one frame of the entry, row-major (MiniGrid's 7
	// x 7 x 3 view); unset, a frame is a vector (or, with Scalar, a scalar).
	Shape []int
}

// shapeSize returns the number of values of an array of the shape.
func shapeSize(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// frames returns the number of frames in the entry (1 when it stacks none).
func (f ObsField) frames() int { return max(f.Frames, 1) }

// HasRewardThreshold reports whether the task defines a solved score.
func (s *Spec) HasRewardThreshold() bool { return !math.IsNaN(s.RewardThreshold) }

// InfoIndex returns the (first) column of the named info key, or -1.
func (s *Spec) InfoIndex(key string) int {
	at, _ := s.InfoSpan(key)
	return at
}

// InfoSpan returns the first column of the named info key and how many columns it
// holds (1 for a scalar), or -1 and 0 when the task has no such key.
func (s *Spec) InfoSpan(key string) (first, n int) {
	at := 0
	for i, k := range s.InfoKeys {
		n := s.infoLen(i)
		if k == key {
			return at, n
		}
		at += n
	}
	return -1, 0
}

// InfoWidth returns the number of float32 info columns per row: one per scalar key,
// an array key's length for each array key.
func (s *Spec) InfoWidth() int {
	w := 0
	for i := range s.InfoKeys {
		w += s.infoLen(i)
	}
	return w
}

func (s *Spec) infoLen(i int) int {
	if i < len(s.InfoLens) && s.InfoLens[i] > 0 {
		return s.InfoLens[i]
	}
	return 1
}

func (s *Spec) validate() error {
	if s.ObsSpace.Size() <= 0 {
		return fmt.Errorf("envpool: spec %q: observation space %v has no elements", s.TaskID, s.ObsSpace)
	}
	if len(s.InfoLens) > len(s.InfoKeys) {
		return fmt.Errorf("envpool: spec %q: %d info lengths for %d info keys", s.TaskID, len(s.InfoLens), len(s.InfoKeys))
	}
	for i, n := range s.InfoLens {
		if n < 0 {
			return fmt.Errorf("envpool: spec %q: info key %q has length %d", s.TaskID, s.InfoKeys[i], n)
		}
	}
	if len(s.ObsLayout) > 0 {
		at := 0
		for _, f := range s.ObsLayout {
			if f.Offset != at || f.Size <= 0 {
				return fmt.Errorf("envpool: spec %q: observation entry %q at %d with %d values does not follow the previous entry (ending at %d)", s.TaskID, f.Name, f.Offset, f.Size, at)
			}
			if f.Size%f.frames() != 0 {
				return fmt.Errorf("envpool: spec %q: observation entry %q has %d values, not a whole number of its %d frames", s.TaskID, f.Name, f.Size, f.frames())
			}
			if n := shapeSize(f.Shape); f.Shape != nil && n*f.frames() != f.Size {
				return fmt.Errorf("envpool: spec %q: observation entry %q has %d values, not %d frames of shape %v", s.TaskID, f.Name, f.Size, f.frames(), f.Shape)
			}
			if f.Scalar && f.Size != f.frames() {
				return fmt.Errorf("envpool: spec %q: observation entry %q is a scalar but has %d values per frame", s.TaskID, f.Name, f.Size/f.frames())
			}
			at += f.Size
		}
		if at != s.ObsSpace.Size() {
			return fmt.Errorf("envpool: spec %q: observation layout covers %d values of %d", s.TaskID, at, s.ObsSpace.Size())
		}
	}
	switch s.ActionSpace.Kind {
	case Discrete:
		if s.ActionSpace.N <= 0 {
			return fmt.Errorf("envpool: spec %q: discrete action space needs N > 0", s.TaskID)
		}
	case Box:
		n := s.ActionSpace.Size()
		if n <= 0 || len(s.ActionSpace.Low) != n || len(s.ActionSpace.High) != n {
			return fmt.Errorf("envpool: spec %q: box action space needs %d low and high bounds", s.TaskID, n)
		}
	default:
		return fmt.Errorf("envpool: spec %q: unknown action space kind %d", s.TaskID, s.ActionSpace.Kind)
	}
	return nil
}
