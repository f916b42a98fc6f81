// Package fetch is Gymnasium-Robotics' Fetch tasks as EnvPool registers them: Reach,
// Push, Slide and PickAndPlace, each sparse and dense, under their v4 ids and the v1
// ids EnvPool routes to the same tasks. A 7-joint arm on a mobile base moves its
// gripper through a mocap body; the observation is Gymnasium's dict of observation,
// achieved_goal and desired_goal, flattened in that order (Spec.ObsLayout).
package fetch

import (
	"embed"
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv"
)

// Family is the envs family name of the Fetch tasks.
const Family = "fetch"

// MaxEpisodeSteps is every Fetch task's time limit in env steps.
const MaxEpisodeSteps = 50

//go:embed assets/*.xml assets/fetch_assets.tar.gz
var assets embed.FS

// Options are a Fetch task's settings, under EnvPool's names; each task's table row
// gives their defaults.
type Options struct {
	FrameSkip          int     `toml:"frame_skip" range:"[1,1000]" help:"physics steps of 2 ms per env step"`
	RewardType         string  `toml:"reward_type" oneof:"sparse|dense" help:"sparse: -1 until the goal is reached, then 0; dense: minus the distance"`
	DistanceThreshold  float64 `toml:"distance_threshold" range:"(0,inf)" help:"distance (m) below which the goal counts as reached"`
	BlockGripper       bool    `toml:"block_gripper" help:"keep the gripper's fingers closed (the fourth action value does nothing)"`
	TargetInTheAir     bool    `toml:"target_in_the_air" help:"with an object: half of the goals lie up to 0.45 m above the table"`
	GripperExtraHeight float64 `toml:"gripper_extra_height" help:"height (m) of the gripper's start above its rest position"`
	TargetOffsetX      float64 `toml:"target_offset_x" help:"offset (m) of the goal region's centre from the gripper's start"`
	TargetOffsetY      float64 `toml:"target_offset_y" help:"offset (m) of the goal region's centre from the gripper's start"`
	TargetOffsetZ      float64 `toml:"target_offset_z" help:"offset (m) of the goal region's centre from the gripper's start"`
	ObjRange           float64 `toml:"obj_range" range:"[0,inf)" help:"half-width (m) of the square the object starts in, around the gripper"`
	TargetRange        float64 `toml:"target_range" range:"[0,inf)" help:"half-width (m) of the cube the goal is drawn from"`
	InitialSlide0      float64 `toml:"initial_slide0" help:"the base's initial x slide (m)"`
	InitialSlide1      float64 `toml:"initial_slide1" help:"the base's initial y slide (m)"`
	InitialSlide2      float64 `toml:"initial_slide2" help:"the base's initial z slide (m)"`
	InitialObjectX     float64 `toml:"initial_object_x" help:"the object's x before its random start (m)"`
	InitialObjectY     float64 `toml:"initial_object_y" help:"the object's y before its random start (m)"`
	InitialObjectZ     float64 `toml:"initial_object_z" help:"the object's height before its random start (m)"`
}

// Task is one row of the task table: a task's model file, whether it has an object,
// and its default options.
type Task struct {
	Name      string // FetchReach, FetchPush, FetchSlide, FetchPickAndPlace
	File      string // the model file in assets/
	HasObject bool
	Defaults  Options
}

// defaults are the options the tasks share, before their own changes.
func defaults(change func(o *Options)) Options {
	o := Options{
		FrameSkip: 20, RewardType: "sparse", DistanceThreshold: 0.05, BlockGripper: true,
		ObjRange: 0.15, TargetRange: 0.15, InitialSlide0: 0.4049, InitialSlide1: 0.48,
		InitialObjectX: 1.25, InitialObjectY: 0.53, InitialObjectZ: 0.4,
	}
	change(&o)
	return o
}

// Tasks is the task table, EnvPool's (and Gymnasium-Robotics' v4) settings.
var Tasks = []Task{
	{Name: "FetchReach", File: "reach.xml", Defaults: defaults(func(o *Options) {
		o.TargetInTheAir, o.GripperExtraHeight = true, 0.2
	})},
	{Name: "FetchPush", File: "push.xml", HasObject: true, Defaults: defaults(func(*Options) {})},
	{Name: "FetchPickAndPlace", File: "pick_and_place.xml", HasObject: true, Defaults: defaults(func(o *Options) {
		o.BlockGripper, o.TargetInTheAir, o.GripperExtraHeight = false, true, 0.2
	})},
	{Name: "FetchSlide", File: "slide.xml", HasObject: true, Defaults: defaults(func(o *Options) {
		o.GripperExtraHeight, o.TargetOffsetX, o.ObjRange, o.TargetRange = -0.02, 0.4, 0.1, 0.3
		o.InitialObjectX, o.InitialObjectY, o.InitialObjectZ = 1.7, 1.1, 0.41
	})},
}

