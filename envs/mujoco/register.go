package mujoco

import (
	"embed"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// assets holds the tasks' MJCF models (Gymnasium's files, MIT; see assets/README.md).
//
//go:embed assets/*.xml
var assets embed.FS

// taskDef is one row of the registration table (docs/design/mujoco.md, The tasks).
type taskDef struct {
	id              string
	asset           string
	frameSkip       int
	maxEpisodeSteps int
	rewardThreshold float64 // NaN when the task has none
	// configure reads the task's constructor options into a fresh behavior and returns
	// the model file to use (an embedded asset name or, for Ant's xml_file, a path).
	configure func(o *options) (taskBehavior, string)
}

// taskBehavior is a behavior that also resolves its ids and sizes from the model.
type taskBehavior interface {
	behavior
	init(m *Model, dt float64) error
}

var none = math.NaN()

var taskDefs = []taskDef{
	{"Ant-v4", "ant.xml", 5, 1000, 6000, configureAnt},
	{"HalfCheetah-v4", "half_cheetah.xml", 5, 1000, 4800, configureHalfCheetah},
	{"Hopper-v4", "hopper.xml", 4, 1000, 3800, configureHopper},
	{"Walker2d-v4", "walker2d.xml", 4, 1000, none, configureWalker2d},
	{"Humanoid-v4", "humanoid.xml", 5, 1000, none, configureHumanoid},
	{"HumanoidStandup-v4", "humanoidstandup.xml", 5, 1000, none, noOptions(func() taskBehavior { return &humanoidStandup{} })},
	{"Swimmer-v4", "swimmer.xml", 4, 1000, 360, configureSwimmer},
	{"InvertedPendulum-v4", "inverted_pendulum.xml", 2, 1000, 950, noOptions(func() taskBehavior { return &invertedPendulum{} })},
	{"InvertedDoublePendulum-v4", "inverted_double_pendulum.xml", 5, 1000, 9100, noOptions(func() taskBehavior { return &invertedDoublePendulum{} })},
	{"Reacher-v4", "reacher.xml", 2, 50, -3.75, noOptions(func() taskBehavior { return &reacher{} })},
	{"Pusher-v4", "pusher.xml", 5, 100, 0, noOptions(func() taskBehavior { return &pusher{} })},
}

func init() {
	for _, d := range taskDefs {
		envs.Register(envs.Task{
			ID:     d.id,
			Family: "mujoco",
			New:    func(family map[string]any) (envpool.Spec, envpool.Factory, error) { return d.build(family) },
		})
	}
}

// TaskIDs returns the ids of the family's tasks in the registration table's order.
func TaskIDs() []string {
	ids := make([]string, len(taskDefs))
	for i, d := range taskDefs {
		ids[i] = d.id
	}
	return ids
}

// build reads the options, loads (or reuses) the model and returns the spec and a
// factory of envs sharing it.
func (d taskDef) build(family map[string]any) (envpool.Spec, envpool.Factory, error) {
	o := newOptions(family)
	b, file := d.configure(o)
	if file == "" {
		file = d.asset
	}
	if err := o.err(); err != nil {
		return envpool.Spec{}, nil, err
	}
	if err := Load(); err != nil {
		return envpool.Spec{}, nil, err
	}
	m, err := cachedModel(file, func() ([]byte, error) { return d.readModel(file) })
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	dt := m.Timestep * float64(d.frameSkip)
	if err := b.init(m, dt); err != nil {
		return envpool.Spec{}, nil, err
	}
	low, high := make([]float32, m.NU), make([]float32, m.NU)
	for i := range m.NU {
		low[i], high[i] = float32(m.CtrlRange[2*i]), float32(m.CtrlRange[2*i+1])
	}
	inf := float32(math.Inf(1))
	t := &task{b: b, model: m, frameSkip: d.frameSkip, dt: dt}
	t.spec = envpool.Spec{
		TaskID:          d.id,
		ObsSpace:        envpool.UniformBox(-inf, inf, envpool.Float32, b.obsDim()),
		ActionSpace:     envpool.BoxSpace(low, high),
		MaxEpisodeSteps: d.maxEpisodeSteps,
		FrameSkip:       d.frameSkip,
		InfoKeys:        append(append([]string{}, b.infoKeys()...), "error"),
		RewardThreshold: d.rewardThreshold,
	}
	factory := func(index int, seed int64) (envpool.Env, error) { return newEnv(t, seed) }
	return t.spec, factory, nil
}

// readModel returns an embedded asset, or reads a model file from disk for Ant's
// xml_file option (a self-contained MJCF file: includes and meshes are not resolved).
func (d taskDef) readModel(file string) ([]byte, error) {
	if !strings.ContainsRune(file, '/') {
		if b, err := assets.ReadFile("assets/" + file); err == nil {
			return b, nil
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("mujoco: %s: reading model file: %w (an embedded model is named like %q; any other name is read from disk)", d.id, err, d.asset)
	}
	return b, nil
}

// ModelXML returns the embedded MJCF model of a task, e.g. to time the same model with
// Debian's mujoco-testspeed (see TestspeedModelXML).
func ModelXML(taskID string) ([]byte, error) {
	for _, d := range taskDefs {
		if d.id == taskID {
			return assets.ReadFile("assets/" + d.asset)
		}
	}
	return nil, fmt.Errorf("mujoco: no MuJoCo task %q; tasks: %s", taskID, strings.Join(TaskIDs(), ", "))
}

// TestspeedModelXML returns the model file to hand to Debian's mujoco-testspeed
// (package libmujoco-samples) for a baseline of raw mj_step speed on the same model.
// One env step is frame_skip mj_step calls plus one mj_rnePostConstraint, so divide its
// steps per second by the task's FrameSkip; RunTestspeed does all of it:
//
//	mujoco-testspeed ant.xml 20000 1 0.5   # model, nstep, nthread, ctrlnoise
func TestspeedModelXML(taskID string) ([]byte, error) { return ModelXML(taskID) }

// options reads a task's constructor options (a config's env.options table). Gymnasium's
// tuple arguments, such as healthy_z_range, are two-element arrays.
type options struct {
	fo      *envs.FamilyOptions
	pairs   map[string]any
	pairErr []string
}

// pairKeys are the options that take a (low, high) pair.
var pairKeys = []string{"healthy_z_range", "contact_force_range", "healthy_state_range", "healthy_angle_range"}

func newOptions(m map[string]any) *options {
	rest := map[string]any{}
	pairs := map[string]any{}
	for k, v := range m {
		isPair := false
		for _, p := range pairKeys {
			isPair = isPair || k == p
		}
		rest[k] = v
		if isPair {
			// The family reader only knows scalars: it sees a placeholder, so it still
			// lists the key among the task's options and reports it if the task does
			// not read it; pair parses the real value.
			pairs[k], rest[k] = v, 0.0
		}
	}
	return &options{fo: envs.NewFamilyOptions(rest), pairs: pairs}
}

func (o *options) float(key string, def float64) float64 { return o.fo.Float(key, def) }
func (o *options) bool(key string, def bool) bool        { return o.fo.Bool(key, def) }

// nonNegative reads a number option that must be >= 0 (weights, noise scales).
func (o *options) nonNegative(key string, def float64) float64 {
	v := o.fo.Float(key, def)
	o.fo.Check(v >= 0, key, "%v is negative; it must be >= 0", v)
	return v
}

// pair reads a (low, high) option: an array of two numbers with low <= high.
func (o *options) pair(key string, def [2]float64) [2]float64 {
	o.fo.Float(key, 0) // marks the key as one this task takes
	v, ok := o.pairs[key]
	if !ok {
		return def
	}
	var out [2]float64
	var xs []any
	switch t := v.(type) {
	case []any:
		xs = t
	case []float64:
		for _, x := range t {
			xs = append(xs, x)
		}
	case []int64:
		for _, x := range t {
			xs = append(xs, x)
		}
	}
	if len(xs) != 2 {
		o.pairErr = append(o.pairErr, fmt.Sprintf("option %s = %v: want two numbers [low, high]", key, v))
		return def
	}
	for i, x := range xs {
		switch n := x.(type) {
		case float64:
			out[i] = n
		case int64:
			out[i] = float64(n)
		case int:
			out[i] = float64(n)
		default:
			o.pairErr = append(o.pairErr, fmt.Sprintf("option %s = %v: want two numbers [low, high]", key, v))
			return def
		}
	}
	if !(out[0] <= out[1]) {
		o.pairErr = append(o.pairErr, fmt.Sprintf("option %s = %v: low must not exceed high", key, v))
		return def
	}
	return out
}

func (o *options) err() error {
	err := o.fo.Err()
	if len(o.pairErr) == 0 {
		return err
	}
	msg := strings.Join(o.pairErr, "; ")
	if err != nil {
		msg = err.Error() + "; " + msg
	}
	return fmt.Errorf("%s", msg)
}

func noOptions(mk func() taskBehavior) func(o *options) (taskBehavior, string) {
	return func(o *options) (taskBehavior, string) { return mk(), "" }
}

const excludeKey = "exclude_current_positions_from_observation"

func configureAnt(o *options) (taskBehavior, string) {
	file := o.fo.String("xml_file", "ant.xml")
	return &ant{
		ctrlCostWeight:    o.nonNegative("ctrl_cost_weight", 0.5),
		useContactForces:  o.bool("use_contact_forces", false),
		contactCostWeight: o.nonNegative("contact_cost_weight", 5e-4),
		healthyReward:     o.float("healthy_reward", 1.0),
		terminate:         o.bool("terminate_when_unhealthy", true),
		zRange:            o.pair("healthy_z_range", [2]float64{0.2, 1.0}),
		contactForceRange: o.pair("contact_force_range", [2]float64{-1, 1}),
		noise:             o.nonNegative("reset_noise_scale", 0.1),
		exclude:           o.bool(excludeKey, true),
	}, file
}

func configureHalfCheetah(o *options) (taskBehavior, string) {
	return &halfCheetah{
		forwardWeight:  o.float("forward_reward_weight", 1.0),
		ctrlCostWeight: o.nonNegative("ctrl_cost_weight", 0.1),
		noise:          o.nonNegative("reset_noise_scale", 0.1),
		exclude:        o.bool(excludeKey, true),
	}, ""
}

func configureHopper(o *options) (taskBehavior, string) {
	return &planarWalker{
		forwardWeight:  o.float("forward_reward_weight", 1.0),
		ctrlCostWeight: o.nonNegative("ctrl_cost_weight", 1e-3),
		healthyReward:  o.float("healthy_reward", 1.0),
		terminate:      o.bool("terminate_when_unhealthy", true),
		stateRange:     o.pair("healthy_state_range", [2]float64{-100, 100}),
		zRange:         o.pair("healthy_z_range", [2]float64{0.7, math.Inf(1)}),
		angleRange:     o.pair("healthy_angle_range", [2]float64{-0.2, 0.2}),
		noise:          o.nonNegative("reset_noise_scale", 5e-3),
		exclude:        o.bool(excludeKey, true),
		checkState:     true,
	}, ""
}

func configureWalker2d(o *options) (taskBehavior, string) {
	return &planarWalker{
		forwardWeight:  o.float("forward_reward_weight", 1.0),
		ctrlCostWeight: o.nonNegative("ctrl_cost_weight", 1e-3),
		healthyReward:  o.float("healthy_reward", 1.0),
		terminate:      o.bool("terminate_when_unhealthy", true),
		zRange:         o.pair("healthy_z_range", [2]float64{0.8, 2.0}),
		angleRange:     o.pair("healthy_angle_range", [2]float64{-1, 1}),
		noise:          o.nonNegative("reset_noise_scale", 5e-3),
		exclude:        o.bool(excludeKey, true),
	}, ""
}

func configureHumanoid(o *options) (taskBehavior, string) {
	return &humanoid{
		forwardWeight:  o.float("forward_reward_weight", 1.25),
		ctrlCostWeight: o.nonNegative("ctrl_cost_weight", 0.1),
		healthyReward:  o.float("healthy_reward", 5.0),
		terminate:      o.bool("terminate_when_unhealthy", true),
		zRange:         o.pair("healthy_z_range", [2]float64{1.0, 2.0}),
		noise:          o.nonNegative("reset_noise_scale", 1e-2),
		exclude:        o.bool(excludeKey, true),
	}, ""
}

func configureSwimmer(o *options) (taskBehavior, string) {
	return &swimmer{
		forwardWeight:  o.float("forward_reward_weight", 1.0),
		ctrlCostWeight: o.nonNegative("ctrl_cost_weight", 1e-4),
		noise:          o.nonNegative("reset_noise_scale", 0.1),
		exclude:        o.bool(excludeKey, true),
	}, ""
}
