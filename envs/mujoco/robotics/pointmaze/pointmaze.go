// Package pointmaze is Gymnasium-Robotics' PointMaze family as EnvPool registers it:
// PointMaze_<Maze>-v3 (sparse reward) and PointMaze_<Maze>Dense-v3 for the mazes Open,
// UMaze, Medium, Large and their Diverse_G and Diverse_GR variants, 20 ids. A
// force-driven ball (two slide joints) rolls through a maze of walls generated from
// the maze's map to a goal drawn from the map's goal cells. The observation is the
// goal-conditioned dict of Gymnasium's GoalEnv, flattened: observation (x, y, vx,
// vy), achieved_goal (x, y) and desired_goal (the goal's x, y), named by the spec's
// ObsLayout; the envs implement envpool.GoalRewarder (compute_reward). See
// docs/design/robotics.md.
package pointmaze

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

// Family is the envs family name of the PointMaze tasks.
const Family = "pointmaze"

// SuccessDistance is the distance from the goal within which the ball has reached it:
// the sparse reward's 1, info["success"], and the end of an episode that does not
// continue. It does not scale with maze_size_scaling, as in the sources.
const SuccessDistance = 0.45

// maxSpeed bounds each velocity component before every step: the ball is driven by
// forces, and its speed would otherwise grow without bound.
const maxSpeed = 5.0

//go:embed assets/point.xml
var assets embed.FS

// mazeTask is one row of the task table.
type mazeTask struct {
	name    string // the id's maze part: Open, UMaze, ..., Large_Diverse_GR
	mazeMap string // its maze_map
	limit   int    // max_episode_steps
}

// mazeTasks are EnvPool's PointMaze tasks and their time limits.
var mazeTasks = []mazeTask{
	{"Open", "OPEN", 300},
	{"UMaze", "U_MAZE", 300},
	{"Medium", "MEDIUM_MAZE", 600},
	{"Large", "LARGE_MAZE", 800},
	{"Open_Diverse_G", "OPEN_DIVERSE_G", 300},
	{"Open_Diverse_GR", "OPEN_DIVERSE_GR", 300},
	{"Medium_Diverse_G", "MEDIUM_MAZE_DIVERSE_G", 600},
	{"Medium_Diverse_GR", "MEDIUM_MAZE_DIVERSE_GR", 600},
	{"Large_Diverse_G", "LARGE_MAZE_DIVERSE_G", 800},
	{"Large_Diverse_GR", "LARGE_MAZE_DIVERSE_GR", 800},
}

// Options are a PointMaze task's options, with EnvPool's names and defaults (the
// id chooses maze_map and reward_type).
type Options struct {
	MazeMap            string  `toml:"maze_map" help:"the maze's map: OPEN, U_MAZE, MEDIUM_MAZE, LARGE_MAZE and their _DIVERSE_G / _DIVERSE_GR variants"`
	RewardType         string  `toml:"reward_type" oneof:"sparse|dense" help:"sparse: 1 within 0.45 of the goal, else 0; dense: exp(-distance)"`
	ContinuingTask     bool    `toml:"continuing_task" help:"reaching the goal does not end the episode"`
	ResetTarget        bool    `toml:"reset_target" help:"with continuing_task, draw a new goal once the ball reaches the current one"`
	MazeSizeScaling    float64 `toml:"maze_size_scaling" range:"(0,inf)" help:"the side of a maze cell"`
	MazeHeight         float64 `toml:"maze_height" range:"(0,inf)" help:"the walls' height, in cells"`
	PositionNoiseRange float64 `toml:"position_noise_range" range:"[0,inf)" help:"goal and start are drawn uniformly within this many cells of a cell's centre, per axis"`
	FrameSkip          int     `toml:"frame_skip" range:"[1,inf)" help:"physics steps (0.01 s) per action"`
	mjrobot.ObsOptions
}

// ids are the family's ids: PointMaze_<name>-v3 (sparse reward) and
// PointMaze_<name>Dense-v3.
var ids = mjrobot.Variants{Prefix: "PointMaze_", Suffix: "Dense", Version: "v3"}

// TaskIDs returns the family's ids in EnvPool's order.
func TaskIDs() []string {
	names := make([]string, len(mazeTasks))
	for i, t := range mazeTasks {
		names[i] = t.name
	}
	return ids.IDs(names...)
}

