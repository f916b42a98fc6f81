package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The manipulator domain: a planar four-link arm with a two-finger hand that brings a
// prop (a ball or a peg) to a target, or inserts it into a receptacle (a cup or a slot)
// (the suite's manipulator.py). Ten physics steps of 0.001 s per action, 1000 actions.
// Each task compiles the suite's file without the props it does not use, as the suite
// does: ball tasks keep ball and target_ball (and cup to insert), peg tasks keep peg and
// target_peg (and slot to insert).
//
// ManipulatorBringBall-v1, ManipulatorInsertBall-v1: reward close(distance from the
// ball's site to target_ball's), close(d) being tolerance(d, [0, 0.01], margin 0.02,
// gaussian, value 0.1 at the margin).
// ManipulatorBringPeg-v1, ManipulatorInsertPeg-v1: reward max(bringing, grasping/3),
// bringing the mean of close(peg to target_peg) and close(peg_tip to target_peg_tip),
// grasping the mean of close(peg_grasp to the hand's grasp site) and close(peg_pinch to
// the hand's pinch site).
//
// Reset, repeated until no contact remains: the arm joints uniform (arm_root, which is
// unlimited, in [-pi, pi], the others in their ranges), the finger set equal to the
// thumb; the target's body moved in the env's model copy to x in [-0.4, 0.4], z in
// [0.1, 0.4], turned about y by an angle uniform in [-pi, pi] (insert tasks: in
// [-pi/3, pi/3], with the receptacle moved and turned the same); the prop placed with
// probability 0.1 in the hand (at the grasp site, along the hand), 0.1 at the target,
// else uniformly (x in [-0.5, 0.5], z in [0, 0.7], angle in [0, 2pi], x velocity in
// [-5, 5]).
//
// Observation: arm_pos (sin and cos of the 8 arm and hand joints, pairwise, 16),
// arm_vel (their velocities, 8), touch (log1p of the 5 touch sensors, 5), hand_pos,
// object_pos and target_pos (each body's x, z and the w, y of its orientation
// quaternion, 4 each) and object_vel (the prop's x, z and angle velocities, 3).
func init() {
	for _, c := range []struct {
		task        string
		peg, insert bool
	}{{"bring_ball", false, false}, {"bring_peg", true, false}, {"insert_ball", false, true}, {"insert_peg", true, true}} {
		register(&taskDef{domain: "manipulator", task: c.task, frameSkip: 10,
			model: manipulatorModel(c.peg, c.insert), newLogic: newManipulator(c.peg, c.insert)})
	}
}

// The suite's manipulator constants: the distance that counts as close, and the
// probabilities of the prop starting in the hand and at the target.
const (
	manipulatorClose     = 0.01
	manipulatorPInHand   = 0.1
	manipulatorPInTarget = 0.1
)

// manipulatorModel is the suite's make_model: the file without the unused props.
func manipulatorModel(peg, insert bool) func(taskOptions) ([]byte, error) {
	return editedModel("manipulator", func(doc []byte) ([]byte, error) {
		keep := map[string]bool{"ball": !peg, "target_ball": !peg, "cup": !peg && insert,
			"peg": peg, "target_peg": peg, "slot": peg && insert}
		var removed []string
		for _, prop := range []string{"ball", "target_ball", "cup", "peg", "target_peg", "slot"} {
			if !keep[prop] {
				removed = append(removed, prop)
			}
		}
		return removeNamedElements(doc, "body", removed...)
	})
}

// planarArm is what the manipulator and stacker domains share: the arm's joints, its
// hand's body, the touch sensors, the start search and the observations built from
// them.
type planarArm struct {
	domain        string
	joints        []Joint // the suite's _ARM_JOINTS order
	jointIDs      []int
	finger, thumb Joint
	hand          int
	touch         []Sensor
	xquat         []float64
}

// planarArmJoints is the suite's _ARM_JOINTS.
var planarArmJoints = []string{"arm_root", "arm_shoulder", "arm_elbow", "arm_wrist", "finger", "fingertip", "thumb", "thumbtip"}

