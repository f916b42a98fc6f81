package goalenv

import (
	"fmt"
	"image"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// InfoKeys are the info columns of every goal-conditioned robot task, as EnvPool gives
// them: is_success (1 when the current state reaches the goal, else 0) and distance
// (how far the achieved goal is from the desired one, in the task's measure).
var InfoKeys = []string{"is_success", "distance"}

// maxResetTries bounds the retries of a reset whose random initial state the task
// refuses (the hand drops its object while settling): past it the episode starts
// faulted rather than looping for ever.
const maxResetTries = 100

// Task is one goal-conditioned task's behaviour for one env (Gymnasium-Robotics'
// RobotEnv subclass methods). Each env has its own Task value.
type Task interface {
	// Reset starts an episode from the captured state (_reset_sim then _sample_goal):
	// it sets the initial state and writes the episode's goal into goal. ok false says
	// the random initial state is unusable and the reset must be tried again.
	Reset(s *Sim, goal []float64) (ok bool, err error)
	// Act applies an action (within [-1, 1], one value per action dimension) and
	// advances the simulation one env step (_set_action, the physics steps and
	// _step_callback).
	Act(s *Sim, action []float32) error
	// Achieved writes the goal the current state reaches (_get_achieved_goal).
	Achieved(s *Sim, dst []float64)
	// Observe writes the observation entry of the current state; achieved is its
	// achieved goal.
	Observe(s *Sim, achieved []float64, dst []float32) error
	// RenderSetup moves the model's goal markers to goal (_render_callback) and returns
	// the view Gymnasium-Robotics draws the task from.
	RenderSetup(s *Sim, goal []float64) (mujoco.View, error)
}

// Rule is a task's goal arithmetic, which depends on its settings (sparse or dense,
// thresholds) and never on the state: the reward, success and distance of an achieved
// goal against a desired one.
type Rule interface {
	Reward(achieved, desired []float64) float64
	Success(achieved, desired []float64) bool
	Distance(achieved, desired []float64) float64
}

// Config is one task id under one set of options: what its envs are made from.
type Config struct {
	ID        string
	Model     *mujoco.Model // compiled and shared; each env copies it
	FrameSkip int
	// ObsDim, GoalDim and ActDim are the sizes of the observation entry, of each goal
	// entry and of the action.
	ObsDim, GoalDim, ActDim int
	MaxEpisodeSteps         int
	Rule                    Rule
	// NewTask resolves the task's names in an env's simulation and runs its setup
	// (_env_setup); the env captures the state it leaves as every episode's start.
	NewTask func(s *Sim) (Task, error)
}

// Spec is the task's spec: a flat float32 observation laid out as Gymnasium's dict
// (observation, achieved_goal, desired_goal), actions in [-1, 1], the info keys and
// the rate its pictures play at (one per env step).
func (c *Config) Spec() envpool.Spec {
	inf := float32(math.Inf(1))
	return envpool.Spec{
		TaskID:          c.ID,
		ObsSpace:        envpool.UniformBox(-inf, inf, envpool.Float32, c.ObsDim+2*c.GoalDim),
		ActionSpace:     envpool.UniformBox(-1, 1, envpool.Float32, c.ActDim),
		MaxEpisodeSteps: c.MaxEpisodeSteps,
		FrameSkip:       c.FrameSkip,
		InfoKeys:        append([]string(nil), InfoKeys...),
		RewardThreshold: math.NaN(),
		RenderFPS:       1 / (float64(c.FrameSkip) * c.Model.Timestep),
		RenderWidth:     480, RenderHeight: 480,
		ObsLayout: []envpool.ObsField{
			{Name: envpool.GoalObservation, Offset: 0, Size: c.ObsDim},
			{Name: envpool.GoalAchieved, Offset: c.ObsDim, Size: c.GoalDim},
			{Name: envpool.GoalDesired, Offset: c.ObsDim + c.GoalDim, Size: c.GoalDim},
		},
	}
}

// Env is one goal-conditioned task instance. It implements envpool.Env,
// envpool.GoalRewarder, envpool.Renderer and io.Closer.
type Env struct {
	c    *Config
	sim  *Sim
	task Task

	goal, achieved []float64
	fault          string // why the current episode must end as truncated; "" when none
	frames         *frames
}

var (
	_ envpool.Env           = (*Env)(nil)
	_ envpool.GoalRewarder  = (*Env)(nil)
	_ envpool.Renderer      = (*Env)(nil)
	_ envpool.RenderChecker = (*Env)(nil)
)

// NewEnv makes one env of the task with its own simulation and generator.
func NewEnv(c *Config, seed int64) (*Env, error) {
	s, err := NewSim(c.Model, c.FrameSkip, seed)
	if err != nil {
		return nil, err
	}
	t, err := c.NewTask(s)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("%s: %w", c.ID, err)
	}
	s.Capture()
	return &Env{c: c, sim: s, task: t, goal: make([]float64, c.GoalDim), achieved: make([]float64, c.GoalDim)}, nil
}

// Sim returns the env's simulation, for tests and tools.
func (e *Env) Sim() *Sim { return e.sim }

// Goal returns the episode's goal (a view: tests may set it to check the rules on a
// chosen goal).
func (e *Env) Goal() []float64 { return e.goal }