func init() {
	for _, t := range mazeTasks {
		for _, dense := range []bool{false, true} {
			reward := "sparse"
			if dense {
				reward = "dense"
			}
			defaults := Options{MazeMap: t.mazeMap, RewardType: reward, ContinuingTask: true, MazeSizeScaling: 1, MazeHeight: 0.4, PositionNoiseRange: 0.25, FrameSkip: 1, ObsOptions: mjrobot.DefaultObs()}
			id, limit := ids.ID(t.name, dense), t.limit
			envs.Register(envs.Task{ID: id, Family: Family, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
				o := defaults
				if err := envs.DecodeOptions(m, &o); err != nil {
					return envpool.Spec{}, nil, fmt.Errorf("%s: %w", id, err)
				}
				return build(id, limit, o, m)
			}})
		}
	}
}

// InfoKeys are the tasks' info columns: success (1 within SuccessDistance of the goal),
// distance (from the ball to the goal), then the fault code (mjrobot.ErrorKey).
var InfoKeys = []string{"success", "distance"}

// build compiles (or reuses) the task's maze model and returns its spec and factory.
func build(id string, limit int, o Options, table map[string]any) (envpool.Spec, envpool.Factory, error) {
	z, err := newMaze(o.MazeMap, o.MazeSizeScaling)
	if err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("%s: option %w", id, err)
	}
	if err := mujoco.Load(); err != nil {
		return envpool.Spec{}, nil, err
	}
	key := fmt.Sprintf("pointmaze %s %v %v", o.MazeMap, o.MazeSizeScaling, o.MazeHeight)
	m, err := mjrobot.CachedModel(key, func() (*mujoco.Model, error) {
		point, err := assets.ReadFile("assets/point.xml")
		if err != nil {
			return nil, err
		}
		doc, err := z.xml(point, o.MazeHeight)
		if err != nil {
			return nil, err
		}
		return mujoco.LoadModelXML("point_maze.xml", doc)
	})
	if err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("%s: %w", id, err)
	}
	layout := []envpool.ObsField{{Name: envpool.GoalObservation, Size: 4}, {Name: envpool.GoalAchieved, Size: 2}, {Name: envpool.GoalDesired, Size: 2}}
	spec := mjrobot.Spec(id, layout, 2, InfoKeys, nil, m, o.FrameSkip, limit)
	spec.Options = option.Values(&o)
	distance := 8.8
	if z.large() {
		distance = 12.5
	}
	t := &mjrobot.Task{
		Spec: spec, Model: m, FrameSkip: o.FrameSkip,
		NewLogic: func(s *mjrobot.Sim) (mjrobot.Logic, error) { return newLogic(s, z, o) },
		View: func(s *mjrobot.Sim) mujoco.View {
			v := mjrobot.GymView(s)
			v.Distance = distance
			return v
		},
	}
	if err := t.Observation(o.ObsOptions, table); err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("%s: %w", id, err)
	}
	factory := func(_ int, seed int64) (envpool.Env, error) {
		e, err := mjrobot.NewEnv(t, seed)
		if err != nil {
			return nil, err
		}
		return &Env{Env: e, dense: o.RewardType == "dense"}, nil
	}
	return t.Spec, factory, nil
}

// Env is one PointMaze env: the family's env with the task's compute_reward.
type Env struct {
	*mjrobot.Env
	dense bool
}

var _ envpool.GoalRewarder = (*Env)(nil)

// ComputeReward implements envpool.GoalRewarder: exp(-|achieved - desired|) for the
// dense tasks, 1 within SuccessDistance and 0 beyond for the sparse ones, the reward a
// step ending at achieved with goal desired gives (of their newest frames, with
// frame_stack).
func (e *Env) ComputeReward(achieved, desired []float32) float32 {
	// With frame_stack the goals hold several frames, the newest last.
	a, d0 := achieved[len(achieved)-2:], desired[len(desired)-2:]
	d := math.Hypot(float64(a[0])-float64(d0[0]), float64(a[1])-float64(d0[1]))
	return float32(reward(d, e.dense))
}

// reward is the step reward at distance d from the goal.
func reward(d float64, dense bool) float64 {
	if dense {
		return math.Exp(-d)
	}
	if d <= SuccessDistance {
		return 1
	}
	return 0
}

// Maze is one env's maze logic: the episode's goal and the maze it is drawn in.
type Maze struct {
	z      *maze
	o      Options
	target int // the target site
	// Goal is the episode's current goal; observed is the goal the last observation
	// shows (the goal before a reached one is replaced, as the sources observe it).
	Goal, observed [2]float64
	// Start is the ball's position after the last reset.
	Start [2]float64
}

