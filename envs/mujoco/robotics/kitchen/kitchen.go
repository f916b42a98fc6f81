// Package kitchen is Gymnasium-Robotics' FrankaKitchen-v1 as EnvPool registers it: a
// Franka Panda arm (9 joints, position servos) in a kitchen with seven things to do:
// turn the bottom and top burner knobs, flip the light switch, slide the cabinet
// door, open the hinged cabinet and the microwave, and move the kettle. Actions are
// joint velocities in [-1, 1] (times 2, bounded per joint) that move the servos'
// targets from the last observed joint positions. The observation is EnvPool's fixed
// all-task schema, flattened: observation (59: the arm's noisy joint positions and
// velocities, the objects' noisy positions and velocities), then desired_goal:<task>
// and achieved_goal:<task> for all seven tasks. A task is complete once its joints
// are within BonusThreshold of its goal; each completion pays 1. The info arrays
// tasks_to_complete, step_task_completions and episode_task_completions are 7-value
// masks in the task order of TaskNames. See docs/design/robotics.md.
package kitchen

import (
	"embed"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot"
	"github.com/rlpool/rlpool/option"
)

// ID is the family's one task id.
const ID = "FrankaKitchen-v1"

// Family is the envs family name of the kitchen task.
const Family = "kitchen"

// TimeLimit is the task's max_episode_steps.
const TimeLimit = 280

// BonusThreshold is the distance of a task's joints from their goal below which the
// task counts as complete (the sources' BONUS_THRESH).
const BonusThreshold = 0.3

//go:embed assets/*.xml assets/kitchen_assets.tar.gz
var assets embed.FS

// goalTask is one of the kitchen's tasks: the qpos indices of its joints and their
// goal values.
type goalTask struct {
	name string
	qpos []int
	goal []float64
}

// goalTasks are the seven tasks in EnvPool's order (the masks' order).
var goalTasks = []goalTask{
	{"bottom burner", []int{11, 12}, []float64{-0.88, -0.01}},
	{"top burner", []int{15, 16}, []float64{-0.92, -0.01}},
	{"light switch", []int{17, 18}, []float64{-0.69, -0.05}},
	{"slide cabinet", []int{19}, []float64{0.37}},
	{"hinge cabinet", []int{20, 21}, []float64{0, 1.45}},
	{"microwave", []int{22}, []float64{-0.75}},
	{"kettle", []int{23, 24, 25, 26, 27, 28, 29}, []float64{-0.23, 0.75, 1.62, 0.99, 0, 0, -0.06}},
}

// TaskNames returns the seven task names in the masks' order.
func TaskNames() []string {
	names := make([]string, len(goalTasks))
	for i, t := range goalTasks {
		names[i] = t.name
	}
	return names
}

// initQpos is the state every episode starts from (the sources' init_qpos): the arm's
// nine joints, then the kitchen's 21 object coordinates.
var initQpos = []float64{
	1.48388023e-01, -1.76848573e00, 1.84390296e00, -2.47685760e00,
	2.60252026e-01, 7.12533105e-01, 1.59515394e00, 4.79267505e-02,
	3.71350919e-02, -2.66279850e-04, -5.18043486e-05, 3.12877220e-05,
	-4.51199853e-05, -3.90842156e-06, -4.22629655e-05, 6.28065475e-05,
	4.04984708e-05, 4.62730939e-04, -2.26906415e-04, -4.65501369e-04,
	-6.44129196e-03, -1.77048263e-03, 1.08009684e-03, -2.69397440e-01,
	3.50383255e-01, 1.61944683e00, 1.00618764e00, 4.06395120e-03,
	-6.62095997e-03, -2.68278933e-04,
}