// newPlanarArm resolves the arm's names with the domain's resolver.
func newPlanarArm(p *Physics, r *resolver) planarArm {
	a := planarArm{domain: r.domain, xquat: p.D.Float64s("xquat"),
		joints: r.joints(planarArmJoints...), jointIDs: r.ids(mujoco.ObjJoint, planarArmJoints...), hand: r.id(mujoco.ObjBody, "hand"),
		touch: r.sensors("palm_touch", "finger_touch", "thumb_touch", "fingertip_touch", "thumbtip_touch")}
	a.finger, a.thumb = a.joints[4], a.joints[6]
	return a
}

// randomizeArm draws the arm's joint angles (limited joints in their range, others in
// [-pi, pi]) and sets the finger equal to the thumb.
func (a *planarArm) randomizeArm(p *Physics) {
	limited, ranges := p.M.Bytes("jnt_limited"), p.M.Float64s("jnt_range")
	for i, j := range a.joints {
		lo, hi := -math.Pi, math.Pi
		if id := a.jointIDs[i]; limited[id] != 0 {
			lo, hi = ranges[2*id], ranges[2*id+1]
		}
		p.D.Qpos[j.Qpos] = p.Uniform(lo, hi)
	}
	p.D.Qpos[a.finger.Qpos] = p.D.Qpos[a.thumb.Qpos]
}

// searchStart draws the arm and then calls place (which sets the rest of a candidate
// initial state), until nothing touches.
func (a *planarArm) searchStart(p *Physics, place func() error) error {
	return startWithoutContacts(p, a.domain, maxStartTries, func() error {
		a.randomizeArm(p)
		return place()
	})
}

// armLayout is the observation's first entries: arm_pos, arm_vel, touch.
func (a *planarArm) armLayout() []envpool.ObsField {
	return []envpool.ObsField{field("arm_pos", 2*len(a.joints)), field("arm_vel", len(a.joints)), field("touch", len(a.touch))}
}

// putArm writes arm_pos (sin, cos of each joint), arm_vel and touch (log1p).
func (a *planarArm) putArm(p *Physics, o []float32) []float32 {
	for _, j := range a.joints {
		q := p.D.Qpos[j.Qpos]
		o = put(o, math.Sin(q), math.Cos(q))
	}
	for _, j := range a.joints {
		o = put(o, p.D.Qvel[j.Qvel])
	}
	return putTouch(p, o, a.touch)
}

// putPose2D writes the suite's body_2d_pose of a body: its x and z, then (with
// orientation) the w and y of its orientation quaternion.
func (a *planarArm) putPose2D(p *Physics, o []float32, body int, orientation bool) []float32 {
	pos := vec3(p.Xpos, body)
	o = put(o, pos[0], pos[2])
	if orientation {
		o = put(o, a.xquat[4*body], a.xquat[4*body+2])
	}
	return o
}

// manipulatorCloseTol is the suite's _is_close.
var manipulatorCloseTol = Tol{Lower: 0, Upper: manipulatorClose, Margin: 2 * manipulatorClose, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}

// manipulator is one env's logic of the manipulator tasks.
type manipulator struct {
	plainControl
	noTermination
	planarArm
	peg, insert bool

	object, target, receptacle int     // bodies (receptacle -1 unless inserting)
	objectJoints               []Joint // the prop's x, z and angle joints
	grasp                      int     // the hand's grasp site

	// the reward's sites: ball tasks use propSite and targetSite; peg tasks also the rest
	propSite, targetSite      int
	pegGrasp, pinch, pegPinch int
	pegTip, targetPegTip      int
}

// newManipulator makes the logic of a task with a peg (else a ball) to bring or
// insert.
func newManipulator(peg, insert bool) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "manipulator")
		prop, target, receptacle := "ball", "target_ball", "cup"
		if peg {
			prop, target, receptacle = "peg", "target_peg", "slot"
		}
		m := &manipulator{planarArm: newPlanarArm(p, r), peg: peg, insert: insert,
			object: r.id(mujoco.ObjBody, prop), target: r.id(mujoco.ObjBody, target), receptacle: -1,
			objectJoints: r.joints(prop+"_x", prop+"_z", prop+"_y"),
			grasp:        r.id(mujoco.ObjSite, "grasp"), propSite: r.id(mujoco.ObjSite, prop), targetSite: r.id(mujoco.ObjSite, target)}
		if insert {
			m.receptacle = r.id(mujoco.ObjBody, receptacle)
		}
		if peg {
			m.pegGrasp, m.pinch, m.pegPinch = r.id(mujoco.ObjSite, "peg_grasp"), r.id(mujoco.ObjSite, "pinch"), r.id(mujoco.ObjSite, "peg_pinch")
			m.pegTip, m.targetPegTip = r.id(mujoco.ObjSite, "peg_tip"), r.id(mujoco.ObjSite, "target_peg_tip")
		}
		return m, r.err()
	}
}

