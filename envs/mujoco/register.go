package mujoco

import (
	"embed"
	"fmt"
	"maps"
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
	// the model file to use (an embedded asset name or, for xml_file, a path). A v5
	// task's frame_skip option is left in o for build.
	configure func(o *options) (taskBehavior, string)
}

// taskBehavior is a behavior that also resolves its ids and sizes from the model.
type taskBehavior interface {
	behavior
	init(m *Model, dt float64) error
}

var none = math.NaN()

var taskDefs = append(currentTaskDefs, olderTaskDefs()...)

var currentTaskDefs = []taskDef{
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
	{"Ant-v5", "ant.xml", 5, 1000, 6000, configureAntV5},
	{"HalfCheetah-v5", "half_cheetah.xml", 5, 1000, 4800, configureHalfCheetahV5},
	{"Hopper-v5", "hopper.xml", 4, 1000, 3800, configureHopperV5},
	{"Walker2d-v5", "walker2d_v5.xml", 4, 1000, none, configureWalker2dV5},
	{"Humanoid-v5", "humanoid.xml", 5, 1000, none, configureHumanoidV5},
	{"HumanoidStandup-v5", "humanoidstandup.xml", 5, 1000, none, configureHumanoidStandupV5},
	{"Swimmer-v5", "swimmer.xml", 4, 1000, 360, configureSwimmerV5},
	{"InvertedPendulum-v5", "inverted_pendulum.xml", 2, 1000, 950, configureInvertedPendulumV5},
	{"InvertedDoublePendulum-v5", "inverted_double_pendulum.xml", 5, 1000, 9100, configureInvertedDoublePendulumV5},
	{"Reacher-v5", "reacher.xml", 2, 50, -3.75, configureReacherV5},
	{"Pusher-v5", "pusher_v5.xml", 5, 100, 0, configurePusherV5},
}

// olderIDs are EnvPool's -v3 and -v2 ids (Gym's versions before v4): each runs its v4
// task (same model, limits and options) with the options given here set first, so a
// config's own options still override them. Ant-v3 and Humanoid-v3 turn the contact
// forces on, as EnvPool's use_contact_force does: Ant-v3 observes them and pays their
// cost; Humanoid-v3 pays its contact cost (its observation has them in v4 too).
var olderIDs = []struct {
	id, v4   string
	defaults map[string]any
}{
	{"Ant-v3", "Ant-v4", map[string]any{"use_contact_forces": true}},
	{"HalfCheetah-v3", "HalfCheetah-v4", nil},
	{"Hopper-v3", "Hopper-v4", nil},
	{"Walker2d-v3", "Walker2d-v4", nil},
	{"Humanoid-v3", "Humanoid-v4", map[string]any{"use_contact_forces": true}},
	{"HumanoidStandup-v2", "HumanoidStandup-v4", nil},
	{"Swimmer-v3", "Swimmer-v4", nil},
	{"InvertedPendulum-v2", "InvertedPendulum-v4", nil},
	{"InvertedDoublePendulum-v2", "InvertedDoublePendulum-v4", nil},
	{"Reacher-v2", "Reacher-v4", nil},
	{"Pusher-v2", "Pusher-v4", nil},
}

// olderTaskDefs returns the rows of olderIDs: each its v4 row under the older id,
// reading the options with the older id's defaults under them.
func olderTaskDefs() []taskDef {
	var defs []taskDef
	for _, older := range olderIDs {
		for _, d := range currentTaskDefs {
			if d.id != older.v4 {
				continue
			}
			configure := d.configure
			d.id = older.id
			d.configure = func(o *options) (taskBehavior, string) {
				o.setDefaults(older.defaults)
				return configure(o)
			}
			defs = append(defs, d)
		}
	}
	return defs
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
	obs := o.observation()
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
		return envpool.Spec{}, nil, modelFileHint(err, file, d.asset)
	}
	frameSkip := d.frameSkip
	if o.frameSkip > 0 {
		frameSkip = o.frameSkip
	}
	dt := m.Timestep * float64(frameSkip)
	if err := b.init(m, dt); err != nil {
		return envpool.Spec{}, nil, err
	}
	if err := checkCamera(b, m); err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("mujoco: %s: %w", d.id, err)
	}
	if err := obs.check(m); err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("mujoco: %s: %w", d.id, err)
	}
	low, high := make([]float32, m.NU), make([]float32, m.NU)
	for i := range m.NU {
		low[i], high[i] = float32(m.CtrlRange[2*i]), float32(m.CtrlRange[2*i+1])
	}
	t := &task{b: b, model: m, frameSkip: frameSkip, dt: dt, obs: obs}
	t.spec = envpool.Spec{
		TaskID:          d.id,
		ObsSpace:        obs.space(b.obsDim()),
		ActionSpace:     envpool.BoxSpace(low, high),
		MaxEpisodeSteps: d.maxEpisodeSteps,
		FrameSkip:       frameSkip,
		InfoKeys:        append(append([]string{}, b.infoKeys()...), "error", "qpos0", "qvel0"),
		InfoLens:        infoLens(len(b.infoKeys())+1, m.NQ, m.NV),
		RewardThreshold: d.rewardThreshold,
		RenderFPS:       1 / dt, // one picture per env step of simulated time
		RenderWidth:     480, RenderHeight: 480,
		Options: o.fo.Values(),
	}
	t.spec.Options["frame_skip"] = frameSkip // 0 stands for the task's own
	factory := func(index int, seed int64) (envpool.Env, error) { return newEnv(t, seed) }
	return t.spec, factory, nil
}