func init() {
	for _, t := range Tasks {
		for _, dense := range []bool{false, true} {
			o, suffix := t.Defaults, ""
			if dense {
				o.RewardType, suffix = "dense", "Dense"
			}
			for _, v := range []string{"v1", "v4"} {
				id := t.Name + suffix + "-" + v
				goalenv.Register(id, Family, o, func(o Options) (*goalenv.Config, error) { return t.config(id, o) })
			}
		}
	}
}

// IDs returns the registered ids in table order: each task sparse then dense, v1 then
// v4.
func IDs() []string {
	var ids []string
	for _, t := range Tasks {
		for _, suffix := range []string{"", "Dense"} {
			for _, v := range []string{"v1", "v4"} {
				ids = append(ids, t.Name+suffix+"-"+v)
			}
		}
	}
	return ids
}

// config compiles (once) the task's model and makes its configuration under o.
func (t Task) config(id string, o Options) (*goalenv.Config, error) {
	m, err := goalenv.LoadModel(assets, "assets", t.File, "fetch_assets.tar.gz")
	if err != nil {
		return nil, fmt.Errorf("fetch: %s: %w", id, err)
	}
	obsDim := 10
	if t.HasObject {
		obsDim = 25
	}
	return &goalenv.Config{
		ID: id, Model: m, FrameSkip: o.FrameSkip,
		ObsDim: obsDim, GoalDim: 3, ActDim: 4, MaxEpisodeSteps: MaxEpisodeSteps,
		Rule:    goalenv.DistanceRule{Threshold: o.DistanceThreshold, Dense: o.RewardType == "dense"},
		NewTask: func(s *goalenv.Sim) (goalenv.Task, error) { return newArm(s, o, t.HasObject) },
	}, nil
}

// arm is one env's Fetch task.
type arm struct {
	o         Options
	hasObject bool

	grip, object, target     int // site ids (object: -1 without one)
	objJoint, lFinger, rFing goalenv.Joint

	initGrip     [3]float64 // the gripper's position after the setup
	heightOffset float64    // the object's height on the table after the setup
	act          []float64  // the mocap action: position change, quaternion change, fingers
	qpos, qvel   []float64  // the robot's joints, scratch
}

