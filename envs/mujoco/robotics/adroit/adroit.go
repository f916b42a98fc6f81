// Package adroit is Gymnasium-Robotics' Adroit hand family as EnvPool registers it:
// AdroitHandDoor-v1, AdroitHandHammer-v1, AdroitHandPen-v1 and AdroitHandRelocate-v1
// with dense rewards, and their Sparse variants (10 on success, else -0.1), 8 ids. A
// 24-actuator Shadow-like hand (on an arm with 2 to 6 more actuators) opens a door,
// hammers a nail, turns a pen to a target orientation or carries a ball to a target.
// Actions in [-1, 1] are mapped onto the actuators' control ranges; the hand's
// position servos get the gains Gymnasium-Robotics sets (wrist 10, fingers 1). See
// docs/design/robotics.md.
package adroit

import (
	"embed"
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot"
	"github.com/rlpool/rlpool/option"
)

// Family is the envs family name of the Adroit tasks.
const Family = "adroit"

// TimeLimit is every Adroit task's max_episode_steps.
const TimeLimit = 200

//go:embed assets/*.xml assets/adroit_assets.tar.gz
var assets embed.FS

// Options are an Adroit task's options, with EnvPool's names (the id chooses
// reward_type).
type Options struct {
	RewardType string `toml:"reward_type" oneof:"dense|sparse" help:"dense: the task's shaped reward; sparse: 10 on success, else -0.1"`
	FrameSkip  int    `toml:"frame_skip" range:"[1,inf)" help:"physics steps (0.002 s) per action"`
	mjrobot.ObsOptions
}

// task is one Adroit task: its id stem, model file, observation length and its
// logic's constructor and camera.
type task struct {
	name     string // Door, Hammer, Pen, Relocate
	file     string
	obsDim   int
	newLogic func(s *mjrobot.Sim, r resolver) logic
	// camera: the distance and azimuth of EnvPool's picture.
	distance, azimuth float64
}

var tasks = []task{
	{"Door", "adroit_door.xml", 39, newDoor, 1.5, 90},
	{"Hammer", "adroit_hammer.xml", 46, newHammer, 2.0, 45},
	{"Pen", "adroit_pen.xml", 45, newPen, 1.0, -45},
	{"Relocate", "adroit_relocate.xml", 39, newRelocate, 1.5, 90},
}

// ids are the family's ids: AdroitHand<name>-v1, and AdroitHand<name>Sparse-v1.
var ids = mjrobot.Variants{Prefix: "AdroitHand", Suffix: "Sparse", Version: "v1"}

// TaskIDs returns the family's ids in EnvPool's order.
func TaskIDs() []string {
	return ids.IDs("Door", "Hammer", "Pen", "Relocate")
}

// InfoKeys are the tasks' info columns: success (the task's goal_achieved), distance
// (the task's progress measure: the door's hinge angle, the nail's distance from its
// goal, the pen's or ball's distance from its target), then the fault code.
var InfoKeys = []string{"success", "distance"}

func init() {
	for _, t := range tasks {
		for _, sparse := range []bool{false, true} {
			defaults := Options{RewardType: "dense", FrameSkip: 5, ObsOptions: mjrobot.DefaultObs()}
			if sparse {
				defaults.RewardType = "sparse"
			}
			id := ids.ID(t.name, sparse)
			envs.Register(envs.Task{ID: id, Family: Family, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
				o := defaults
				if err := envs.DecodeOptions(m, &o); err != nil {
					return envpool.Spec{}, nil, fmt.Errorf("%s: %w", id, err)
				}
				return t.build(id, o, m)
			}})
		}
	}
}

// LoadModel compiles one of the family's model files with the files it includes and
// its meshes and textures, and gives the hand's position servos Gymnasium-Robotics'
// gains: kp 10 for the two wrist actuators, 1 for the 22 finger ones (gain kp, bias
// -kp times the joint position).
func LoadModel(file string) (*mujoco.Model, error) {
	files := map[string][]byte{}
	for _, n := range []string{file, "adroit_assets.xml", "adroit_model.xml"} {
		b, err := assets.ReadFile("assets/" + n)
		if err != nil {
			return nil, fmt.Errorf("adroit: no model file %s", n)
		}
		files[n] = b
	}
	if err := mujoco.AddArchive(files, assets, "assets/adroit_assets.tar.gz"); err != nil {
		return nil, err
	}
	m, err := mujoco.LoadModelFiles(file, files)
	if err != nil {
		return nil, err
	}
	gain, bias := m.Float64s("actuator_gainprm"), m.Float64s("actuator_biasprm")
	ng, nb := len(gain)/m.NU, len(bias)/m.NU
	for _, span := range []struct {
		first, last string
		kp          float64
	}{{"A_WRJ1", "A_WRJ0", 10}, {"A_FFJ3", "A_THJ0", 1}} {
		a, err := m.ID(mujoco.ObjActuator, span.first)
		if err != nil {
			return nil, err
		}
		b, err := m.ID(mujoco.ObjActuator, span.last)
		if err != nil {
			return nil, err
		}
		for i := a; i <= b; i++ {
			gain[i*ng], gain[i*ng+1], gain[i*ng+2] = span.kp, 0, 0
			bias[i*nb], bias[i*nb+1], bias[i*nb+2] = 0, -span.kp, 0
		}
	}
	return m, nil
}

