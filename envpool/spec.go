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
	InfoKeys        []string // names of the family's per-row float32 info columns
	RewardThreshold float64  // score at which the task counts as solved; NaN when none
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
}

// ObsField is one named entry of a flattened observation: Size values starting Offset.
// Scalar marks a one-value entry that is a scalar rather than a vector of one (the
// control suite's Walker height, EnvPool's shape () rather than (1,)), so that
// bindings that split the observation give it the right shape.
type ObsField struct {
	Name   string
	Offset int
	Size   int
	Scalar bool
}

// HasRewardThreshold reports whether the task defines a solved score.
func (s *Spec) HasRewardThreshold() bool { return !math.IsNaN(s.RewardThreshold) }

// InfoIndex returns the column of the named info key, or -1.
func (s *Spec) InfoIndex(key string) int {
	for i, k := range s.InfoKeys {
		if k == key {
			return i
		}
	}
	return -1
}

func (s *Spec) validate() error {
	if s.ObsSpace.Size() <= 0 {
		return fmt.Errorf("envpool: spec %q: observation space %v has no elements", s.TaskID, s.ObsSpace)
	}
	if len(s.ObsLayout) > 0 {
		at := 0
		for _, f := range s.ObsLayout {
			if f.Offset != at || f.Size <= 0 {
				return fmt.Errorf("envpool: spec %q: observation entry %q at %d with %d values does not follow the previous entry (ending at %d)", s.TaskID, f.Name, f.Offset, f.Size, at)
			}
			if f.Scalar && f.Size != 1 {
				return fmt.Errorf("envpool: spec %q: observation entry %q is a scalar but has %d values", s.TaskID, f.Name, f.Size)
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