// The sources' robot configuration (franka_config.xml): the arm's joints' position
// and velocity bounds (9 each), and the noise amplitudes of the observed coordinates,
// 29 each: the arm's 9 joints, then the objects' 20 velocity coordinates. The
// objects' 21 position coordinates take the position amplitudes from entry 8 on, as
// the sources index them.
var (
	posBound = [][2]float64{
		{-2.9, 2.9}, {-1.8, 1.8}, {-2.9, 2.9}, {-3.1, 0}, {-2.9, 2.9}, {0, 3.8}, {-2.9, 2.9}, {0, 0.04}, {0, 0.04},
	}
	velBound = [][2]float64{
		{-10, 10}, {-10, 10}, {-10, 10}, {-10, 10}, {-10, 10}, {-10, 10}, {-10, 10}, {-10, 10}, {-10, 10},
	}
	posNoise = []float64{
		0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.005,
		0.005, 0.0005, 0.0005, 0.0005, 0.0005, 0.0005, 0.0005, 0.005, 0.005, 0.005,
		0.1, 0.1, 0.1, 0.005, 0.005, 0.005, 0.1, 0.1, 0.1,
	}
	velNoise = []float64{
		0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.005,
		0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005,
		0.1, 0.1, 0.1, 0.005, 0.005, 0.005, 0.1, 0.1, 0.1,
	}
)

// Sizes of the observation.
const (
	robotDim   = 9  // the arm's joints
	objectQpos = 21 // the kitchen's position coordinates
	objectQvel = 20 // and velocity coordinates
	obsDim     = 2*robotDim + objectQpos + objectQvel
)

// Options are the task's options, with EnvPool's names and defaults.
type Options struct {
	TasksToComplete           []string `toml:"tasks_to_complete" help:"the tasks of the episode (bottom burner, top burner, light switch, slide cabinet, hinge cabinet, microwave, kettle)"`
	TerminateOnTasksCompleted bool     `toml:"terminate_on_tasks_completed" help:"end the episode once every task is complete"`
	RemoveTaskWhenCompleted   bool     `toml:"remove_task_when_completed" help:"a completed task pays once and leaves tasks_to_complete"`
	RobotNoiseRatio           float64  `toml:"robot_noise_ratio" range:"[0,inf)" help:"scale of the uniform noise on the arm's observed joints"`
	ObjectNoiseRatio          float64  `toml:"object_noise_ratio" range:"[0,inf)" help:"scale of the uniform noise on the objects' observed coordinates"`
	FrameSkip                 int      `toml:"frame_skip" range:"[1,inf)" help:"physics steps (0.002 s) per action"`
	mjrobot.ObsOptions
}

// InfoKeys are the task's info columns, the three masks of 7 values, then the fault
// code.
var InfoKeys = []string{"tasks_to_complete", "step_task_completions", "episode_task_completions"}

func init() {
	defaults := Options{TasksToComplete: TaskNames(), TerminateOnTasksCompleted: true, RemoveTaskWhenCompleted: true, RobotNoiseRatio: 0.01, ObjectNoiseRatio: 0.0005, FrameSkip: 40, ObsOptions: mjrobot.DefaultObs()}
	envs.Register(envs.Task{ID: ID, Family: Family, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		o := defaults
		o.TasksToComplete = slices.Clone(defaults.TasksToComplete)
		if err := envs.DecodeOptions(m, &o); err != nil {
			return envpool.Spec{}, nil, fmt.Errorf("%s: %w", ID, err)
		}
		return build(o, m)
	}})
}

// LoadModel compiles the kitchen with the Franka arm, their meshes and textures. Two
// edits are made as the files are read: the arm's collision and visual meshes, which
// share base names in folders of their own, are renamed collision_<name> and
// visual_<name> (MuJoCo's in-memory file system knows files by base name), and the
// wood texture, which the shipped files lack, becomes a flat wood colour (it only
// changes pictures).
func LoadModel() (*mujoco.Model, error) {
	files := map[string][]byte{}
	entries, err := assets.ReadDir("assets")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".xml") {
			continue
		}
		b, err := assets.ReadFile("assets/" + e.Name())
		if err != nil {
			return nil, err
		}
		doc := strings.NewReplacer(`file="collision/`, `file="collision_`, `file="visual/`, `file="visual_`,
			`file="wood1.png"`, `builtin="flat" rgb1="0.52 0.37 0.22" rgb2="0.52 0.37 0.22"`).Replace(string(b))
		files[e.Name()] = []byte(doc)
	}
	if err := mujoco.AddArchive(files, assets, "assets/kitchen_assets.tar.gz"); err != nil {
		return nil, err
	}
	return mujoco.LoadModelFiles("kitchen_env_model.xml", files)
}

