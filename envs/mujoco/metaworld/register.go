// Package metaworld is MetaWorld v3's 50 Sawyer manipulation tasks under EnvPool's ids
// (MetaWorld/Reach-v3, ...), on the mujoco package's binding of libmujoco 2.2.2.
//
// Every task drives the same arm: a mocap body that the hand is welded to moves by the
// action's first three values and the fourth closes the gripper. The observation is
// MetaWorld's 39 values (the hand, the gripper's opening and up to two objects' poses,
// the same of the previous step, the goal, hidden by default); the reward is the task's
// v3 shaped reward, and the info columns carry success and the reward's parts.
// docs/design/metaworld.md says how the package is built and where it differs from
// the Python original.
package metaworld

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/option"
)

// Family is the envs family name of the tasks.
const Family = "metaworld"

// MaxPathLength is every task's episode length in steps (max_path_length).
const MaxPathLength = 500

// options are EnvPool's options of the MetaWorld tasks.
type options struct {
	FrameSkip           int     `toml:"frame_skip" range:"[1,1000]" help:"physics steps per action"`
	FrameStack          int     `toml:"frame_stack" range:"[1,16]" help:"observations stacked per step"`
	PartiallyObservable bool    `toml:"partially_observable" help:"hide the goal (zeros in the last three observation values)"`
	RewardThreshold     float64 `toml:"reward_threshold" help:"EnvPool's reward_threshold, reported as given: a per-step reward (10 is the reward at the goal), not an episode's return"`
	TaskName            string  `toml:"task_name" help:"the MetaWorld task to run (reach-v3, ...): the id's own by default; EnvPool lets another id's task be named"`
}

// task is one registered task under one set of options.
type task struct {
	def     *taskDef
	index   int // the task's place in EnvPool's list (the task_id info column)
	model   *mujoco.Model
	spec    envpool.Spec
	limit   int
	partial bool
	// frameSkip is physics steps per action; stack is frame_stack.
	frameSkip, stack int
}

// ID is EnvPool's id of a MetaWorld task name: its dash-separated words capitalised
// and joined, the version kept (reach-v3: MetaWorld/Reach-v3; button-press-topdown-v3:
// MetaWorld/ButtonPressTopdown-v3).
func ID(name string) string {
	base, version, _ := strings.Cut(name, "-v")
	var b strings.Builder
	b.WriteString("MetaWorld/")
	for _, w := range strings.Split(base, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String() + "-v" + version
}

// TaskIDs returns the 50 ids in EnvPool's order.
func TaskIDs() []string {
	ids := make([]string, len(taskDefs))
	for i, d := range taskDefs {
		ids[i] = ID(d.name)
	}
	return ids
}

func init() {
	for i, d := range taskDefs {
		envs.Register(envs.Task{ID: ID(d.name), Family: Family,
			New: func(family map[string]any) (envpool.Spec, envpool.Factory, error) { return build(d, i, family) }})
	}
}

// build reads the options, compiles (or reuses) the task's model and returns the spec
// and a factory of envs.
func build(d *taskDef, index int, family map[string]any) (envpool.Spec, envpool.Factory, error) {
	o := options{FrameSkip: 5, FrameStack: 1, PartiallyObservable: true, RewardThreshold: 10, TaskName: d.name}
	id := ID(d.name)
	if err := envs.DecodeOptions(family, &o); err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("metaworld: %s: %w", id, err)
	}
	if o.TaskName != d.name {
		// EnvPool's task_name picks the task whatever the id; its error names the option.
		other := slices.IndexFunc(taskDefs, func(t *taskDef) bool { return t.name == o.TaskName })
		if other < 0 {
			return envpool.Spec{}, nil, fmt.Errorf("metaworld: %s: Unknown MetaWorld task_name: %s (option task_name takes a MetaWorld v3 task name such as %s)", id, o.TaskName, d.name)
		}
		d, index = taskDefs[other], other
	}
	m, err := loadModel(d.xml)
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	t := &task{def: d, index: index, model: m, limit: MaxPathLength, partial: o.PartiallyObservable, frameSkip: o.FrameSkip, stack: o.FrameStack}
	inf := float32(math.Inf(1))
	obs := envpool.UniformBox(-inf, inf, envpool.Float32, obsLen)
	if o.FrameStack > 1 {
		// EnvPool stacks along a new first axis, oldest first.
		obs = envpool.UniformBox(-inf, inf, envpool.Float32, o.FrameStack, obsLen)
	}
	t.spec = envpool.Spec{
		TaskID:          id,
		ObsSpace:        obs,
		ActionSpace:     envpool.UniformBox(-1, 1, envpool.Float32, 4),
		MaxEpisodeSteps: MaxPathLength,
		FrameSkip:       o.FrameSkip,
		InfoKeys:        append([]string(nil), InfoKeys...),
		// The threshold is a per-step reward in EnvPool; as an episode's return it
		// would count a run solved at once, so the spec has none (see the option).
		RewardThreshold: math.NaN(),
		RenderFPS:       1 / (float64(o.FrameSkip) * m.Timestep),
		RenderWidth:     FrameSize, RenderHeight: FrameSize,
		Options: option.Values(&o),
	}
	factory := func(_ int, seed int64) (envpool.Env, error) { return newEnv(t, seed) }
	return t.spec, factory, nil
}
