// Package mujoco is rlpool's MuJoCo family: Gymnasium's eleven MuJoCo tasks in their
// v4 and v5 versions (Ant-v4, Ant-v5, HalfCheetah-v4, ... Pusher-v5), simulated by
// Debian's libmujoco.so.2.2.2 loaded at run time with purego, so the build needs no cgo.
// The DeepMind Control Suite's tasks, on the same binding, are package dmc.
//
// Each v4 task follows Gymnasium v0.29.1's v4 code (docs/design/mujoco.md): the same
// observation slices, reward terms, health rules, reset noise, simulation call order
// (frame_skip mj_step calls, then one mj_rnePostConstraint) and the v4 quirks it lists,
// such as kinematics read stale after mj_step and the healthy bonus paid on the
// terminating step. Each v5 task follows Gymnasium 1.x's v5 code, with every v5 option;
// v5.go lists what differs from v4 and from MuJoCo 2.3.3 and later. The models are
// Gymnasium's MJCF files, embedded (see assets/README.md).
//
// One compiled model is shared read-only by all envs of a task; each env owns an mjData.
// A MuJoCo error (mju_error) or an unstable simulation (MuJoCo's bad-qpos/qvel/qacc
// warnings, after which MuJoCo silently resets the data) inside one env ends that env's
// episode as truncated, with the "error" info column saying why; it never stops the
// process. Envs draw their own pictures (FrameRGBA) with MuJoCo's renderer on an
// offscreen OSMesa context (render.go), and with EnvPool's from_pixels observe them,
// stacked with frame_stack (stack.go, pixels.go).
package mujoco

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rlpool/rlpool/envpool"
)

// Error codes of the "error" info column.
const (
	// FaultNone: the step ran normally.
	FaultNone = 0
	// FaultMuJoCo: MuJoCo raised an error (mju_error) during the step or reset.
	FaultMuJoCo = 1
	// FaultUnstable: MuJoCo flagged a bad number in qpos, qvel, qacc or ctrl and reset
	// the simulation state, or the state held a non-finite value.
	FaultUnstable = 2
	// FaultBadAction: the action did not have one value per actuator.
	FaultBadAction = 3
)

// behavior is what distinguishes one v4 task from another. One behavior value is shared
// by all envs of a task (it holds only configuration); per-env state lives in Env.
type behavior interface {
	// obsDim is the observation length.
	obsDim() int
	// infoKeys names the task's info columns ("error" is appended by the family).
	infoKeys() []string
	// reset draws the reset noise into e.d.Qpos and e.d.Qvel; mj_resetData ran before
	// and mj_forward runs after it, as in Gymnasium's reset and set_state.
	reset(e *Env)
	// step runs one env step, calling e.simulate(a) at the point the task's Python code
	// calls do_simulation, fills e.info and returns the reward and termination.
	step(e *Env, a []float32) (reward float64, terminated bool)
	// observe writes the observation of the current state.
	observe(e *Env, obs []float32)
}

// task is one registered task under one set of options: its behaviour, its compiled
// model and its spec.
type task struct {
	b         behavior
	model     *Model
	frameSkip int
	dt        float64
	spec      envpool.Spec
	obs       obsOptions // pixels and frame stacking (stack.go)
}

// Env is one MuJoCo task instance: a shared read-only Model, its own mjData and its own
// random generator (seeded by the pool), so its trajectory depends only on its seed and
// actions. It implements envpool.Env and io.Closer.
type Env struct {
	t    *task
	m    *Model
	d    *Data
	rng  *rand.Rand
	info []float64 // the task's scalar info columns, then "error"

	// qpos0 and qvel0 are the episode's initial state, after the reset noise: the
	// "qpos0" and "qvel0" info arrays (EnvPool's), from which a reference
	// implementation can replay the same episode.
	qpos0, qvel0 []float64

	fault    int    // FaultNone, or why the current episode must end as truncated
	faultMsg string // MuJoCo's message or a description of the fault

	lastFault    int // the most recent fault, kept across resets for diagnostics
	lastFaultMsg string

	frames *envFrames // recorded frames' renderer (render_env.go), made at the first frame

	pix    *PixelStack          // pixel observations (stack.go), nil for state ones
	states *FrameStack[float32] // stacked state observations, nil without frame_stack
}

