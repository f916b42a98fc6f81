// Package hand is Gymnasium-Robotics' Shadow Dexterous Hand tasks as EnvPool registers
// them: HandReach (v3, and v0 routed to it) and the in-hand manipulation of a block,
// an egg and a pen (v1, and v0 routed to it) with their rotation variants and their
// boolean and continuous touch-sensor observations, each sparse and dense. The hand's
// 20 position actuators take actions in [-1, 1] over their control ranges; the
// observation is Gymnasium's dict of observation, achieved_goal and desired_goal,
// flattened in that order (Spec.ObsLayout).
package hand

import (
	"embed"
	"fmt"
	"strings"

	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv"
)

// Family is the envs family name of the hand tasks.
const Family = "hand"

//go:embed assets/*.xml assets/hand_assets.tar.gz
var assets embed.FS

// Options are a hand task's settings, under EnvPool's names; each id's table row gives
// their defaults.
type Options struct {
	FrameSkip          int     `toml:"frame_skip" range:"[1,1000]" help:"physics steps of 2 ms per env step"`
	RewardType         string  `toml:"reward_type" oneof:"sparse|dense" help:"sparse: -1 until the goal is reached, then 0; dense: minus the distance (manipulation: 10 x position + angle)"`
	RelativeControl    bool    `toml:"relative_control" help:"actions move the joints' targets from their current positions instead of setting them within the control ranges"`
	DistanceThreshold  float64 `toml:"distance_threshold" range:"(0,inf)" help:"distance (m) below which a position goal counts as reached"`
	RotationThreshold  float64 `toml:"rotation_threshold" range:"(0,inf)" help:"angle (rad) below which a rotation goal counts as reached"`
	TargetPosition     string  `toml:"target_position" oneof:"ignore|fixed|random" help:"the object's goal position: ignored, its start, or its start plus a draw from the target_position range"`
	TargetRotation     string  `toml:"target_rotation" oneof:"ignore|fixed|xyz|z|parallel" help:"the object's goal rotation: ignored, its start, any, about z, or about z after an axis-aligned turn"`
	TargetPositionLow0 float64 `toml:"target_position_low0" help:"the goal position's x offset range, low end (m)"`
	TargetPositionHi0  float64 `toml:"target_position_high0" help:"the goal position's x offset range, high end (m)"`
	TargetPositionLow1 float64 `toml:"target_position_low1" help:"the goal position's y offset range, low end (m)"`
	TargetPositionHi1  float64 `toml:"target_position_high1" help:"the goal position's y offset range, high end (m)"`
	TargetPositionLow2 float64 `toml:"target_position_low2" help:"the goal position's z offset range, low end (m)"`
	TargetPositionHi2  float64 `toml:"target_position_high2" help:"the goal position's z offset range, high end (m)"`
	RandomizePosition  bool    `toml:"randomize_initial_position" help:"add N(0, 5 mm) noise to the object's start"`
	RandomizeRotation  bool    `toml:"randomize_initial_rotation" help:"turn the object's start as target_rotation draws goals"`
	IgnoreZRotation    bool    `toml:"ignore_z_target_rotation" help:"ignore the rotation about z (the pen's axis) when comparing rotations"`
	TouchVisualisation string  `toml:"touch_visualisation" oneof:"off|always|on_touch" help:"how pictures show the touch sensors"`
	TouchGetObs        string  `toml:"touch_get_obs" oneof:"off|sensordata|boolean|log" help:"the touch sensors' readings appended to the observation: none, raw, touched (1/0) or log(1 + x)"`
}

// base are the options every hand id shares before its row's changes.
func base(change func(o *Options)) Options {
	o := Options{
		FrameSkip: 20, RewardType: "sparse", DistanceThreshold: 0.01, RotationThreshold: 0.1,
		TargetPosition: "ignore", TargetRotation: "ignore",
		TargetPositionLow0: -0.04, TargetPositionHi0: 0.04, TargetPositionLow1: -0.06, TargetPositionHi1: 0.02,
		TargetPositionLow2: 0, TargetPositionHi2: 0.06,
		TouchVisualisation: "off", TouchGetObs: "off",
	}
	change(&o)
	return o
}

// ID is one registered hand id: its model file, its kind and its default options.
type ID struct {
	Name     string // HandReach-v3, HandManipulateBlockRotateZ_BooleanTouchSensorsDense-v1, ...
	File     string
	Reach    bool // HandReach rather than a manipulation task
	MaxSteps int  // the time limit: 50 for Reach, 100 for manipulation
	Defaults Options
}

// object is a manipulated object's row of Gymnasium-Robotics' table.
type object struct {
	name              string
	threshold         float64
	randomizeRotation bool
	ignoreZ           bool
	variants          []variant
	touchVariants     []string
}

// variant is a rotation variant: its name suffix and its goal kinds.
type variant struct {
	name, position, rotation string
}

var objects = []object{
	{"Block", 0.01, true, false, []variant{
		{"", "random", "xyz"}, {"Full", "random", "xyz"}, {"RotateParallel", "ignore", "parallel"},
		{"RotateXYZ", "ignore", "xyz"}, {"RotateZ", "ignore", "z"},
	}, []string{"", "RotateParallel", "RotateXYZ", "RotateZ"}},
	{"Egg", 0.01, true, false, []variant{{"", "random", "xyz"}, {"Full", "random", "xyz"}, {"Rotate", "ignore", "xyz"}}, []string{"", "Rotate"}},
	{"Pen", 0.05, false, true, []variant{{"", "random", "xyz"}, {"Full", "random", "xyz"}, {"Rotate", "ignore", "xyz"}}, []string{"", "Rotate"}},
}

