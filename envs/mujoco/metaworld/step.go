package metaworld

import (
	"fmt"
	"image"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// Reset implements envpool.Env: the model's initial state, the hand held at the task's
// start for 50 control steps with the gripper open, then the task's placement of its
// objects and goal from a fresh random vector. A MuJoCo error here ends the episode at
// the first step, as truncated.
func (e *Env) Reset() {
	e.elapsed, e.fault, e.faultMsg = 0, mujoco.FaultNone, ""
	if err := e.d.Reset(); err != nil {
		e.setFault(mujoco.FaultMuJoCo, err.Error())
	}
	copy(e.d.Qpos, e.qpos0)
	e.forward()
	for range handResetSteps {
		e.setMocap(e.def.handInit)
		e.d.Ctrl[0], e.d.Ctrl[1] = -1, 1
		e.simulate(e.t.frameSkip)
	}
	e.initTCP = e.tcp()
	e.target, e.objInit = e.def.goalInit, e.def.objInit
	e.sampleRandVec()
	e.def.reset(e)
	e.placeGoalSites()
	e.forward()
	e.cur = e.frame()
	e.prev = e.cur
	e.info = e.def.reward(e, e.scene([4]float64{}))
	e.pushState(true)
}

// placeGoalSites puts the task's goal sites at the goal (the sources re-place them
// after every step, since stepping may move them).
func (e *Env) placeGoalSites() {
	for _, s := range e.def.goalSites {
		e.setSitePos(s, e.target)
	}
}

// scene gathers what a reward reads after a step with action a.
func (e *Env) scene(a [4]float64) *scene {
	s := &scene{a: a, o: e.cur, tcp: e.tcp(), open: e.cur[3]}
	s.hand, s.obj = vec3(e.cur[0:3]), vec3(e.cur[4:7])
	return s
}

// Step implements envpool.Env: the hand's mocap moves by the first three action values
// (clipped to [-1, 1], a centimetre per unit, within the hand's bounds), the fourth
// closes (positive) or opens the gripper, frame_skip physics steps run, then the
// task's reward. Episodes end only at the 500-step limit (max_path_length), as
// truncated; a MuJoCo error or instability ends one early, also as truncated.
func (e *Env) Step(action []float32) envpool.StepResult {
	if e.fault == mujoco.FaultNone && len(action) != 4 {
		e.setFault(mujoco.FaultBadAction, fmt.Sprintf("action has %d values; %s takes 4", len(action), e.t.spec.TaskID))
	}
	if e.fault != mujoco.FaultNone {
		return envpool.StepResult{Truncated: true}
	}
	var a [4]float64
	for i := range a {
		a[i] = float64(action[i])
	}
	m := e.mocapPos[3*e.mocap : 3*e.mocap+3]
	for i := range 3 {
		m[i] = clamp(m[i]+clamp(a[i], -1, 1)*actionScale, e.def.handLow[i], e.def.handHigh[i])
	}
	copy(e.mocapQuat[4*e.mocap:4*e.mocap+4], []float64{1, 0, 1, 0})
	e.d.Ctrl[0], e.d.Ctrl[1] = a[3], -a[3]
	e.simulate(e.t.frameSkip)
	e.elapsed++
	e.placeGoalSites()
	e.forward()
	if e.fault == mujoco.FaultNone {
		if msg, bad := e.d.Unstable(); bad {
			e.setFault(mujoco.FaultUnstable, msg)
		}
	}
	if e.fault != mujoco.FaultNone {
		e.info = stepInfo{}
		e.pushState(false)
		return envpool.StepResult{Truncated: true}
	}
	e.prev, e.cur = e.cur, e.frame()
	e.info = e.def.reward(e, e.scene(a))
	e.pushState(false)
	return envpool.StepResult{Reward: float32(e.info.reward), Truncated: e.elapsed >= e.t.limit}
}

// setFault records the first fault of the episode; later ones are consequences of it.
func (e *Env) setFault(code int, msg string) {
	if e.fault == mujoco.FaultNone {
		e.fault, e.faultMsg = code, msg
	}
}

// Fault returns the code and message of the fault that ended the current episode, or
// mujoco.FaultNone and "".
func (e *Env) Fault() (int, string) { return e.fault, e.faultMsg }

// observe writes the 39 values: the current 18, the previous step's 18 and the goal
// (zeros when the task is partially observable, MetaWorld's default).
func (e *Env) observe(o []float32) {
	for i, v := range e.cur {
		o[i] = float32(v)
	}
	for i, v := range e.prev {
		o[frameLen+i] = float32(v)
	}
	goal := e.target
	if e.t.partial {
		goal = vec3{}
	}
	for i, v := range goal {
		o[2*frameLen+i] = float32(v)
	}
	if e.fault != mujoco.FaultNone {
		mujoco.ZeroNonFinite(o)
	}
}

// pushState adds the current observation to the stack, when the task stacks them.
func (e *Env) pushState(fill bool) {
	if e.states != nil {
		e.observe(e.states.Slot())
		e.states.Push(fill)
	}
}

// InfoKeys are the info columns of every task, EnvPool's: success (1 or 0),
// near_object, grasp_success, grasp_reward, in_place_reward, obj_to_target,
// unscaled_reward (the reward) and task_id (the task's index in EnvPool's list).
var InfoKeys = []string{"success", "near_object", "grasp_success", "grasp_reward", "in_place_reward", "obj_to_target", "unscaled_reward", "task_id"}

// Observe implements envpool.Env.
func (e *Env) Observe(obs envpool.Obs, info []float32) {
	if e.states != nil {
		e.states.Observe(obs.F32)
	} else {
		e.observe(obs.F32)
	}
	in := e.info
	for i, v := range []float64{in.success, in.near, in.graspSuccess, in.graspReward, in.inPlace, in.objToTarget, in.reward, float64(e.t.index)} {
		info[i] = float32(v)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			info[i] = 0
		}
	}
}

// Close implements io.Closer: it frees the env's renderer, data and model copy.
func (e *Env) Close() error {
	e.frames.Close()
	e.d.Close()
	return e.m.Close()
}

// FrameSize is the side of the pictures Render draws.
const FrameSize = 480

// An env draws itself, with a system library that may be missing.
var (
	_ envpool.Renderer      = (*Env)(nil)
	_ envpool.RenderChecker = (*Env)(nil)
)

// CanRender reports whether Render can draw (envpool.RenderChecker): nil when
// libOSMesa and MuJoCo's renderer load, else an error naming the package to install.
func (e *Env) CanRender() error { return mujoco.LoadOSMesa() }

// Render draws the env's current state (envpool.Renderer) at FrameSize x FrameSize
// from MuJoCo's free camera framing the model (MetaWorld's Gymnasium renderer draws
// from it when no camera is named); the image is overwritten by the next call.
func (e *Env) Render() (image.Image, error) {
	e.frames.Size = FrameSize
	return e.frames.Draw(e.d, e.m.FreeView)
}

// RenderFPS is one picture per control step in simulated time (the spec's RenderFPS).
func (e *Env) RenderFPS() float64 { return e.t.spec.RenderFPS }