func newEnv(t *task, seed int64) (*Env, error) {
	d, err := NewData(t.model)
	if err != nil {
		return nil, err
	}
	e := &Env{
		t:     t,
		m:     t.model,
		d:     d,
		rng:   rand.New(rand.NewPCG(uint64(seed), 0x6d756a6f636f)), // "mujoco"
		info:  make([]float64, len(t.b.infoKeys())+1),
		qpos0: make([]float64, t.model.NQ),
		qvel0: make([]float64, t.model.NV),
	}
	if err := e.newObsStacks(); err != nil {
		d.Close()
		return nil, err
	}
	return e, nil
}

// Data returns the env's simulation state, for tests and tools.
func (e *Env) Data() *Data { return e.d }

// LastFault returns the code and message of the most recent fault of this env (a MuJoCo
// error or instability that ended an episode), or FaultNone and "" if there was none.
func (e *Env) LastFault() (int, string) { return e.lastFault, e.lastFaultMsg }

// Reset implements envpool.Env: mj_resetData, the task's reset noise, then mj_forward.
// A MuJoCo error here makes the next Step end the episode at once as truncated. An env
// that stacks observations fills its stack with the reset's.
func (e *Env) Reset() {
	e.reset()
	e.pushObs(true)
}

func (e *Env) reset() {
	e.fault, e.faultMsg = FaultNone, ""
	clear(e.info)
	defer e.recoverFault(nil)
	e.d.reset()
	e.t.b.reset(e)
	copy(e.qpos0, e.d.Qpos)
	copy(e.qvel0, e.d.Qvel)
	e.d.forward()
}

// Step implements envpool.Env. A MuJoCo error or an unstable simulation returns
// Truncated with the "error" info column set, instead of stopping the process. An env
// that stacks observations adds the step's to its stack; a picture that cannot be drawn
// also ends the episode as truncated.
func (e *Env) Step(action []float32) envpool.StepResult {
	res := e.step(action)
	if e.pix == nil && e.states == nil {
		return res
	}
	ok := e.fault == FaultNone
	e.pushObs(false)
	if ok && e.fault != FaultNone {
		return e.faultResult()
	}
	return res
}

func (e *Env) step(action []float32) (res envpool.StepResult) {
	if e.fault != FaultNone {
		return e.faultResult()
	}
	if len(action) != e.m.NU {
		e.setFault(FaultBadAction, fmt.Sprintf("action has %d values; %s takes %d", len(action), e.t.spec.TaskID, e.m.NU))
		return e.faultResult()
	}
	defer e.recoverFault(&res)
	reward, terminated := e.t.b.step(e, action)
	if e.fault != FaultNone {
		return e.faultResult()
	}
	return envpool.StepResult{Reward: float32(reward), Terminated: terminated}
}

// recoverFault is deferred around MuJoCo calls: it turns the error handler's panic into
// a fault of the env (and, in Step, a truncated result).
func (e *Env) recoverFault(res *envpool.StepResult) {
	r := recover()
	if r == nil {
		return
	}
	me, ok := r.(*Error)
	if !ok {
		panic(r)
	}
	e.setFault(FaultMuJoCo, me.Msg)
	if res != nil {
		*res = e.faultResult()
	}
}

func (e *Env) setFault(code int, msg string) {
	if e.fault == FaultNone {
		e.fault, e.faultMsg = code, msg
		e.lastFault, e.lastFaultMsg = code, msg
	}
}

func (e *Env) faultResult() envpool.StepResult {
	clear(e.info)
	e.info[len(e.info)-1] = float64(e.fault)
	return envpool.StepResult{Truncated: true}
}

