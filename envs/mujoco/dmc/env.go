package dmc

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// Step types of the "step_type" info column, numbered as dm_env numbers them: the
// observation of a reset is First, the one that ends an episode (a terminal state or
// the time limit) Last, every other Mid.
const (
	StepFirst = 0
	StepMid   = 1
	StepLast  = 2
)

// InfoKeys are the info columns of every suite task: the step's discount (1, or 0 at a
// terminal state), its step type, the fault code of the mujoco package (0, or why
// the env ended the episode as truncated), and the arrays qpos0 and qvel0: the
// episode's initial state after initialize_episode (EnvPool's, from which a reference
// implementation can replay the episode), nq and nv columns.
var InfoKeys = []string{"discount", "step_type", "error", "qpos0", "qvel0"}

// The info columns' indexes, in InfoKeys' order.
const (
	infoDiscount = iota
	infoStepType
	infoError
	infoScalars // the columns before the arrays
)

// logic is one suite task's behaviour (the suite's Task subclass) for one env. Each env
// has its own logic value, which may keep per-episode state.
type logic interface {
	// initEpisode is the task's initialize_episode: it sets the initial state (and may
	// edit the env's own model) after mj_resetData and a forward pass; another forward
	// pass follows it.
	initEpisode(p *Physics) error
	// beforeStep is before_step: it writes the action into the controls.
	beforeStep(p *Physics, a []float32)
	// reward is get_reward, of the state after the step.
	reward(p *Physics) float64
	// terminal is get_termination: whether the episode ended at a terminal state (whose
	// discount is 0).
	terminal(p *Physics) bool
	// layout names the observation's entries and sizes in the suite's order (offsets
	// are filled in by the caller).
	layout(p *Physics) []envpool.ObsField
	// observe writes get_observation, its entries flattened in the suite's order.
	observe(p *Physics, obs []float32)
}

// plainControl is the suite's default before_step, for embedding in a task's logic.
type plainControl struct{}

// beforeStep writes the action into the controls as it is (ctrl = action); MuJoCo
// clamps controls to the ranges of limited actuators itself.
func (plainControl) beforeStep(p *Physics, a []float32) {
	for i, x := range a {
		p.D.Ctrl[i] = float64(x)
	}
}

// noTermination is the suite's default get_termination, for embedding in a task's
// logic: episodes end only at the time limit.
type noTermination struct{}

// terminal reports false: no state ends the episode.
func (noTermination) terminal(*Physics) bool { return false }

// qposQvelObs is the observation of the tasks that show the whole state as it is, for
// embedding in their logic: "position" (qpos) then "velocity" (qvel), the suite's
// physics.position() and physics.velocity().
type qposQvelObs struct{}

// layout names the two entries, sized by the model.
func (qposQvelObs) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("position", p.M.NQ), field("velocity", p.M.NV)}
}

// observe writes qpos then qvel.
func (qposQvelObs) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos...)
	put(o, p.D.Qvel...)
}

// field is a layout entry, for the tasks' layout methods (the caller fills in the
// offsets).
func field(name string, size int) envpool.ObsField { return envpool.ObsField{Name: name, Size: size} }

// scalar is a layout entry of one value that the suite's observation holds as a
// scalar (a float, where other entries are arrays).
func scalar(name string) envpool.ObsField { return envpool.ObsField{Name: name, Size: 1, Scalar: true} }

// put writes float64 values as float32 and returns the rest of dst, so that an
// observe method writes its entries one after another.
func put(dst []float32, src ...float64) []float32 {
	for i, v := range src {
		dst[i] = float32(v)
	}
	return dst[len(src):]
}

// putTouch writes log1p of each touch sensor's value, as the suite observes touch:
// the raw forces span orders of magnitude.
func putTouch(p *Physics, o []float32, touch []Sensor) []float32 {
	for _, s := range touch {
		o = put(o, math.Log1p(p.SensorData(s)[0]))
	}
	return o
}

// task is one registered suite task under one set of options: the compiled model the
// envs copy, its step count per action and the constructor of its logic.
type task struct {
	def   *taskDef
	model *mujoco.Model
	nSub  int
	limit int
	spec  envpool.Spec
	opts  taskOptions
	pix   pixelConfig // pixel observations (size 0: the state's)
	// stateStack is frame_stack for state observations (1: none), frameLen one
	// observation's length and frameLayout its fields, which observeStack stacks.
	stateStack, frameLen int
	frameLayout          []envpool.ObsField
}

// Env is one suite task instance. It owns a copy of the task's model (the suite's tasks
// edit model values such as target sizes per episode) and its mjData, and draws its
// randomness from its own generator, seeded by the pool. It implements envpool.Env and
// io.Closer.
type Env struct {
	t     *task
	p     *Physics
	logic logic

	elapsed  int
	stepType int
	discount float64

	qpos0, qvel0 []float64 // the episode's initial state (the qpos0 and qvel0 info arrays)

	fault    int
	faultMsg string

	pix    *pixels                     // pixel observations, when the task renders them
	states *mujoco.FrameStack[float32] // stacked state observations (frame_stack > 1)
	frames *frames                     // recordings' renderer, made at the first FrameRGBA
}

