// Package mjrobot is the machinery the Gymnasium-Robotics families PointMaze, Adroit
// and FrankaKitchen share on rlpool's MuJoCo binding: one env's simulation (Sim: its
// own copy of the task's compiled model, which tasks edit per episode, its mjData and
// its random generator), the env lifecycle around a task's Logic (reset to the
// model's initial state, steps that end as truncated with the "error" info column set
// when MuJoCo fails or the state diverges, observations with non-finite values zeroed
// after such a fault) and pictures through the mujoco package's offscreen renderer.
// Time limits are the pool's (Spec.MaxEpisodeSteps), as in EnvPool.
package mjrobot

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// ErrorKey is the info column every task of these families ends its info with: 0, or
// the mujoco package's fault code (mujoco.FaultMuJoCo, FaultUnstable, FaultBadAction)
// of the fault that ended the episode as truncated.
const ErrorKey = "error"

// Logic is one env's task behaviour. Each env has its own Logic value, which may keep
// per-episode state (the maze's goal, the kitchen's task masks).
type Logic interface {
	// Reset starts an episode: the simulation is back at its initial state (Sim.Initial)
	// with a forward pass done; Reset draws the episode's randomness, may edit the env's
	// model copy, and leaves derived quantities up to date (Sim.Forward).
	Reset(s *Sim)
	// Step applies one action (of the action space's length), advances the simulation
	// (Sim.Simulate) and returns the step's reward and whether the episode ended at a
	// terminal state.
	Step(s *Sim, a []float32) (reward float64, terminated bool)
	// Observe writes the observation of the current state (the spec's layout order).
	Observe(s *Sim, obs []float32)
	// Info writes the task's info columns, those of the spec's InfoKeys before "error".
	Info(s *Sim, info []float32)
}

// Sim is one env's simulation as a task's Logic sees it.
type Sim struct {
	// M is the env's own copy of the task's model (tasks move targets in it), D its data.
	M *mujoco.Model
	D *mujoco.Data
	// FrameSkip is the number of mj_step calls per env step.
	FrameSkip int
	// Views of mjData arrays: xquat (bodies' orientations) and sensordata.
	Xquat, Sensordata []float64

	rng                *rand.Rand
	initQpos, initQvel []float64
	initTime           float64
	err                error // the first MuJoCo error since the last reset or step began
}

// Uniform draws from U(lo, hi) with the env's generator.
func (s *Sim) Uniform(lo, hi float64) float64 { return lo + (hi-lo)*s.rng.Float64() }

// Float64 draws from U[0, 1) with the env's generator.
func (s *Sim) Float64() float64 { return s.rng.Float64() }

// SetInitial replaces the state Initial restores (the model's qpos0 and zero
// velocities by default), as a task with its own initial pose (the kitchen's) sets it.
func (s *Sim) SetInitial(qpos, qvel []float64) {
	copy(s.initQpos, qpos)
	copy(s.initQvel, qvel)
}

// Initial resets the data (mj_resetData), restores the initial state and runs a
// forward pass: Gymnasium-Robotics' _reset_sim before a task's own reset.
func (s *Sim) Initial() {
	s.fail(s.D.Reset())
	s.D.SetTime(s.initTime)
	copy(s.D.Qpos, s.initQpos)
	copy(s.D.Qvel, s.initQvel)
	s.Forward()
}

// Forward is mj_forward.
func (s *Sim) Forward() { s.fail(s.D.Forward()) }

// Simulate is FrameSkip calls of mj_step with the controls as they are.
func (s *Sim) Simulate() {
	for range s.FrameSkip {
		if s.fail(s.D.Step()) {
			return
		}
	}
}

// RNEPostConstraint is mj_rnePostConstraint (cfrc_ext and friends), which the kitchen
// runs after its steps.
func (s *Sim) RNEPostConstraint() { s.fail(s.D.RNEPostConstraint()) }

// fail records err, the first of the episode step, and reports whether there was one.
func (s *Sim) fail(err error) bool {
	if err != nil && s.err == nil {
		s.err = err
	}
	return err != nil || s.err != nil
}