// build checks the options, compiles (or reuses) the model and returns the spec and
// factory.
func build(o Options, table map[string]any) (envpool.Spec, envpool.Factory, error) {
	var mask [7]bool
	for _, name := range o.TasksToComplete {
		i := slices.Index(TaskNames(), name)
		if i < 0 {
			return envpool.Spec{}, nil, fmt.Errorf("%s: option tasks_to_complete: %q is not a task (tasks: %s)", ID, name, strings.Join(TaskNames(), ", "))
		}
		mask[i] = true
	}
	if err := mujoco.Load(); err != nil {
		return envpool.Spec{}, nil, err
	}
	m, err := mjrobot.CachedModel("kitchen", LoadModel)
	if err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("%s: %w", ID, err)
	}
	layout := []envpool.ObsField{{Name: envpool.GoalObservation, Size: obsDim}}
	for _, kind := range []string{envpool.GoalDesired, envpool.GoalAchieved} {
		for _, t := range goalTasks {
			layout = append(layout, envpool.ObsField{Name: kind + ":" + t.name, Size: len(t.qpos)})
		}
	}
	spec := mjrobot.Spec(ID, layout, robotDim, InfoKeys, []int{7, 7, 7}, m, o.FrameSkip, TimeLimit)
	spec.Options = option.Values(&o)
	t := &mjrobot.Task{
		Spec: spec, Model: m, FrameSkip: o.FrameSkip,
		NewLogic: func(s *mjrobot.Sim) (mjrobot.Logic, error) { return newKitchen(s, o, mask) },
		View: func(s *mjrobot.Sim) mujoco.View {
			return mujoco.View{Kind: mujoco.ViewFree, ID: -1, Lookat: [3]float64{-0.2, 0.5, 2.0}, Distance: 2.2, Azimuth: 70, Elevation: -35}
		},
	}
	if err := t.Observation(o.ObsOptions, table); err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("%s: %w", ID, err)
	}
	factory := func(_ int, seed int64) (envpool.Env, error) { return mjrobot.NewEnv(t, seed) }
	return t.Spec, factory, nil
}

// robotJoints are the arm's joints, the model's joints named robot:..., in model
// order: the sources observe these.
var robotJoints = []string{
	"robot:panda0_joint1", "robot:panda0_joint2", "robot:panda0_joint3", "robot:panda0_joint4",
	"robot:panda0_joint5", "robot:panda0_joint6", "robot:panda0_joint7",
	"robot:panda0_finger_joint1", "robot:panda0_finger_joint2",
}

// Kitchen is one env's kitchen logic: the episode's task masks and the observation it
// drew (with its noise) at the end of the last reset or step.
type Kitchen struct {
	o       Options
	initial [7]bool
	robotQ  []int // qpos addresses of the arm's joints (named robot:...)
	robotV  []int // and their qvel addresses

	// ToComplete, StepDone and EpisodeDone are the masks of the info.
	ToComplete, StepDone, EpisodeDone [7]bool
	// Obs is the observation entry of the last reset or step, noise included, and
	// lastQ the arm's noisy joint positions, from which actions move the servos.
	Obs   [obsDim]float64
	lastQ [robotDim]float64
}

func newKitchen(s *mjrobot.Sim, o Options, mask [7]bool) (*Kitchen, error) {
	k := &Kitchen{o: o, initial: mask}
	qadr, vadr := s.M.Int32s("jnt_qposadr"), s.M.Int32s("jnt_dofadr")
	for _, name := range robotJoints {
		j, err := s.M.ID(mujoco.ObjJoint, name)
		if err != nil {
			return nil, err
		}
		k.robotQ, k.robotV = append(k.robotQ, int(qadr[j])), append(k.robotV, int(vadr[j]))
	}
	if s.M.NQ != len(initQpos) {
		return nil, fmt.Errorf("the kitchen model has %d position coordinates, want %d", s.M.NQ, len(initQpos))
	}
	s.SetInitial(initQpos, make([]float64, s.M.NV))
	return k, nil
}