// newArm resolves the model's names and runs the setup (_env_setup): the base's and
// the object's initial positions, the mocap weld made exact, the gripper moved above
// the table by its mocap body over ten env steps; it records where the gripper and the
// object end up, which goals and object starts are drawn around.
func newArm(s *goalenv.Sim, o Options, hasObject bool) (*arm, error) {
	a := &arm{o: o, hasObject: hasObject, object: -1, act: make([]float64, 7+s.M.NU)}
	var err error
	site := func(name string) int {
		id, e := s.Site(name)
		err = firstErr(err, e)
		return id
	}
	joint := func(name string) goalenv.Joint {
		j, e := s.Joint(name)
		err = firstErr(err, e)
		return j
	}
	a.grip, a.target = site("robot0:grip"), site("target0")
	a.lFinger, a.rFing = joint("robot0:l_gripper_finger_joint"), joint("robot0:r_gripper_finger_joint")
	slides := [3]goalenv.Joint{joint("robot0:slide0"), joint("robot0:slide1"), joint("robot0:slide2")}
	if hasObject {
		a.object, a.objJoint = site("object0"), joint("object0:joint")
	}
	if err != nil {
		return nil, err
	}
	init := [3]float64{o.InitialSlide0, o.InitialSlide1, o.InitialSlide2}
	for i, j := range slides {
		s.Qpos(j)[0] = init[i]
	}
	if hasObject {
		copy(s.Qpos(a.objJoint), []float64{o.InitialObjectX, o.InitialObjectY, o.InitialObjectZ, 1, 0, 0, 0})
	}
	if err := s.ResetMocapWelds(); err != nil {
		return nil, err
	}
	if err := s.D.Forward(); err != nil {
		return nil, err
	}
	g := s.SitePos(a.grip)
	target := [3]float64{g[0] - 0.498, g[1] + 0.005, g[2] - 0.431 + o.GripperExtraHeight}
	if err := s.SetMocapPose("robot0:mocap", target, goalenv.Quat{1, 0, 1, 0}); err != nil {
		return nil, err
	}
	for range 10 {
		if err := s.Simulate(); err != nil {
			return nil, err
		}
	}
	a.initGrip = s.SitePos(a.grip)
	if hasObject {
		a.heightOffset = s.SitePos(a.object)[2]
	}
	return a, nil
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Reset draws the object's start (a point of the square of half-width obj_range
// around the gripper at least 0.1 m from it) and the goal: the gripper's start plus
// the target offset plus a uniform draw from the cube of half-width target_range; with
// an object the goal lies on the table, or with target_in_the_air half the time up to
// 0.45 m above it.
func (a *arm) Reset(s *goalenv.Sim, goal []float64) (bool, error) {
	if a.hasObject {
		x, y := a.initGrip[0], a.initGrip[1]
		for math.Hypot(x-a.initGrip[0], y-a.initGrip[1]) < 0.1 {
			x = a.initGrip[0] + s.Uniform(-a.o.ObjRange, a.o.ObjRange)
			y = a.initGrip[1] + s.Uniform(-a.o.ObjRange, a.o.ObjRange)
		}
		q := s.Qpos(a.objJoint)
		q[0], q[1] = x, y
		if err := s.D.Forward(); err != nil {
			return false, err
		}
	}
	off := [3]float64{a.o.TargetOffsetX, a.o.TargetOffsetY, a.o.TargetOffsetZ}
	for i := range 3 {
		goal[i] = a.initGrip[i] + s.Uniform(-a.o.TargetRange, a.o.TargetRange) + off[i]
	}
	if a.hasObject {
		goal[2] = a.heightOffset
		if a.o.TargetInTheAir && s.Uniform(0, 1) < 0.5 {
			goal[2] += s.Uniform(0, 0.45)
		}
	}
	return true, nil
}

// Act moves the gripper's mocap body by 5 cm per unit of the first three action
// values, keeps its orientation, drives the fingers with the fourth (unless
// block_gripper), advances one env step, and with block_gripper puts the fingers back
// closed.
func (a *arm) Act(s *goalenv.Sim, action []float32) error {
	clip := func(i int) float64 { return max(-1, min(1, float64(action[i]))) }
	fingers := 0.0
	if !a.o.BlockGripper {
		fingers = clip(3)
	}
	copy(a.act, []float64{clip(0) * 0.05, clip(1) * 0.05, clip(2) * 0.05, 1, 0, 1, 0})
	for i := 7; i < len(a.act); i++ {
		a.act[i] = fingers
	}
	if err := s.MocapAction(a.act); err != nil {
		return err
	}
	if err := s.Simulate(); err != nil {
		return err
	}
	if !a.o.BlockGripper {
		return nil
	}
	s.Qpos(a.lFinger)[0], s.Qpos(a.rFing)[0] = 0, 0
	return s.D.Forward()
}

// Achieved is the object's position, or the gripper's without an object.
func (a *arm) Achieved(s *goalenv.Sim, dst []float64) {
	site := a.grip
	if a.hasObject {
		site = a.object
	}
	p := s.SitePos(site)
	copy(dst, p[:])
}

// Observe writes the gripper's position; with an object, the object's position, its
// position relative to the gripper, the fingers' positions, the object's Euler angles,
// its linear velocity relative to the gripper's and its angular velocity; then the
// gripper's linear velocity and the fingers' velocities (velocities times the env
// step's length, as Gymnasium-Robotics scales them).
func (a *arm) Observe(s *goalenv.Sim, _ []float64, o []float32) error {
	dt := s.Dt()
	gp := s.SitePos(a.grip)
	gv, err := s.SiteVel(a.grip, false)
	a.qpos, a.qvel = s.RobotObs(a.qpos[:0], a.qvel[:0])
	nq, nv := len(a.qpos), len(a.qvel)
	o = put(o, gp[:]...)
	if a.hasObject {
		op := s.SitePos(a.object)
		rot := goalenv.MatToEuler(s.SiteMat(a.object))
		ov, e1 := s.SiteVel(a.object, false)
		ow, e2 := s.SiteVel(a.object, true)
		err = firstErr(err, firstErr(e1, e2))
		o = put(o, op[:]...)
		o = put(o, op[0]-gp[0], op[1]-gp[1], op[2]-gp[2])
		o = put(o, a.qpos[nq-2:]...)
		o = put(o, rot[:]...)
		o = put(o, (ov[0]-gv[0])*dt, (ov[1]-gv[1])*dt, (ov[2]-gv[2])*dt)
		o = put(o, ow[0]*dt, ow[1]*dt, ow[2]*dt)
	} else {
		o = put(o, a.qpos[nq-2:]...)
	}
	o = put(o, gv[0]*dt, gv[1]*dt, gv[2]*dt)
	put(o, a.qvel[nv-2]*dt, a.qvel[nv-1]*dt)
	return err
}

// put writes float64 values as float32 and returns the rest of dst.
func put(dst []float32, src ...float64) []float32 {
	for i, v := range src {
		dst[i] = float32(v)
	}
	return dst[len(src):]
}

// RenderSetup moves the target marker to the goal and looks at the table as
// Gymnasium-Robotics' Fetch camera does.
func (a *arm) RenderSetup(s *goalenv.Sim, goal []float64) (mujoco.View, error) {
	pos := s.M.Float64s("site_pos")
	xpos := s.SitePos(a.target)
	for i := range 3 {
		pos[3*a.target+i] = goal[i] - (xpos[i] - pos[3*a.target+i])
	}
	v := mujoco.View{Kind: mujoco.ViewFree, ID: -1, Lookat: [3]float64{1.3, 0.75, 0.55}, Distance: 2.5, Azimuth: 132, Elevation: -14}
	return v, s.D.Forward()
}