// Site returns a site's world position.
func (s *Sim) Site(id int) [3]float64 { return [3]float64(s.D.SiteXpos[3*id : 3*id+3]) }

// Body returns a body's world position.
func (s *Sim) Body(id int) [3]float64 { return [3]float64(s.D.Xpos[3*id : 3*id+3]) }

// BodyQuat returns a body's world orientation (w, x, y, z).
func (s *Sim) BodyQuat(id int) [4]float64 { return [4]float64(s.Xquat[4*id : 4*id+4]) }

// ModelRow returns row id of an mjModel array of the env's own model copy
// ("body_pos", 3; "site_pos", 3; "body_quat", 4), a view the task may write to edit
// its model per episode.
func (s *Sim) ModelRow(array string, id, cols int) []float64 {
	return s.M.Float64s(array)[id*cols : (id+1)*cols]
}

// Task is one registered task under one set of options: its spec (InfoKeys ending
// with ErrorKey), the compiled model its envs copy, and its logic.
type Task struct {
	Spec      envpool.Spec
	Model     *mujoco.Model
	FrameSkip int
	// NewLogic makes one env's logic, resolving the names it reads.
	NewLogic func(s *Sim) (Logic, error)
	// View is the camera pictures are drawn from, given the env's state at its first
	// picture; nil: FreeView.
	View func(s *Sim) mujoco.View

	// obs are the observation options (Observation), frameLayout the fields of one
	// stacked state observation.
	obs         ObsOptions
	frameLayout []envpool.ObsField
}

// Env is one env of a task. It implements envpool.Env, envpool.Renderer and io.Closer.
type Env struct {
	t     *Task
	s     *Sim
	logic Logic

	fault    int
	faultMsg string
	frames   mujoco.Frames               // pictures' renderer, made at the first picture
	states   *mujoco.FrameStack[float32] // the stacked observations, with frame_stack
	pix      *mujoco.PixelStack          // the pictures observed, with from_pixels
}

// NewEnv makes an env of t whose randomness comes from seed.
func NewEnv(t *Task, seed int64) (*Env, error) {
	m, d, err := t.Model.CopyWithData()
	if err != nil {
		return nil, err
	}
	s := &Sim{
		M: m, D: d, FrameSkip: t.FrameSkip,
		Xquat: d.Float64s("xquat"), Sensordata: d.Float64s("sensordata"),
		rng:      rand.New(rand.NewPCG(uint64(seed), 0x726f626f74)), // "robot"
		initQpos: slices.Clone(m.Qpos0), initQvel: make([]float64, m.NV),
		initTime: d.Time(),
	}
	e := &Env{t: t, s: s}
	switch o := t.obs; {
	case o.FromPixels:
		if e.pix, err = mujoco.NewPixelStack(m, o.PixelsSize, o.PixelsSize, o.FrameStack, o.PixelsFast); err != nil {
			e.Close()
			return nil, err
		}
	case o.FrameStack > 1:
		e.states = mujoco.NewFrameStack[float32](o.FrameStack, t.Spec.ObsSpace.Size()/o.FrameStack)
	}
	if e.logic, err = t.NewLogic(s); err != nil {
		e.Close()
		return nil, fmt.Errorf("%s: %w", t.Spec.TaskID, err)
	}
	return e, nil
}

// Sim returns the env's simulation, for tests and tools.
func (e *Env) Sim() *Sim { return e.s }

// Logic returns the env's task logic, for the families' own tests and tools.
func (e *Env) Logic() Logic { return e.logic }

// Fault returns the code and message of the fault that ends the current episode, or
// mujoco.FaultNone and "".
func (e *Env) Fault() (int, string) { return e.fault, e.faultMsg }

// Reset implements envpool.Env: the initial state, then the task's reset. A MuJoCo
// error here makes the next step end the episode as truncated.
func (e *Env) Reset() {
	e.fault, e.faultMsg = mujoco.FaultNone, ""
	e.s.err = nil
	e.s.Initial()
	if e.s.err == nil {
		e.logic.Reset(e.s)
	}
	e.check()
	e.push(true)
}