// build compiles (or reuses) the task's model and returns its spec and factory.
func (t task) build(id string, o Options, table map[string]any) (envpool.Spec, envpool.Factory, error) {
	if err := mujoco.Load(); err != nil {
		return envpool.Spec{}, nil, err
	}
	m, err := mjrobot.CachedModel("adroit "+t.file, func() (*mujoco.Model, error) { return LoadModel(t.file) })
	if err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("%s: %w", id, err)
	}
	spec := mjrobot.Spec(id, []envpool.ObsField{{Name: "obs", Size: t.obsDim}}, m.NU, InfoKeys, nil, m, o.FrameSkip, TimeLimit)
	spec.ObsLayout = nil // a plain array observation, as EnvPool's
	spec.Options = option.Values(&o)
	sparse := o.RewardType == "sparse"
	mt := &mjrobot.Task{
		Spec: spec, Model: m, FrameSkip: o.FrameSkip,
		NewLogic: func(s *mjrobot.Sim) (mjrobot.Logic, error) {
			r := resolver{s: s, err: new(error)}
			l := t.newLogic(s, r)
			if *r.err != nil {
				return nil, *r.err
			}
			return newHand(s, l, sparse), nil
		},
		View: func(s *mjrobot.Sim) mujoco.View {
			v := mjrobot.GymView(s)
			v.Distance, v.Azimuth = t.distance, t.azimuth
			return v
		},
	}
	if err := mt.Observation(o.ObsOptions, table); err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("%s: %w", id, err)
	}
	factory := func(_ int, seed int64) (envpool.Env, error) { return mjrobot.NewEnv(mt, seed) }
	return mt.Spec, factory, nil
}

// resolver looks up the ids of named objects, keeping the first failure.
type resolver struct {
	s   *mjrobot.Sim
	err *error
}

func (r resolver) id(kind int, name string) int {
	id, err := r.s.M.ID(kind, name)
	if err != nil && *r.err == nil {
		*r.err = err
	}
	return id
}

// site, body: ids of sites and bodies.
func (r resolver) site(name string) int { return r.id(mujoco.ObjSite, name) }
func (r resolver) body(name string) int { return r.id(mujoco.ObjBody, name) }

// logic is one Adroit task's own part: its per-episode randomisation, observation and
// reward.
type logic interface {
	reset(s *mjrobot.Sim)
	observe(s *mjrobot.Sim, o []float32)
	// score returns the dense and sparse rewards, the distance info and success.
	score(s *mjrobot.Sim) (dense float64, distance float64, success bool)
}

// Hand is the logic every Adroit task shares: the action mapping onto the control
// ranges, the sparse reward and the info columns.
type Hand struct {
	task     logic
	sparse   bool
	mid, rng []float64 // the control ranges' centres and half widths

	// Distance and Success are the last step's info values (0 and false after a reset).
	Distance float64
	Success  bool
}

func newHand(s *mjrobot.Sim, l logic, sparse bool) *Hand {
	h := &Hand{task: l, sparse: sparse, mid: make([]float64, s.M.NU), rng: make([]float64, s.M.NU)}
	for i := range s.M.NU {
		lo, hi := s.M.CtrlRange[2*i], s.M.CtrlRange[2*i+1]
		h.mid[i], h.rng[i] = (lo+hi)/2, (hi-lo)/2
	}
	return h
}

// Reset draws the task's randomisation; the info is 0 until the first step.
func (h *Hand) Reset(s *mjrobot.Sim) {
	h.Distance, h.Success = 0, false
	h.task.reset(s)
	s.Forward()
}

// Step maps the clipped action onto the controls (centre + a x half width),
// simulates, and returns the dense or sparse reward. Adroit episodes end only at the
// time limit.
func (h *Hand) Step(s *mjrobot.Sim, a []float32) (float64, bool) {
	for i, x := range a {
		s.D.Ctrl[i] = h.mid[i] + min(max(float64(x), -1), 1)*h.rng[i]
	}
	s.Simulate()
	dense, d, ok := h.task.score(s)
	h.Distance, h.Success = d, ok
	if !h.sparse {
		return dense, false
	}
	if ok {
		return 10, false
	}
	return -0.1, false
}

// Observe writes the task's observation.
func (h *Hand) Observe(s *mjrobot.Sim, o []float32) { h.task.observe(s, o) }

// Info writes success and distance.
func (h *Hand) Info(_ *mjrobot.Sim, info []float32) {
	success := 0.0
	if h.Success {
		success = 1
	}
	mjrobot.Put(info, success, h.Distance)
}

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func norm(a [3]float64) float64      { return math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2]) }
func dot(a, b [3]float64) float64    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// sumSq is the sum of the squares of xs.
func sumSq(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x * x
	}
	return s
}

// clip1 bounds x to [-1, 1].
func clip1(x float64) float64 { return min(max(x, -1), 1) }
