package dmc

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The stacker domain: the manipulator's planar arm stacks boxes onto a target (the
// suite's stacker.py). Ten physics steps of 0.001 s per action, 1000 actions. The file
// holds four boxes; a task with n boxes compiles it without box n..3, as the suite does.
//
// StackerStack2-v1, StackerStack4-v1 (2 and 4 boxes): reward box_is_close *
// hand_is_far, box_is_close = tolerance(the smallest distance from a box's site to the
// target's, [0, 0], margin 2 * box size (0.044), gaussian, value 0.1 at the margin),
// hand_is_far = tolerance(distance from the grasp site to the target, [0.1, inf],
// margin 0.01, gaussian, 0.1).
//
// Reset, repeated until no contact remains: the arm joints as in the manipulator
// domain (finger equal to thumb); the target body moved in the env's model copy to the
// height of a stack of k+1 boxes for k uniform in 0..n-1 (z = box size * (2k + 1)) and
// to x uniform in [-0.37, 0.37]; each box at x in [0.1, 0.3], z in [0, 0.7], angle in
// [0, 2pi].
//
// Observation: arm_pos (16), arm_vel (8) and touch (log1p of all 5 sensors, 5) as in
// the manipulator domain; hand_pos (the hand's x, z, quaternion w, y: 4); box_pos (each
// box's x, z, w, y: 4n); box_vel (each box's x, angle and z velocities, in that order:
// 3n); target_pos (the target's x, z: 2).
func init() {
	for _, n := range []int{2, 4} {
		register(&taskDef{domain: "stacker", task: fmt.Sprintf("stack_%d", n), frameSkip: 10,
			model: stackerModel(n), newLogic: newStacker(n)})
	}
}

// stackerMaxBoxes is the number of boxes in the suite's file.
const stackerMaxBoxes = 4

// stackerModel is the suite's make_model: the file without the boxes past n.
func stackerModel(n int) func(taskOptions) ([]byte, error) {
	return editedModel("stacker", func(doc []byte) ([]byte, error) {
		var removed []string
		for b := n; b < stackerMaxBoxes; b++ {
			removed = append(removed, fmt.Sprintf("box%d", b))
		}
		return removeNamedElements(doc, "body", removed...)
	})
}

// stackerHandFar is the reward's hand_is_far tolerance.
var stackerHandFar = Tol{Lower: 0.1, Upper: math.Inf(1), Margin: manipulatorClose, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}

// stacker is one env's logic of the stacker tasks.
type stacker struct {
	plainControl
	noTermination
	planarArm
	n int

	boxes                         []int   // bodies
	boxSites                      []int   // their sites
	boxJoints                     []Joint // per box: x, y (the angle), z, the suite's order
	target                        int     // body
	targetGeom, targetSite, grasp int
}

// newStacker makes the logic of a task with n boxes.
func newStacker(n int) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "stacker")
		var names, joints []string
		for b := range n {
			name := fmt.Sprintf("box%d", b)
			names = append(names, name)
			joints = append(joints, name+"_x", name+"_y", name+"_z")
		}
		s := &stacker{planarArm: newPlanarArm(p, r), n: n,
			boxes: r.ids(mujoco.ObjBody, names...), boxSites: r.ids(mujoco.ObjSite, names...), boxJoints: r.joints(joints...),
			targetSite: r.id(mujoco.ObjSite, "target"), grasp: r.id(mujoco.ObjSite, "grasp"),
			target: r.id(mujoco.ObjBody, "target"), targetGeom: r.id(mujoco.ObjGeom, "target")}
		return s, r.err()
	}
}

// boxSize is the target box's half size, the size of every box.
func (s *stacker) boxSize(p *Physics) float64 { return p.ModelRow("geom_size", s.targetGeom, 3)[0] }

// initEpisode draws the arm, the target's height and x, and the boxes until nothing
// touches.
func (s *stacker) initEpisode(p *Physics) error {
	return s.searchStart(p, func() error {
		height := float64(2*p.Intn(s.n) + 1)
		pos := p.ModelRow("body_pos", s.target, 3)
		pos[2] = s.boxSize(p) * height
		pos[0] = p.Uniform(-0.37, 0.37)
		for b := range s.n {
			x, angle, z := s.boxJoints[3*b], s.boxJoints[3*b+1], s.boxJoints[3*b+2]
			p.D.Qpos[x.Qpos] = p.Uniform(0.1, 0.3)
			p.D.Qpos[z.Qpos] = p.Uniform(0, 0.7)
			p.D.Qpos[angle.Qpos] = p.Uniform(0, 2*math.Pi)
		}
		return nil
	})
}

// reward is box_is_close (the nearest box to the target) times hand_is_far.
func (s *stacker) reward(p *Physics) float64 {
	size := s.boxSize(p)
	nearest := math.Inf(1)
	for _, b := range s.boxSites {
		nearest = min(nearest, siteDistance(p, b, s.targetSite))
	}
	boxClose := Tolerance(nearest, 0, 0, 2*size, Gaussian, DefaultValueAtMargin)
	return boxClose * stackerHandFar.Of(siteDistance(p, s.grasp, s.targetSite))
}

// layout is the arm's entries, hand_pos, box_pos, box_vel and target_pos.
func (s *stacker) layout(*Physics) []envpool.ObsField {
	return append(s.armLayout(), field("hand_pos", 4), field("box_pos", 4*s.n), field("box_vel", 3*s.n), field("target_pos", 2))
}

// observe writes the arm, the hand's and boxes' poses, the boxes' velocities and the
// target's position.
func (s *stacker) observe(p *Physics, o []float32) {
	o = s.putArm(p, o)
	o = s.putPose2D(p, o, s.hand, true)
	for _, b := range s.boxes {
		o = s.putPose2D(p, o, b, true)
	}
	for _, j := range s.boxJoints {
		o = put(o, p.D.Qvel[j.Qvel])
	}
	s.putPose2D(p, o, s.target, false)
}
