package metaworld

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

// taskDef is one MetaWorld v3 task: the facts of its source (the model file, the hand's
// bounds and start, the object's and goal's default positions, the ranges of the
// reset's random vector, the success radius) and its behaviour.
type taskDef struct {
	name, xml string
	// handLow and handHigh bound the mocap body (mocap_low and mocap_high default to
	// the hand's bounds); handInit is where a reset puts the hand.
	handLow, handHigh, handInit vec3
	// objInit and goalInit are obj_init_pos and the goal before a reset randomises them.
	objInit, goalInit vec3
	// randLow and randHigh bound the reset's random vector of randDim values
	// (_random_reset_space): the object's part, then the goal's.
	randLow, randHigh [6]float64
	randDim           int
	// targetRadius is TARGET_RADIUS, the distance to the goal that counts as there.
	targetRadius float64
	behaviour
}

// behaviour is what a task does beyond the shared arm: what it observes, how a reset
// places its objects and goal, and its reward.
type behaviour struct {
	// objects adds the observed objects' positions and quaternions (_get_pos_objects,
	// _get_quat_objects).
	objects func(e *Env, b *objectsBuf)
	// reset places the objects and the goal after the hand reset (reset_model).
	reset func(e *Env)
	// reward is compute_reward of the state after a step with action s.a.
	reward func(e *Env, s *scene) stepInfo
	// mainGeom is the geom the pads must press on to count as touching the main
	// object (objGeom unless the task says).
	mainGeom string
	// goalSites are the sites a step puts at the goal (_target_site_config; "goal"
	// when nil, none for noSites).
	goalSites []string
}

// scene is what a reward reads of the state after a step: the action, the current 18
// observation values and the hand, tool centre and first object positions.
type scene struct {
	a              [4]float64
	o              [frameLen]float64
	hand, tcp, obj vec3
	open           float64 // the fingers' opening, o[3]
}

// taskFacts holds the tasks' numbers from MetaWorld's sources, one task a line.
//
//go:embed tasks.txt
var taskFacts string

// taskDefs is the task table, in EnvPool's registration order.
var taskDefs = parseTasks(taskFacts)

// parseTasks reads the task facts (see tasks.txt's header). The file is part of the
// package, so a malformed line is a programming error that panics at start.
func parseTasks(text string) []*taskDef {
	var defs []*taskDef
	for n, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 2+5*3+2*6+2 {
			panic(fmt.Sprintf("metaworld: tasks.txt:%d has %d fields", n+1, len(f)))
		}
		nums := make([]float64, len(f)-2)
		for i, s := range f[2:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				panic(fmt.Sprintf("metaworld: tasks.txt:%d: %v", n+1, err))
			}
			nums[i] = x
		}
		v := func(i int) vec3 { return vec3(nums[3*i : 3*i+3]) }
		d := &taskDef{name: f[0], xml: f[1], handLow: v(0), handHigh: v(1), handInit: v(2), objInit: v(3), goalInit: v(4),
			randLow: [6]float64(nums[15:21]), randHigh: [6]float64(nums[21:27]), randDim: int(nums[27]), targetRadius: nums[28]}
		defs = append(defs, d)
	}
	return defs
}

func init() {
	for _, d := range taskDefs {
		b, ok := behaviours[d.name]
		if !ok {
			panic("metaworld: no behaviour for " + d.name)
		}
		if b.mainGeom == "" {
			b.mainGeom = "objGeom"
		}
		if b.goalSites == nil {
			b.goalSites = []string{"goal"}
		}
		d.behaviour = b
	}
}