// placeBody moves a body of the env's model copy to x, z and turns it about y by angle
// (the suite sets body_pos x, z and body_quat w, y).
func placeBody(p *Physics, body int, x, z, angle float64) {
	pos, quat := p.ModelRow("body_pos", body, 3), p.ModelRow("body_quat", body, 4)
	pos[0], pos[2] = x, z
	quat[0], quat[2] = math.Cos(angle/2), math.Sin(angle/2)
}

// initEpisode draws the arm, the target (and receptacle) and the prop until nothing
// touches.
func (m *manipulator) initEpisode(p *Physics) error {
	return m.searchStart(p, func() error {
		tx, tz := p.Uniform(-0.4, 0.4), p.Uniform(0.1, 0.4)
		var angle float64
		if m.insert {
			angle = p.Uniform(-math.Pi/3, math.Pi/3)
			placeBody(p, m.receptacle, tx, tz, angle)
		} else {
			angle = p.Uniform(-math.Pi, math.Pi)
		}
		placeBody(p, m.target, tx, tz, angle)
		var ox, oz, oa float64
		switch u := p.Uniform(0, 1); {
		case u < manipulatorPInHand:
			if err := p.forwardPassive(); err != nil {
				return err
			}
			g, mat := vec3(p.SiteXpos, m.grasp), mat3(p.SiteXmat, m.grasp)
			ox, oz = g[0], g[2]
			oa = math.Pi - math.Atan2(mat[6], mat[0])
		case u < manipulatorPInHand+manipulatorPInTarget:
			ox, oz, oa = tx, tz, angle
		default:
			ox, oz, oa = p.Uniform(-0.5, 0.5), p.Uniform(0, 0.7), p.Uniform(0, 2*math.Pi)
			p.D.Qvel[m.objectJoints[0].Qvel] = p.Uniform(-5, 5)
		}
		p.D.Qpos[m.objectJoints[0].Qpos] = ox
		p.D.Qpos[m.objectJoints[1].Qpos] = oz
		p.D.Qpos[m.objectJoints[2].Qpos] = oa
		return nil
	})
}

// reward is close(prop, target) for a ball; for a peg the better of bringing it and a
// third of grasping it.
func (m *manipulator) reward(p *Physics) float64 {
	isClose := func(s1, s2 int) float64 { return manipulatorCloseTol.Of(siteDistance(p, s1, s2)) }
	if !m.peg {
		return isClose(m.propSite, m.targetSite)
	}
	grasping := (isClose(m.pegGrasp, m.grasp) + isClose(m.pegPinch, m.pinch)) / 2
	bringing := (isClose(m.propSite, m.targetSite) + isClose(m.targetPegTip, m.pegTip)) / 2
	return max(bringing, grasping/3)
}

// layout is the arm's entries, hand_pos, object_pos, object_vel and target_pos.
func (m *manipulator) layout(*Physics) []envpool.ObsField {
	return append(m.armLayout(), field("hand_pos", 4), field("object_pos", 4), field("object_vel", 3), field("target_pos", 4))
}

// observe writes the arm, the hand's, prop's and target's poses and the prop's
// velocities.
func (m *manipulator) observe(p *Physics, o []float32) {
	o = m.putArm(p, o)
	o = m.putPose2D(p, o, m.hand, true)
	o = m.putPose2D(p, o, m.object, true)
	for _, j := range m.objectJoints {
		o = put(o, p.D.Qvel[j.Qvel])
	}
	m.putPose2D(p, o, m.target, true)
}