// Reset restores the tasks' masks and draws the first observation.
func (k *Kitchen) Reset(s *mjrobot.Sim) {
	k.ToComplete, k.StepDone, k.EpisodeDone = k.initial, [7]bool{}, [7]bool{}
	k.draw(s)
}

// Step moves each servo's target from the arm's last observed position by the
// action's velocity (2 a, within the joint's velocity bound) over the step's
// duration, within the joint's position bound; simulates; and pays 1 for each task
// to complete that is now within BonusThreshold of its goal. With
// terminate_on_tasks_completed the episode ends once every task of the episode has
// been completed.
func (k *Kitchen) Step(s *mjrobot.Sim, a []float32) (float64, bool) {
	dt := s.M.Timestep * float64(s.FrameSkip)
	for i := range robotDim {
		v := min(max(2*min(max(float64(a[i]), -1), 1), velBound[i][0]), velBound[i][1])
		s.D.Ctrl[i] = min(max(k.lastQ[i]+v*dt, posBound[i][0]), posBound[i][1])
	}
	s.Simulate()
	s.RNEPostConstraint()
	reward := 0.0
	k.StepDone = [7]bool{}
	for i := range goalTasks {
		if k.ToComplete[i] && Distance(s.D.Qpos, i) < BonusThreshold {
			k.StepDone[i], k.EpisodeDone[i] = true, true
			reward++
			if k.o.RemoveTaskWhenCompleted {
				k.ToComplete[i] = false
			}
		}
	}
	done := k.o.TerminateOnTasksCompleted
	for i, want := range k.initial {
		if want && !k.EpisodeDone[i] {
			done = false
		}
	}
	k.draw(s)
	return reward, done
}

// Distance is task i's distance from its goal in state qpos.
func Distance(qpos []float64, i int) float64 {
	t := goalTasks[i]
	sum := 0.0
	for j, at := range t.qpos {
		d := qpos[at] - t.goal[j]
		sum += d * d
	}
	return math.Sqrt(sum)
}

// draw takes the observation entry: the arm's joint positions and velocities plus
// noise uniform in ±robot_noise_ratio times their amplitudes, then the objects'
// coordinates plus noise in ±object_noise_ratio times theirs.
func (k *Kitchen) draw(s *mjrobot.Sim) {
	at := 0
	for i, adr := range k.robotQ {
		k.Obs[at+i] = s.D.Qpos[adr] + k.o.RobotNoiseRatio*posNoise[i]*s.Uniform(-1, 1)
	}
	at += robotDim
	for i, adr := range k.robotV {
		k.Obs[at+i] = s.D.Qvel[adr] + k.o.RobotNoiseRatio*velNoise[i]*s.Uniform(-1, 1)
	}
	at += robotDim
	copy(k.lastQ[:], k.Obs[:robotDim])
	for i := range objectQpos {
		k.Obs[at+i] = s.D.Qpos[robotDim+i] + k.o.ObjectNoiseRatio*posNoise[8+i]*s.Uniform(-1, 1)
	}
	at += objectQpos
	for i := range objectQvel {
		k.Obs[at+i] = s.D.Qvel[robotDim+i] + k.o.ObjectNoiseRatio*velNoise[9+i]*s.Uniform(-1, 1)
	}
}

// Observe writes the observation entry, then every task's goal and then every task's
// achieved joint values.
func (k *Kitchen) Observe(s *mjrobot.Sim, o []float32) {
	o = mjrobot.Put(o, k.Obs[:]...)
	for _, t := range goalTasks {
		o = mjrobot.Put(o, t.goal...)
	}
	for _, t := range goalTasks {
		for _, at := range t.qpos {
			o = mjrobot.Put(o, s.D.Qpos[at])
		}
	}
}

// Info writes the three masks.
func (k *Kitchen) Info(_ *mjrobot.Sim, info []float32) {
	for m, mask := range [...][7]bool{k.ToComplete, k.StepDone, k.EpisodeDone} {
		for i, b := range mask {
			info[7*m+i] = 0
			if b {
				info[7*m+i] = 1
			}
		}
	}
}