// Observe implements envpool.Env: the state, or the stacked states or pictures. After
// a fault, non-finite state values are written as 0 so a learner bootstrapping from the
// final observation is not poisoned.
func (e *Env) Observe(obs envpool.Obs, info []float32) {
	switch {
	case e.pix != nil:
		e.pix.Observe(obs.U8)
	case e.states != nil:
		e.states.Observe(obs.F32)
	default:
		e.observeState(obs.F32)
	}
	putSlice(putSlice(putSlice(info, e.info), e.qpos0), e.qvel0)
}

// observeState writes the task's observation of the current state, non-finite values
// as 0 after a fault.
func (e *Env) observeState(o []float32) {
	e.t.b.observe(e, o)
	if e.fault != FaultNone {
		ZeroNonFinite(o)
	}
}

// Close implements io.Closer: it frees the env's mjData and renderers. The shared
// model stays.
func (e *Env) Close() error {
	e.closeFrames()
	e.closeObsStacks()
	return e.d.Close()
}

// simulate is Gymnasium's do_simulation(a, frame_skip) followed by v4's single
// mj_rnePostConstraint: ctrl = a (unclipped; MuJoCo clamps internally), frame_skip
// mj_step calls, then cfrc_ext. It then checks MuJoCo's instability warnings.
func (e *Env) simulate(a []float32) {
	for i, x := range a {
		e.d.Ctrl[i] = float64(x)
	}
	for range e.t.frameSkip {
		e.d.step()
	}
	e.d.rnePostConstraint()
	if msg, bad := e.d.Unstable(); bad {
		e.setFault(FaultUnstable, msg)
	}
}

func warningName(w int) string {
	switch w {
	case mjWARN_BADQPOS:
		return "qpos"
	case mjWARN_BADQVEL:
		return "qvel"
	case mjWARN_BADQACC:
		return "qacc"
	case mjWARN_BADCTRL:
		return "ctrl"
	}
	return fmt.Sprintf("warning %d", w)
}

// uniform draws from U(lo, hi).
func (e *Env) uniform(lo, hi float64) float64 { return lo + (hi-lo)*e.rng.Float64() }

// normal draws from N(0, 1).
func (e *Env) normal() float64 { return e.rng.NormFloat64() }

// body returns the (possibly stale) world position of body id.
func (e *Env) body(id int) []float64 { return e.d.Xpos[3*id : 3*id+3] }

// ctrlCost is sum(a^2), over the raw action.
func ctrlCost(a []float32) float64 {
	s := 0.0
	for _, x := range a {
		s += float64(x) * float64(x)
	}
	return s
}

// stateFinite reports whether qpos and qvel hold only finite values.
func (e *Env) stateFinite() bool {
	for _, v := range e.d.Qpos {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	for _, v := range e.d.Qvel {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// put32 writes float64 values as float32 and returns the rest of dst.
func put32(dst []float32, src ...float64) []float32 {
	for i, v := range src {
		dst[i] = float32(v)
	}
	return dst[len(src):]
}

// putSlice writes a float64 slice as float32 and returns the rest of dst.
func putSlice(dst []float32, src []float64) []float32 {
	for i, v := range src {
		dst[i] = float32(v)
	}
	return dst[len(src):]
}

// putClipped writes src clipped to [lo, hi] and returns the rest of dst.
func putClipped(dst []float32, src []float64, lo, hi float64) []float32 {
	for i, v := range src {
		dst[i] = float32(min(max(v, lo), hi))
	}
	return dst[len(src):]
}

// modelCache holds compiled models by asset name (or file path): compiling is done once
// per process and the read-only mjModel shared by every env and pool of the task.
var modelCache ModelCache

func cachedModel(key string, load func() ([]byte, error)) (*Model, error) {
	return modelCache.Get(key, func() (*Model, error) {
		xml, err := load()
		if err != nil {
			return nil, err
		}
		return LoadModelXML(baseName(key), xml)
	})
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