func newLogic(s *mjrobot.Sim, z *maze, o Options) (mjrobot.Logic, error) {
	target, err := s.M.ID(mujoco.ObjSite, "target")
	if err != nil {
		return nil, err
	}
	return &Maze{z: z, o: o, target: target}, nil
}

// noisy adds the position noise to a cell centre: uniform within
// position_noise_range cells per axis.
func (l *Maze) noisy(s *mjrobot.Sim, xy [2]float64) [2]float64 {
	r := l.o.PositionNoiseRange * l.z.scaling
	xy[0] += s.Uniform(-r, r)
	xy[1] += s.Uniform(-r, r)
	return xy
}

// pick draws one of cells uniformly.
func pick(s *mjrobot.Sim, cells [][2]float64) [2]float64 {
	return cells[min(int(s.Float64()*float64(len(cells))), len(cells)-1)]
}

// maxDraws bounds the redraws of a start cell too near the goal, and of a new goal
// too near the ball: with the shipped maps a few draws suffice; the bound keeps an
// odd option (a huge position_noise_range) from looping forever.
const maxDraws = 1000

// Reset draws the goal (a goal cell plus noise), moves the target site there, and
// starts the ball at a reset cell more than half a cell from the goal, plus noise.
func (l *Maze) Reset(s *mjrobot.Sim) {
	l.Goal = l.noisy(s, pick(s, l.z.goals))
	l.moveTarget(s)
	start := l.Goal
	for i := 0; i < maxDraws && dist(start, l.Goal) <= 0.5*l.z.scaling; i++ {
		start = pick(s, l.z.resets)
	}
	l.Start = l.noisy(s, start)
	s.D.Qpos[0], s.D.Qpos[1] = l.Start[0], l.Start[1]
	s.Forward()
	l.observed = l.Goal
}

// moveTarget puts the target site (drawn only) at the goal, half-way up the walls.
func (l *Maze) moveTarget(s *mjrobot.Sim) {
	p := s.ModelRow("site_pos", l.target, 3)
	p[0], p[1], p[2] = l.Goal[0], l.Goal[1], l.o.MazeHeight*l.z.scaling/2
	s.Forward()
}

// Step bounds the velocity, applies the clipped action as the two motors' controls,
// simulates, and rewards the new distance to the goal; a reached goal ends an episode
// that does not continue, and with reset_target is replaced by a new goal more than
// SuccessDistance from the ball (after the observation of this step is taken).
func (l *Maze) Step(s *mjrobot.Sim, a []float32) (float64, bool) {
	for i := range 2 {
		s.D.Qvel[i] = min(max(s.D.Qvel[i], -maxSpeed), maxSpeed)
	}
	s.Forward()
	for i := range 2 {
		s.D.Ctrl[i] = min(max(float64(a[i]), -1), 1)
	}
	s.Simulate()
	l.observed = l.Goal
	d := l.distance(s)
	success := d <= SuccessDistance
	if success && l.o.ContinuingTask && l.o.ResetTarget && len(l.z.goals) > 1 {
		ball := [2]float64{s.D.Qpos[0], s.D.Qpos[1]}
		for i := 0; i < maxDraws && dist(ball, l.Goal) <= SuccessDistance; i++ {
			l.Goal = l.noisy(s, pick(s, l.z.goals))
		}
		l.moveTarget(s)
	}
	return reward(d, l.o.RewardType == "dense"), success && !l.o.ContinuingTask
}

// distance is the ball's distance from the observed goal.
func (l *Maze) distance(s *mjrobot.Sim) float64 {
	return dist([2]float64{s.D.Qpos[0], s.D.Qpos[1]}, l.observed)
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// Observe writes observation (qpos, qvel), achieved_goal (qpos) and desired_goal.
func (l *Maze) Observe(s *mjrobot.Sim, o []float32) {
	q, v := s.D.Qpos, s.D.Qvel
	mjrobot.Put(o, q[0], q[1], v[0], v[1], q[0], q[1], l.observed[0], l.observed[1])
}

// Info writes success and distance for the observed goal.
func (l *Maze) Info(s *mjrobot.Sim, info []float32) {
	d := l.distance(s)
	success := 0.0
	if d <= SuccessDistance {
		success = 1
	}
	mjrobot.Put(info, success, d)
}