// push adds the current observation to the env's stack, when it stacks them (fill:
// after a reset).
func (e *Env) push(fill bool) {
	switch {
	case e.pix != nil:
		if err := e.pix.Capture(e.s.D, e.pixelView(), fill); err != nil {
			e.setFault(mujoco.FaultMuJoCo, err.Error())
		}
	case e.states != nil:
		e.observe(e.states.Slot())
		e.states.Push(fill)
	}
}

// pixelView is the view pixel observations are drawn from: camera_id's camera, or
// with -1 the task's view of the current state.
func (e *Env) pixelView() mujoco.View {
	if id := e.t.obs.CameraID; id >= 0 {
		return mujoco.FixedView(id)
	}
	return e.view()
}

// view is the task's view of the current state (FreeView when it has none).
func (e *Env) view() mujoco.View {
	if e.t.View != nil {
		return e.t.View(e.s)
	}
	return e.s.M.FreeView()
}

// observe writes the current observation, zeros in place of non-finite values after
// a fault.
func (e *Env) observe(o []float32) {
	e.logic.Observe(e.s, o)
	if e.fault != mujoco.FaultNone {
		mujoco.ZeroNonFinite(o)
	}
}

// Step implements envpool.Env. An action of the wrong length, a MuJoCo error or a
// diverged state ends the episode as truncated with the "error" info column set.
func (e *Env) Step(a []float32) envpool.StepResult {
	r := e.step(a)
	e.push(false)
	return r
}

func (e *Env) step(a []float32) envpool.StepResult {
	if e.fault == mujoco.FaultNone && len(a) != e.t.Spec.ActionSpace.Size() {
		e.setFault(mujoco.FaultBadAction, fmt.Sprintf("action has %d values; %s takes %d", len(a), e.t.Spec.TaskID, e.t.Spec.ActionSpace.Size()))
	}
	if e.fault != mujoco.FaultNone {
		return envpool.StepResult{Truncated: true}
	}
	e.s.err = nil
	reward, terminated := e.logic.Step(e.s, a)
	if e.check() {
		return envpool.StepResult{Truncated: true}
	}
	return envpool.StepResult{Reward: float32(reward), Terminated: terminated}
}

// check turns a MuJoCo error, MuJoCo's bad-value warnings or a non-finite state into
// the episode's fault, and reports whether the episode has one.
func (e *Env) check() bool {
	switch {
	case e.s.err != nil:
		e.setFault(mujoco.FaultMuJoCo, e.s.err.Error())
	default:
		if msg, bad := e.s.D.Unstable(); bad {
			e.setFault(mujoco.FaultUnstable, msg)
		} else if !finite(e.s.D.Qpos) || !finite(e.s.D.Qvel) {
			e.setFault(mujoco.FaultUnstable, "the simulation state holds a non-finite value")
		}
	}
	return e.fault != mujoco.FaultNone
}