// newEnv makes one env of a task: its own copy of the compiled model (tasks edit it per
// episode), its data, a generator seeded with seed, and its task logic.
func newEnv(t *task, seed int64) (*Env, error) {
	m, d, err := t.model.CopyWithData()
	if err != nil {
		return nil, err
	}
	e := &Env{t: t, p: newPhysics(m, d, seed, t.nSub), qpos0: make([]float64, m.NQ), qvel0: make([]float64, m.NV)}
	e.logic, err = t.def.newLogic(e.p, t.opts)
	if err == nil && t.pix.size > 0 {
		e.pix, err = newPixels(e.p, t.pix)
	}
	if t.stateStack > 1 {
		e.states = mujoco.NewFrameStack[float32](t.stateStack, t.frameLen)
	}
	if err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Physics returns the env's simulation, for tests and tools.
func (e *Env) Physics() *Physics { return e.p }

// Fault returns the code and message of the fault that ends the current episode, or
// mujoco.FaultNone and "".
func (e *Env) Fault() (int, string) { return e.fault, e.faultMsg }

// Reset implements envpool.Env: the suite's reset (mj_resetData and a forward pass with
// actuation disabled, the task's initialize_episode, another such forward pass). A
// MuJoCo error here ends the episode at the first step, as truncated.
func (e *Env) Reset() {
	e.elapsed, e.stepType, e.discount = 0, StepFirst, 1
	e.fault, e.faultMsg = mujoco.FaultNone, ""
	p := e.p
	err := p.D.Reset()
	if err == nil {
		err = p.forwardPassive()
	}
	if err == nil {
		err = e.logic.initEpisode(p)
	}
	if err == nil {
		err = p.forwardPassive()
	}
	copy(e.qpos0, p.D.Qpos)
	copy(e.qvel0, p.D.Qvel)
	if err == nil && e.pix != nil {
		err = e.pix.capture(p.D, true)
	}
	if err != nil {
		e.setFault(mujoco.FaultMuJoCo, err.Error())
	}
	e.pushState(true)
}

// pushState adds the current state's observation to the env's stack, when it stacks
// states (fill: after a reset).
func (e *Env) pushState(fill bool) {
	if e.states != nil {
		e.observeState(e.states.Slot())
		e.states.Push(fill)
	}
}

// Step implements envpool.Env: before_step, the control step (frame_skip physics steps
// the suite's way), then reward and termination. It ends the episode at the task's time
// limit (Truncated, discount 1) or at a terminal state (Terminated, discount 0); an env
// that stacks states adds the step's observation to its stack. A MuJoCo
// error or instability ends it as truncated with the "error" info column set.
func (e *Env) Step(action []float32) envpool.StepResult {
	r := e.step(action)
	e.pushState(false)
	return r
}

func (e *Env) step(action []float32) envpool.StepResult {
	if e.fault == mujoco.FaultNone && len(action) != e.p.M.NU {
		e.setFault(mujoco.FaultBadAction, fmt.Sprintf("action has %d values; %s takes %d", len(action), e.t.spec.TaskID, e.p.M.NU))
	}
	if e.fault != mujoco.FaultNone {
		e.stepType, e.discount = StepLast, 1
		return envpool.StepResult{Truncated: true}
	}
	e.logic.beforeStep(e.p, action)
	if err := e.p.step(); err != nil {
		e.setFault(mujoco.FaultMuJoCo, err.Error())
	} else if msg, bad := e.p.D.Unstable(); bad {
		e.setFault(mujoco.FaultUnstable, msg)
	} else if !e.p.finite() {
		e.setFault(mujoco.FaultUnstable, "the simulation state holds a non-finite value")
	}
	e.elapsed++
	if e.fault == mujoco.FaultNone && e.pix != nil {
		if err := e.pix.capture(e.p.D, false); err != nil {
			e.setFault(mujoco.FaultMuJoCo, err.Error())
		}
	}
	if e.fault != mujoco.FaultNone {
		e.stepType, e.discount = StepLast, 1
		return envpool.StepResult{Truncated: true}
	}
	r := envpool.StepResult{Reward: float32(e.logic.reward(e.p))}
	e.stepType, e.discount = StepMid, 1
	switch {
	case e.logic.terminal(e.p):
		r.Terminated, e.stepType, e.discount = true, StepLast, 0
	case e.elapsed >= e.t.limit:
		r.Truncated, e.stepType = true, StepLast
	}
	return r
}

// setFault records the first fault of the episode; later ones are consequences of it.
func (e *Env) setFault(code int, msg string) {
	if e.fault == mujoco.FaultNone {
		e.fault, e.faultMsg = code, msg
	}
}

// Observe implements envpool.Env: the task's observation (zeros in place of non-finite
// values after a fault) or its stacked pictures, then discount, step type and fault
// code.
func (e *Env) Observe(obs envpool.Obs, info []float32) {
	info[infoDiscount] = float32(e.discount)
	info[infoStepType] = float32(e.stepType)
	info[infoError] = float32(e.fault)
	put(put(info[infoScalars:], e.qpos0...), e.qvel0...)
	switch {
	case e.pix != nil:
		e.pix.observe(obs.U8)
	case e.states != nil:
		e.observeStack(obs.F32)
	default:
		e.observeState(obs.F32)
	}
}

// observeState writes the task's observation of the current state, zeros in place of
// non-finite values after a fault.
func (e *Env) observeState(o []float32) {
	e.logic.observe(e.p, o)
	if e.fault != mujoco.FaultNone {
		mujoco.ZeroNonFinite(o)
	}
}

// Close implements io.Closer: it frees the env's renderers, data and model copy.
func (e *Env) Close() error {
	e.pix.close()
	if e.frames != nil {
		e.frames.r.Close()
	}
	e.p.D.Close()
	return e.p.M.Close()
}

// observeStack writes the stacked states field by field, as EnvPool stacks each entry
// of the suite's observation dict: a field's frames, oldest first, then the next field.
func (e *Env) observeStack(o []float32) {
	at := 0
	for _, f := range e.t.frameLayout {
		for k := range e.states.Len() {
			at += copy(o[at:at+f.Size], e.states.Frame(k)[f.Offset:f.Offset+f.Size])
		}
	}
}