// Achieved returns the goal the state reached at the last reset or step (a view).
func (e *Env) Achieved() []float64 { return e.achieved }

// Fault returns why the current episode ended as truncated (a MuJoCo error, an
// unstable simulation, a bad action), or "".
func (e *Env) Fault() string { return e.fault }

// Reset implements envpool.Env: the task's reset, retried while it refuses its random
// initial state, and its goal.
func (e *Env) Reset() {
	e.fault = ""
	for try := 0; ; try++ {
		if err := e.sim.Restore(); err != nil {
			e.fault = err.Error()
			break
		}
		ok, err := e.task.Reset(e.sim, e.goal)
		if err != nil {
			e.fault = err.Error()
			break
		}
		if ok {
			break
		}
		if try == maxResetTries {
			e.fault = fmt.Sprintf("%s: no usable initial state in %d tries", e.c.ID, maxResetTries)
			break
		}
	}
	e.task.Achieved(e.sim, e.achieved)
}

// Step implements envpool.Env: the action (whose values are clipped to [-1, 1]), one
// env step, and the reward of the state it reaches, Gymnasium's compute_reward. The
// episode ends only at the time limit, which the pool keeps; a bad action, a MuJoCo
// error or a simulation that blows up ends it as truncated.
func (e *Env) Step(action []float32) envpool.StepResult {
	if e.fault == "" {
		e.fault = e.checkAction(action)
	}
	if e.fault == "" {
		if err := e.task.Act(e.sim, action); err != nil {
			e.fault = err.Error()
		} else if !e.sim.D.StateFinite() {
			e.fault = "the simulation state holds a non-finite value"
		}
	}
	if e.fault != "" {
		return envpool.StepResult{Truncated: true}
	}
	e.task.Achieved(e.sim, e.achieved)
	return envpool.StepResult{Reward: float32(e.c.Rule.Reward(e.achieved, e.goal))}
}

// checkAction says what is wrong with an action, or "".
func (e *Env) checkAction(a []float32) string {
	if len(a) != e.c.ActDim {
		return fmt.Sprintf("action has %d values; %s takes %d", len(a), e.c.ID, e.c.ActDim)
	}
	for i, x := range a {
		if math.IsNaN(float64(x)) {
			return fmt.Sprintf("action value %d of %s is NaN", i, e.c.ID)
		}
	}
	return ""
}

// Observe implements envpool.Env: the observation entry, the achieved goal and the
// desired goal, then is_success and distance. After a fault non-finite values are
// written as 0.
func (e *Env) Observe(obs envpool.Obs, info []float32) {
	o := obs.F32
	n, g := e.c.ObsDim, e.c.GoalDim
	if err := e.task.Observe(e.sim, e.achieved, o[:n]); err != nil && e.fault == "" {
		e.fault = err.Error()
	}
	for i := range g {
		o[n+i] = float32(e.achieved[i])
		o[n+g+i] = float32(e.goal[i])
	}
	if e.fault != "" {
		mujoco.ZeroNonFinite(o)
	}
	info[0] = 0
	if e.c.Rule.Success(e.achieved, e.goal) {
		info[0] = 1
	}
	info[1] = float32(e.c.Rule.Distance(e.achieved, e.goal))
}

// ComputeReward implements envpool.GoalRewarder: the reward Step gives when the state
// reaches achieved and the goal is desired.
func (e *Env) ComputeReward(achieved, desired []float32) float32 {
	var buf [32]float64 // every task's two goals fit: no allocation per call
	n := len(achieved) + len(desired)
	both := buf[:]
	if n > len(buf) {
		both = make([]float64, n)
	}
	a, d := both[:len(achieved)], both[len(achieved):n]
	for i := range achieved {
		a[i] = float64(achieved[i])
	}
	for i := range desired {
		d[i] = float64(desired[i])
	}
	return float32(e.c.Rule.Reward(a, d))
}

// frames is an env's renderer, made at its first picture.
type frames struct {
	r   *mujoco.Renderer
	img *image.RGBA
}

// CanRender implements envpool.RenderChecker: nil when libOSMesa and MuJoCo's renderer
// load, else an error naming the package to install.
func (e *Env) CanRender() error { return mujoco.LoadOSMesa() }

// Render implements envpool.Renderer: the current state with the goal markers moved
// to the goal, from the task's view, at mujoco.FrameSize square. The image is the
// env's own and is overwritten by the next call.
func (e *Env) Render() (image.Image, error) {
	if e.frames == nil {
		r, err := mujoco.NewRendererWith(e.sim.M, mujoco.FrameSize, mujoco.FrameSize, mujoco.RenderOptions{ShadowSize: 1024})
		if err != nil {
			return nil, err
		}
		e.frames = &frames{r: r, img: image.NewRGBA(image.Rect(0, 0, mujoco.FrameSize, mujoco.FrameSize))}
	}
	view, err := e.task.RenderSetup(e.sim, e.goal)
	if err != nil {
		return nil, err
	}
	if err := e.frames.r.RenderRGBA(e.sim.D, view, e.frames.img); err != nil {
		return nil, err
	}
	return e.frames.img, nil
}

// Close implements io.Closer: it frees the renderer, the data and the model copy.
func (e *Env) Close() error {
	if e.frames != nil {
		e.frames.r.Close()
		e.frames = nil
	}
	return e.sim.Close()
}