// infoLens gives the info columns' lengths of a task with the given number of scalar
// keys followed by arrays of the given lengths.
func infoLens(scalars int, arrays ...int) []int {
	lens := make([]int, scalars, scalars+len(arrays))
	for i := range lens {
		lens[i] = 1
	}
	return append(lens, arrays...)
}

// readModel returns an embedded asset, or reads a model file from disk for the
// xml_file option (a self-contained MJCF file: includes and meshes are not resolved).
func (d taskDef) readModel(file string) ([]byte, error) {
	if !strings.ContainsRune(file, '/') {
		if b, err := assets.ReadFile("assets/" + embeddedName(file)); err == nil {
			return b, nil
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("mujoco: %s: reading model file: %w (an embedded model is named like %q; any other name is read from disk)", d.id, err, d.asset)
	}
	return b, nil
}

// embeddedName maps EnvPool's names for its copies of Gymnasium's models
// ("half_cheetah_envpool.xml") to the embedded model they copy ("half_cheetah.xml"):
// EnvPool changed them only where MuJoCo 3 refuses Gymnasium's text (Swimmer's
// collision="predefined", which it replaced by geoms that collide with nothing: the
// same physics), so a script that names them gets the same tasks.
func embeddedName(file string) string {
	if base, ok := strings.CutSuffix(file, "_envpool.xml"); ok {
		return base + ".xml"
	}
	return file
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
// tuple arguments, such as healthy_z_range, are two-element arrays; a v5 task's
// default_camera_config is a table and its main_body a name or a number.
type options struct {
	fo    *envs.FamilyOptions
	given map[string]any // the table as given
	// frameSkip is a v5 task's frame_skip option, 0 when the task does not take it.
	frameSkip int
}

// setDefaults gives the options the values in defaults where the table has none; it
// must come before any option is read.
func (o *options) setDefaults(defaults map[string]any) {
	if len(defaults) == 0 {
		return
	}
	m := maps.Clone(defaults)
	maps.Copy(m, o.given)
	*o = *newOptions(m)
}

func newOptions(m map[string]any) *options {
	return &options{fo: envs.NewFamilyOptions(m), given: m}
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
	out := def
	if o.fo.Decode(key, &out) && !(out[0] <= out[1]) {
		o.fo.Check(false, key, "%v: low must not exceed high", out)
		return def
	}
	return out
}

// numbers reads an array of numbers (a TOML array, or a Go slice from a caller).
func numbers(v any) ([]float64, bool) {
	var xs []any
	switch t := v.(type) {
	case []any:
		xs = t
	case []float64:
		return t, true
	case []int64:
		for _, x := range t {
			xs = append(xs, x)
		}
	default:
		return nil, false
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		n, ok := number(x)
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// number reads one number of an array or table.
func number(x any) (float64, bool) {
	switch n := x.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}

func (o *options) err() error { return o.fo.Err() }

func noOptions(mk func() taskBehavior) func(o *options) (taskBehavior, string) {
	return func(o *options) (taskBehavior, string) { return mk(), "" }
}

const excludeKey = "exclude_current_positions_from_observation"

func configureAnt(o *options) (taskBehavior, string) {
	file := o.fo.String("xml_file", "ant.xml")
	return &ant{
		forwardWeight:     1,
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

// configureHumanoid reads Humanoid-v4's options. use_contact_forces (Humanoid-v3's
// default, EnvPool's use_contact_force) subtracts Gym's v3 contact cost, 5e-7 times the
// sum of cfrc_ext squared, at most 10, from the reward; the observation has cfrc_ext
// either way.
func configureHumanoid(o *options) (taskBehavior, string) {
	return &humanoid{
		forwardWeight:     o.float("forward_reward_weight", 1.25),
		ctrlCostWeight:    o.nonNegative("ctrl_cost_weight", 0.1),
		contactCost:       o.bool("use_contact_forces", false),
		contactCostWeight: 5e-7,
		contactCostRange:  [2]float64{math.Inf(-1), 10},
		healthyReward:     o.float("healthy_reward", 5.0),
		terminate:         o.bool("terminate_when_unhealthy", true),
		zRange:            o.pair("healthy_z_range", [2]float64{1.0, 2.0}),
		noise:             o.nonNegative("reset_noise_scale", 1e-2),
		humanoidObs:       humanoidObs{exclude: o.bool(excludeKey, true)},
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

// The v5 option readers: each task's Gymnasium 1.x constructor arguments with their
// defaults (docs/design/mujoco.md, The v5 tasks), besides the xml_file, frame_skip and
// default_camera_config every v5 task takes (v5Common, with the task's own model and
// view as defaults).

const cfrcKey = "include_cfrc_ext_in_observation"

// configureAntV5 reads Ant-v5's options. Ant-v5 differs from Ant-v4 in:
//   - observation: by default qpos and qvel are followed by cfrc_ext of every body but
//     the world, clipped to contact_force_range (105 values; v4's default has 27 and
//     its use_contact_forces added all 14 bodies). include_cfrc_ext_in_observation
//     turns this part off; use_contact_forces is an error naming its replacements.
//   - reward: the contact cost is always subtracted (contact_cost_weight=0 removes
//     it); the healthy reward is paid only while healthy, so not on the step that
//     terminates; forward_reward_weight (default 1) scales the forward term.
//   - main_body (default 1, the torso; a name or an id) is the body whose xpos gives
//     the velocities.
//   - info: x_position, y_position, distance_from_origin, x_velocity, y_velocity,
//     reward_forward, reward_ctrl, reward_contact, reward_survive. Positions come from
//     qpos (v4: the torso's stale xpos), reward_ctrl is always the control cost (v4
//     replaced it by the contact cost), forward_reward is gone. After a reset the
//     three position columns are filled (v4: all zero).
//   - options frame_skip and default_camera_config (default view: distance 4);
//     xml_file as in v4.
func configureAntV5(o *options) (taskBehavior, string) {
	v5, file := o.v5Common("ant.xml", Camera{Distance: new(4.0)})
	o.removed("use_contact_forces", cfrcKey+" puts cfrc_ext in the observation and contact_cost_weight weighs the contact cost, which v5 always pays (0 turns it off)")
	return &ant{
		v5Switch:          v5,
		forwardWeight:     o.float("forward_reward_weight", 1),
		ctrlCostWeight:    o.nonNegative("ctrl_cost_weight", 0.5),
		contactCostWeight: o.nonNegative("contact_cost_weight", 5e-4),
		healthyReward:     o.float("healthy_reward", 1),
		mainBody:          o.mainBody(bodyRef{id: 1}),
		terminate:         o.bool("terminate_when_unhealthy", true),
		zRange:            o.pair("healthy_z_range", [2]float64{0.2, 1.0}),
		contactForceRange: o.pair("contact_force_range", [2]float64{-1, 1}),
		noise:             o.nonNegative("reset_noise_scale", 0.1),
		exclude:           o.bool(excludeKey, true),
		useContactForces:  o.bool(cfrcKey, true),
	}, file
}

// configureHalfCheetahV5 reads HalfCheetah-v5's options. Dynamics, observation and
// reward are v4's; HalfCheetah-v5 differs in:
//   - info: reward_run is renamed reward_forward; after a reset x_position is filled.
//   - options xml_file, frame_skip and default_camera_config (default: distance 4).
func configureHalfCheetahV5(o *options) (taskBehavior, string) {
	v5, file := o.v5Common("half_cheetah.xml", Camera{Distance: new(4.0)})
	return &halfCheetah{
		v5Switch:       v5,
		forwardWeight:  o.float("forward_reward_weight", 1),
		ctrlCostWeight: o.nonNegative("ctrl_cost_weight", 0.1),
		noise:          o.nonNegative("reset_noise_scale", 0.1),
		exclude:        o.bool(excludeKey, true),
	}, file
}

// configureHopperV5 reads Hopper-v5's options. Hopper-v5 differs from Hopper-v4 in:
//   - reward: the healthy reward is paid only while healthy, not on the terminating
//     step (so an episode's last reward lacks it).
//   - info: x_position, z_distance_from_origin (qpos[1] minus its reset reference
//     1.25), x_velocity, reward_forward, reward_ctrl, reward_survive (v4: the first
//     and third only); after a reset the first two are filled.
//   - options xml_file, frame_skip and default_camera_config (default: trackbodyid 2,
//     distance 3, lookat (0, 0, 1.15), elevation -20).
func configureHopperV5(o *options) (taskBehavior, string) {
	w, file := o.planarWalkerV5("hopper.xml", 3, [2]float64{0.7, math.Inf(1)}, [2]float64{-0.2, 0.2})
	w.stateRange = o.pair("healthy_state_range", [2]float64{-100, 100})
	w.checkState = true
	return w, file
}

// configureWalker2dV5 reads Walker2d-v5's options. Walker2d-v5 differs from
// Walker2d-v4 in:
//   - model: walker2d_v5.xml gives both feet friction 1.9 (v4's right foot has 0.9);
//     xml_file "walker2d.xml" brings v4's model back.
//   - reward: the healthy reward is paid only while healthy, not on the terminating
//     step.
//   - info: as Hopper-v5's (x_position, z_distance_from_origin, x_velocity,
//     reward_forward, reward_ctrl, reward_survive), the first two also after a reset.
//   - options xml_file, frame_skip and default_camera_config (default: trackbodyid 2,
//     distance 4, lookat (0, 0, 1.15), elevation -20).
func configureWalker2dV5(o *options) (taskBehavior, string) {
	return o.planarWalkerV5("walker2d_v5.xml", 4, [2]float64{0.8, 2.0}, [2]float64{-1, 1})
}

// planarWalkerV5 reads the options Hopper-v5 and Walker2d-v5 share; their defaults
// differ in the model, the camera distance and the health ranges.
func (o *options) planarWalkerV5(file string, cameraDistance float64, z, angle [2]float64) (*planarWalker, string) {
	v5, file := o.v5Common(file, Camera{TrackBodyID: new(2), Distance: &cameraDistance,
		LookAt: &[3]float64{0, 0, 1.15}, Elevation: new(-20.0)})
	return &planarWalker{
		v5Switch:       v5,
		forwardWeight:  o.float("forward_reward_weight", 1),
		ctrlCostWeight: o.nonNegative("ctrl_cost_weight", 1e-3),
		healthyReward:  o.float("healthy_reward", 1),
		terminate:      o.bool("terminate_when_unhealthy", true),
		zRange:         o.pair("healthy_z_range", z),
		angleRange:     o.pair("healthy_angle_range", angle),
		noise:          o.nonNegative("reset_noise_scale", 5e-3),
		exclude:        o.bool(excludeKey, true),
	}, file
}

// humanoidV5 reads what Humanoid-v5 and HumanoidStandup-v5 share: the common v5
// options (their views differ in height only) and the observation's parts.
func (o *options) humanoidV5(file string, lookAtZ float64) (v5Switch, humanoidObs, string) {
	v5, file := o.v5Common(file, Camera{TrackBodyID: new(1), Distance: new(4.0),
		LookAt: &[3]float64{0, 0, lookAtZ}, Elevation: new(-20.0)})
	return v5, humanoidObs{
		exclude:          o.bool(excludeKey, true),
		omitCinert:       !o.bool("include_cinert_in_observation", true),
		omitCvel:         !o.bool("include_cvel_in_observation", true),
		omitQfrcActuator: !o.bool("include_qfrc_actuator_in_observation", true),
		omitCfrcExt:      !o.bool(cfrcKey, true),
	}, file
}

// configureHumanoidV5 reads Humanoid-v5's options. Humanoid-v5 differs from
// Humanoid-v4 in:
//   - observation: the world body's cinert, cvel and cfrc_ext rows and the free root's
//     six qfrc_actuator values, always zero, are left out (348 values; v4 376);
//     include_cinert_in_observation, include_cvel_in_observation,
//     include_qfrc_actuator_in_observation and include_cfrc_ext_in_observation leave
//     whole parts out.
//   - reward: a contact cost, contact_cost_weight (5e-7) times the sum of cfrc_ext
//     squared, clipped to contact_cost_range ((-inf, 10)), is subtracted; the healthy
//     reward is paid only while healthy.
//   - info: x_position, y_position (qpos; v4: the stale centre of mass),
//     tendon_length_0..1, tendon_velocity_0..1 (mjData's ten_length and ten_velocity),
//     distance_from_origin, x_velocity, y_velocity, reward_survive, reward_forward,
//     reward_ctrl, reward_contact (v4's reward_linvel, reward_quadctrl, reward_alive and
//     forward_reward are renamed or gone); after a reset the positions, tendons and
//     distance are filled.
//   - options xml_file, frame_skip and default_camera_config (default: trackbodyid 1,
//     distance 4, lookat (0, 0, 2), elevation -20).
func configureHumanoidV5(o *options) (taskBehavior, string) {
	v5, parts, file := o.humanoidV5("humanoid.xml", 2)
	return &humanoid{
		v5Switch:          v5,
		humanoidObs:       parts,
		forwardWeight:     o.float("forward_reward_weight", 1.25),
		ctrlCostWeight:    o.nonNegative("ctrl_cost_weight", 0.1),
		contactCostWeight: o.nonNegative("contact_cost_weight", 5e-7),
		contactCostRange:  o.pair("contact_cost_range", [2]float64{math.Inf(-1), 10}),
		healthyReward:     o.float("healthy_reward", 5),
		terminate:         o.bool("terminate_when_unhealthy", true),
		zRange:            o.pair("healthy_z_range", [2]float64{1, 2}),
		noise:             o.nonNegative("reset_noise_scale", 1e-2),
	}, file
}

// configureHumanoidStandupV5 reads HumanoidStandup-v5's options (v4 takes none).
// HumanoidStandup-v5 differs from HumanoidStandup-v4 in:
//   - observation: as Humanoid-v5's (348 values, world body and root dofs left out),
//     with the same include_* options and exclude_current_positions_from_observation.
//   - options for v4's fixed values: ctrl_cost_weight (0.1), impact_cost_weight
//     (0.5e-6), impact_cost_range ((-inf, 10)) and reset_noise_scale (0.01).
//     uph_cost_weight is accepted but, as in Gymnasium 1.x's code (its documentation
//     says otherwise), never applied: the height term stays qpos[2] / timestep.
//   - info: x_position, y_position, z_distance_from_origin and the tendons (as
//     Humanoid-v5's) come before reward_linup, reward_quadctrl and reward_impact; after
//     a reset the state columns are filled.
//   - options xml_file, frame_skip and default_camera_config (default: trackbodyid 1,
//     distance 4, lookat (0, 0, 0.8925), elevation -20).
func configureHumanoidStandupV5(o *options) (taskBehavior, string) {
	v5, parts, file := o.humanoidV5("humanoidstandup.xml", 0.8925)
	return &humanoidStandup{
		v5Switch:         v5,
		humanoidObs:      parts,
		uphCostWeight:    o.float("uph_cost_weight", 1),
		ctrlCostWeight:   o.nonNegative("ctrl_cost_weight", 0.1),
		impactCostWeight: o.nonNegative("impact_cost_weight", 0.5e-6),
		impactCostRange:  o.pair("impact_cost_range", [2]float64{math.Inf(-1), 10}),
		noise:            o.nonNegative("reset_noise_scale", 1e-2),
	}, file
}

// configureSwimmerV5 reads Swimmer-v5's options. Dynamics, observation and reward are
// v4's; Swimmer-v5 differs in:
//   - info: x_position, y_position, distance_from_origin, x_velocity, y_velocity,
//     reward_forward, reward_ctrl (v4's reward_fwd and forward_reward are gone and the
//     order changed); after a reset the first three are filled.
//   - options xml_file, frame_skip and default_camera_config (default: none).
//
// Gymnasium 1.x's swimmer.xml turns collisions off with contype and conaffinity 0
// instead of v0.29.1's collision="predefined" (an option MuJoCo 3 removed); the two
// files run bit-identical trajectories on MuJoCo 2.2.2, so both versions use the
// embedded v0.29.1 file.
func configureSwimmerV5(o *options) (taskBehavior, string) {
	v5, file := o.v5Common("swimmer.xml", Camera{})
	return &swimmer{
		v5Switch:       v5,
		forwardWeight:  o.float("forward_reward_weight", 1),
		ctrlCostWeight: o.nonNegative("ctrl_cost_weight", 1e-4),
		noise:          o.nonNegative("reset_noise_scale", 0.1),
		exclude:        o.bool(excludeKey, true),
	}, file
}

// configureInvertedPendulumV5 reads InvertedPendulum-v5's options. It differs from
// InvertedPendulum-v4 in:
//   - reward: 0 on the step that terminates (v4 pays 1 on every step).
//   - info: reward_survive, the reward.
//   - options reset_noise_scale (default 0.01, v4's), xml_file, frame_skip and
//     default_camera_config (default: trackbodyid 0, distance 2.04).
func configureInvertedPendulumV5(o *options) (taskBehavior, string) {
	v5, file := o.v5Common("inverted_pendulum.xml", Camera{TrackBodyID: new(0), Distance: new(2.04)})
	return &invertedPendulum{v5Switch: v5, noise: o.nonNegative("reset_noise_scale", 0.01)}, file
}

// configureInvertedDoublePendulumV5 reads InvertedDoublePendulum-v5's options. It
// differs from InvertedDoublePendulum-v4 in:
//   - observation: of qfrc_constraint only the cart's value is kept (9 values; v4 11).
//   - reward: healthy_reward (default 10) is paid only while the tip is above 1, so not
//     on the terminating step (v4 pays 10 on every step).
//   - info: reward_survive, distance_penalty, velocity_penalty (v4: none).
//   - the tip is the model's first site (v4: the site named "tip", the same one in the
//     task's model).
//   - options reset_noise_scale (default 0.1, v4's), xml_file, frame_skip and
//     default_camera_config.
//
// Gymnasium's file defines a view for this task but passes none by default, so the
// default camera sets nothing.
func configureInvertedDoublePendulumV5(o *options) (taskBehavior, string) {
	v5, file := o.v5Common("inverted_double_pendulum.xml", Camera{})
	return &invertedDoublePendulum{
		v5Switch:      v5,
		healthyReward: o.float("healthy_reward", 10),
		noise:         o.nonNegative("reset_noise_scale", 0.1),
	}, file
}

// configureReacherV5 reads Reacher-v5's options. Reacher-v5 differs from Reacher-v4 in:
//   - reward: the distance term is taken after the simulation, from the xpos mj_step
//     leaves (v4: before it, from the previous step's); reward_dist_weight and
//     reward_control_weight (both 1) weigh the terms, in info too.
//   - observation: the fingertip-target z difference, always 0, is left out (10 values).
//   - options xml_file, frame_skip and default_camera_config (default: trackbodyid 0).
func configureReacherV5(o *options) (taskBehavior, string) {
	v5, file := o.v5Common("reacher.xml", Camera{TrackBodyID: new(0)})
	return &reacher{
		v5Switch:   v5,
		distWeight: o.nonNegative("reward_dist_weight", 1),
		ctrlWeight: o.nonNegative("reward_control_weight", 1),
	}, file
}

// configurePusherV5 reads Pusher-v5's options. Pusher-v5 differs from Pusher-v4 in:
//   - model: pusher_v5.xml's object is its cylinder alone, of density 0.01 (mass
//     7.85e-6 kg; v4's is 1.3e-8 kg with an invisible sphere), made for MuJoCo 3, where
//     v4's object stops colliding.
//   - reward: the distance terms are taken after the simulation (v4: before it);
//     reward_near_weight (0.5), reward_dist_weight (1) and reward_control_weight (0.1)
//     weigh the terms, v4's fixed values.
//   - info: reward_dist, reward_ctrl (weighted; v4 reports it unweighted), reward_near.
//   - options xml_file, frame_skip and default_camera_config (default: trackbodyid -1,
//     distance 4).
//
// MuJoCo 2.2.2 finds the finger-object contacts (capsule against cylinder) with
// libccd's MPR, one contact per pair; the MuJoCo Gymnasium runs on today uses its own
// convex collider (3.3 on) returning several contacts (3.8 on), so pushes differ from
// Gymnasium's in detail, not in kind.
func configurePusherV5(o *options) (taskBehavior, string) {
	v5, file := o.v5Common("pusher_v5.xml", Camera{TrackBodyID: new(-1), Distance: new(4.0)})
	return &pusher{
		v5Switch:   v5,
		nearWeight: o.nonNegative("reward_near_weight", 0.5),
		distWeight: o.nonNegative("reward_dist_weight", 1),
		ctrlWeight: o.nonNegative("reward_control_weight", 0.1),
	}, file
}