// IDs is the id table in EnvPool's order: the four Reach ids, then per object its
// variants (sparse, dense; v0, v1) and its touch variants (boolean, continuous;
// sparse, dense; v0, v1).
var IDs = buildIDs()

func buildIDs() []ID {
	var out []ID
	rewards := []struct{ suffix, kind string }{{"", "sparse"}, {"Dense", "dense"}}
	for _, r := range rewards {
		for _, v := range []string{"v0", "v3"} {
			out = append(out, ID{Name: "HandReach" + r.suffix + "-" + v, File: "reach.xml", Reach: true, MaxSteps: 50,
				Defaults: base(func(o *Options) { o.RewardType = r.kind })})
		}
	}
	for _, ob := range objects {
		file := "manipulate_" + strings.ToLower(ob.name)
		manipulate := func(name, file string, v variant, reward, touch string) ID {
			return ID{Name: name, File: file, MaxSteps: 100, Defaults: base(func(o *Options) {
				o.RewardType, o.DistanceThreshold = reward, ob.threshold
				o.TargetPosition, o.TargetRotation = v.position, v.rotation
				o.RandomizePosition, o.RandomizeRotation, o.IgnoreZRotation = true, ob.randomizeRotation, ob.ignoreZ
				if touch != "off" {
					o.TouchVisualisation, o.TouchGetObs = "on_touch", touch
				}
			})}
		}
		byName := map[string]variant{}
		for _, v := range ob.variants {
			byName[v.name] = v
			for _, r := range rewards {
				for _, ver := range []string{"v0", "v1"} {
					name := "HandManipulate" + ob.name + v.name + r.suffix + "-" + ver
					out = append(out, manipulate(name, file+".xml", v, r.kind, "off"))
				}
			}
		}
		for _, vn := range ob.touchVariants {
			for _, t := range []struct{ suffix, obs string }{{"_BooleanTouchSensors", "boolean"}, {"_ContinuousTouchSensors", "sensordata"}} {
				for _, r := range rewards {
					for _, ver := range []string{"v0", "v1"} {
						name := "HandManipulate" + ob.name + vn + t.suffix + r.suffix + "-" + ver
						out = append(out, manipulate(name, file+"_touch_sensors.xml", byName[vn], r.kind, t.obs))
					}
				}
			}
		}
	}
	return out
}

func init() {
	for _, id := range IDs {
		goalenv.Register(id.Name, Family, id.Defaults, func(o Options) (*goalenv.Config, error) { return id.config(o) })
	}
}

// touchPrefix and touchSitePrefix name the touch sensors and the sites they sense.
const (
	touchPrefix     = "robot0:TS_"
	touchSitePrefix = "robot0:T_"
)

// touchSensors returns the addresses in sensordata of the model's touch sensors and
// the ids of their sites, in the model's sensor order.
func touchSensors(m *mujoco.Model) (adr, sites []int, err error) {
	sensorAdr := m.Int32s("sensor_adr")
	for i := range m.Size("nsensor") {
		name := goalenv.Name(m, "name_sensoradr", i)
		rest, ok := strings.CutPrefix(name, touchPrefix)
		if !ok {
			continue
		}
		site, e := m.ID(mujoco.ObjSite, touchSitePrefix+rest)
		if e != nil {
			return nil, nil, e
		}
		adr, sites = append(adr, int(sensorAdr[i])), append(sites, site)
	}
	return adr, sites, nil
}

// config compiles (once) the id's model and makes its configuration under o.
func (id ID) config(o Options) (*goalenv.Config, error) {
	m, err := goalenv.LoadModel(assets, "assets", id.File, "hand_assets.tar.gz")
	if err != nil {
		return nil, fmt.Errorf("hand: %s: %w", id.Name, err)
	}
	c := &goalenv.Config{ID: id.Name, Model: m, FrameSkip: o.FrameSkip, ActDim: m.NU, MaxEpisodeSteps: id.MaxSteps}
	if id.Reach {
		c.ObsDim, c.GoalDim = 63, 15
		c.Rule = goalenv.DistanceRule{Threshold: o.DistanceThreshold, Dense: o.RewardType == "dense"}
		c.NewTask = func(s *goalenv.Sim) (goalenv.Task, error) { return newReach(s, o) }
		return c, nil
	}
	adr, _, err := touchSensors(m)
	if err != nil {
		return nil, fmt.Errorf("hand: %s: %w", id.Name, err)
	}
	c.ObsDim, c.GoalDim = 61, 7
	if o.TouchGetObs != "off" {
		c.ObsDim += len(adr)
	}
	c.Rule = RotationRule{
		Position: o.TargetPosition != "ignore", Rotation: o.TargetRotation != "ignore", IgnoreZ: o.IgnoreZRotation,
		DistanceThreshold: o.DistanceThreshold, RotationThreshold: o.RotationThreshold, Dense: o.RewardType == "dense",
	}
	c.NewTask = func(s *goalenv.Sim) (goalenv.Task, error) { return newManipulate(s, o) }
	return c, nil
}