func finite(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// setFault records the first fault of the episode; later ones are its consequences.
func (e *Env) setFault(code int, msg string) {
	if e.fault == mujoco.FaultNone {
		e.fault, e.faultMsg = code, msg
	}
}

// Observe implements envpool.Env: the task's observation (zeros in place of
// non-finite values after a fault), the stacked ones or the pictures, its info
// columns, then the fault code.
func (e *Env) Observe(obs envpool.Obs, info []float32) {
	switch {
	case e.pix != nil:
		e.pix.Observe(obs.U8)
	case e.states != nil:
		e.states.ObserveFields(obs.F32, e.t.frameLayout)
	default:
		e.observe(obs.F32)
	}
	e.logic.Info(e.s, info[:len(info)-1])
	info[len(info)-1] = float32(e.fault)
}

// Close implements io.Closer: it frees the env's renderer, data and model copy.
func (e *Env) Close() error {
	e.frames.Close()
	e.pix.Close()
	e.s.D.Close()
	return e.s.M.Close()
}

// Put writes float64 values as float32 and returns the rest of dst, so that an
// observation is written entry after entry.
func Put(dst []float32, src ...float64) []float32 {
	for i, v := range src {
		dst[i] = float32(v)
	}
	return dst[len(src):]
}

// FrameSize is the side of the square pictures FrameRGBA draws for recordings, the
// size the mujoco package's tasks use.
const FrameSize = mujoco.FrameSize

// An env draws itself (with libOSMesa, which may be missing).
var _ interface {
	envpool.Renderer
	envpool.RenderChecker
} = (*Env)(nil)

// CanRender is envpool.RenderChecker: whether libOSMesa and MuJoCo's renderer load.
func (e *Env) CanRender() error { return mujoco.LoadOSMesa() }

// Render is envpool.Renderer: the picture of FrameRGBA.
func (e *Env) Render() (image.Image, error) { return e.FrameRGBA() }

// FrameRGBA draws the env's current state from the task's view at FrameSize x
// FrameSize. The image is the env's own and is overwritten by the next call.
func (e *Env) FrameRGBA() (*image.RGBA, error) {
	return e.frames.Draw(e.s.D, e.view)
}

// RenderFPS is the task's frame rate in simulated time, one picture per env step.
func (e *Env) RenderFPS() float64 { return e.t.Spec.RenderFPS }

// GymView is the camera Gymnasium-Robotics' and EnvPool's renderers start from
// (mujoco.MedianView); tasks set their own distance and angles on it.
func GymView(s *Sim) mujoco.View { return mujoco.MedianView(s.D) }

// Spec fills in the parts of a spec every task of these families shares: a Box
// observation of the layout's total size (unbounded), actions in [-1, 1] of nu
// values, InfoKeys with ErrorKey appended (InfoLens likewise), a frame rate of one
// picture per env step and EnvPool's 480 x 480 render size.
func Spec(id string, layout []envpool.ObsField, nu int, infoKeys []string, infoLens []int, m *mujoco.Model, frameSkip, limit int) envpool.Spec {
	n := 0
	for i := range layout {
		layout[i].Offset = n
		n += layout[i].Size
	}
	inf := float32(math.Inf(1))
	var lens []int
	if infoLens != nil {
		lens = append(slices.Clone(infoLens), 1)
	}
	return envpool.Spec{
		TaskID:          id,
		ObsSpace:        envpool.UniformBox(-inf, inf, envpool.Float32, n),
		ActionSpace:     envpool.UniformBox(-1, 1, envpool.Float32, nu),
		MaxEpisodeSteps: limit,
		FrameSkip:       frameSkip,
		InfoKeys:        append(slices.Clone(infoKeys), ErrorKey),
		InfoLens:        lens,
		RewardThreshold: math.NaN(),
		ObsLayout:       layout,
		RenderFPS:       1 / (float64(frameSkip) * m.Timestep),
		RenderWidth:     480, RenderHeight: 480,
	}
}

// CachedModel returns the model compiled under key (prefixed with "robotics "),
// compiling it with load the first time (mujoco.CachedModel).
func CachedModel(key string, load func() (*mujoco.Model, error)) (*mujoco.Model, error) {
	return mujoco.CachedModel("robotics "+key, load)
}

// Variants names the tasks a family registers in two reward variants, as EnvPool
// does: Prefix+name+"-"+Version, and the variant with Suffix before the version
// (AdroitHandDoor-v1 and AdroitHandDoorSparse-v1).
type Variants struct{ Prefix, Suffix, Version string }

// ID is a task's id, of the variant or not.
func (v Variants) ID(name string, variant bool) string {
	if variant {
		name += v.Suffix
	}
	return v.Prefix + name + "-" + v.Version
}

// IDs lists, for each name in order, the plain task's id and the variant's.
func (v Variants) IDs(names ...string) []string {
	ids := make([]string, 0, 2*len(names))
	for _, n := range names {
		ids = append(ids, v.ID(n, false), v.ID(n, true))
	}
	return ids
}
