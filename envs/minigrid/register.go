package minigrid

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/option"
)

const family = "minigrid"

// renderFPS is minigrid's metadata["render_fps"].
const renderFPS = 10

// viewOptions are the options of the observation and the picture, which every task
// takes.
type viewOptions struct {
	AgentViewSize   int  `toml:"agent_view_size" range:"[3,51]" help:"side of the agent's square view in cells, odd"`
	SeeThroughWalls bool `toml:"see_through_walls" help:"the agent sees every cell of its view square, walls and closed doors hide nothing"`
	MissionBytes    int  `toml:"mission_bytes" range:"[2,4096]" help:"bytes of the observation's mission field (the mission text, zero padded, cut to mission_bytes-1)"`
	TileSize        int  `toml:"tile_size" range:"[4,128]" help:"pixels per cell of a rendered picture"`
	FloatObs        bool `toml:"float_obs" help:"observe the same values as float32 instead of uint8 (for an MLP policy)"`
	OneHot          bool `toml:"one_hot" help:"observe float32 features for an MLP policy: the direction one-hot, each view cell's object, colour and state one-hot, the mission as counts of its words"`
}

// defaultView is the view options' defaults: minigrid's 7 x 7 view, the task's
// see_through_walls, EnvPool's mission field of missionBytes.
func defaultView(see bool, missionBytes int) viewOptions {
	return viewOptions{AgentViewSize: 7, SeeThroughWalls: see, MissionBytes: missionBytes, TileSize: 32}
}

// commonOptions are the options every MiniGrid task takes.
type commonOptions struct {
	MaxEpisodeSteps int `toml:"max_episode_steps" range:"[1,1e9]" help:"the episode is truncated after this many steps (minigrid's max_steps; the success reward is 1 - 0.9 * steps / max_episode_steps)"`
	viewOptions
}

// task is a registered id: its options' defaults and how to build its level.
type task[O any] struct {
	id       string
	maxSteps int
	see      bool // minigrid's see_through_walls for the task
	actions  int
	opts     O
	build    func(O) (level, error)
}

// register adds a task whose own options are the struct type O.
func register[O any](t task[O]) {
	envs.Register(envs.Task{ID: t.id, Family: family, EnvTimeLimit: true, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		c := commonOptions{MaxEpisodeSteps: t.maxSteps, viewOptions: defaultView(t.see, 96)}
		o := t.opts
		if err := envs.DecodeOptions(m, &c, &o); err != nil {
			return envpool.Spec{}, nil, err
		}
		lv, err := t.build(o)
		if err != nil {
			return envpool.Spec{}, nil, err
		}
		return newTask(t.id, lv, c.MaxEpisodeSteps, c.viewOptions, t.actions, &c, &o)
	}})
}

// newTask returns the spec and the factory of a task's envs, after checking the
// view options; the spec reports opts, the task's decoded option structs.
func newTask(id string, lv level, maxSteps int, v viewOptions, actions int, opts ...any) (envpool.Spec, envpool.Factory, error) {
	if v.AgentViewSize%2 == 0 {
		return envpool.Spec{}, nil, fmt.Errorf("option agent_view_size = %d: the view needs a middle column for the agent; use an odd size such as 7", v.AgentViewSize)
	}
	if v.OneHot && v.FloatObs {
		return envpool.Spec{}, nil, fmt.Errorf("options one_hot and float_obs are both set: one_hot already observes float32 values; set one of them")
	}
	if actions == 0 {
		actions = numActions
	}
	cfg := &config{lv: lv, maxSteps: maxSteps, viewSize: v.AgentViewSize, seeThrough: v.SeeThroughWalls,
		missionBytes: v.MissionBytes, numActions: actions, tileSize: v.TileSize, floatObs: v.FloatObs || v.OneHot, oneHot: v.OneHot}
	spec := cfg.spec(id)
	spec.Options = option.Values(opts...)
	return spec, func(_ int, seed int64) (envpool.Env, error) { return newEnv(cfg, seed), nil }, nil
}

// spec is the task's spec: the observation is EnvPool's dict of direction, image and
// mission flattened into one uint8 row in that (its key) order, the spec's layout
// naming the parts.
func (c *config) spec(id string) envpool.Spec {
	if c.oneHot {
		return c.oneHotSpec(id)
	}
	return c.byteSpec(id)
}

// byteSpec is the spec of the byte (or float_obs) observation.
func (c *config) byteSpec(id string) envpool.Spec {
	img := c.viewSize * c.viewSize * 3
	n := 1 + img + c.missionBytes
	dtype := envpool.Uint8
	if c.floatObs {
		dtype = envpool.Float32
	}
	obs := envpool.UniformBox(0, 255, dtype, n)
	obs.High[0] = 3
	return envpool.Spec{
		TaskID: id, ObsSpace: obs, ActionSpace: envpool.DiscreteSpace(c.numActions),
		MaxEpisodeSteps: c.maxSteps, FrameSkip: 1, RewardThreshold: math.NaN(), RenderFPS: renderFPS,
		InfoKeys: []string{"agent_pos", "mission_id"},
		InfoLens: []int{2, 1}, // agent_pos is (x, y)
		ObsLayout: []envpool.ObsField{
			{Name: "direction", Offset: 0, Size: 1, Scalar: true},
			{Name: "image", Offset: 1, Size: img, Shape: []int{c.viewSize, c.viewSize, 3}},
			{Name: "mission", Offset: 1 + img, Size: c.missionBytes},
		},
	}
}
