package dmc

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The dog domain: a Pharaoh-hound skeleton of 73 hinge joints on a free root, driven by
// 38 filtered general actuators (the suite's dog.py). Three physics steps of 0.005 s
// per action (control timestep 0.015 s), 1000 actions (15 s). Each task compiles the
// suite's file edited as make_model edits it: the floor's half size is set to the task's
// speed times 15 s (stand and walk 15, trot 45, run 135; fetch keeps 10), and every task
// but fetch removes the ball, the target, the ball and head cameras and the four walls.
//
// Reward: the product of the stand factors, torso = tolerance(the torso's height,
// [h_t, inf], margin h_t, gaussian, 0.1), pelvis likewise with h_p (h_t, h_p: 0.9 of the
// torso's and pelvis' heights in the model's default pose), upright = tolerance(the
// world z component of the skull's, torso's and pelvis' z axes, each, [cos 30deg, inf],
// margin 1 + cos 30deg, linear, 0) and touch = tolerance(the sum of the four touch
// sensors, [W, inf], margin W, linear, 0.9) (W: the torso subtree's weight).
// DogStand-v1 is that product. DogWalk-v1, DogTrot-v1, DogRun-v1 (speed v = 1, 3, 9)
// multiply it by (4 forward + 1) / 5, forward = tolerance(the centre-of-mass velocity's
// component along the torso's x axis, [v, 2v], margin max(1, v), linear, 0).
// DogFetch-v1 multiplies it by reach = (6 tolerance(the ball's mean distance to the two
// bite sites, [0, the upper bite's radius], margin 2, reciprocal, 0.1) + 1) / 7 (1 once
// the ball is within twice the target's radius of the target) and by fetch =
// (tolerance(the ball's distance to the target, [0, the target's radius], margin the
// floor's half size, reciprocal, 0.1) + 1) / 2.
//
// Reset: the default pose with a heading uniform in [0, 2pi), the root's x, y and yaw
// velocities 2 times standard normals, and each actuator's activation uniform in its
// control range. Fetch throws the ball from 0.75 of the floor's half size at a bearing
// uniform in [0, 2pi), 5 cm up, towards the centre (a direction with 0.05 standard
// normals added per horizontal axis) at a horizontal speed uniform in [0, 5], with the
// vertical speed sqrt(2 g h) of a rise to h uniform in [0, 3]. No termination.
//
// Observation: joint_angles (the hinges' qpos, 73), joint_velocites (the suite's
// spelling; the hinges' qvel, 73), torso_pelvis_height (2), z_projection (the skull's,
// torso's and pelvis' xmat rows z, 9), torso_com_velocity (sensor torso_linvel in the
// torso's frame, 3), inertial_sensors (accelerometer, velocimeter, gyro, 9),
// foot_forces (the force sensors foot_L, foot_R, hand_L, hand_R, 12), touch_sensors
// (palm_L, palm_R, sole_L, sole_R, 4), actuator_state (act, 38). Fetch adds ball_state
// (the ball's position and linear velocity relative to the head site, in its frame, 6)
// and target_position (the target relative to the head site, in its frame, 3).
func init() {
	register(
		dogTask("stand", 0, false),
		dogTask("walk", dogWalkSpeed, false),
		dogTask("trot", dogTrotSpeed, false),
		dogTask("run", dogRunSpeed, false),
		dogTask("fetch", 0, true),
	)
}

// The suite's dog constants: the time limit in seconds (the floors are sized by it),
// the speeds, the upright band's angle, the standing height as a fraction of the
// default pose's, and fetch's ball throw and floor.
const (
	dogTimeLimit           = 15
	dogWalkSpeed           = 1
	dogTrotSpeed           = 3
	dogRunSpeed            = 9
	dogMaxUprightDeg       = 30
	dogStandHeightFraction = 0.9
	dogFetchFloor          = 10
	dogBiteMargin          = 2
)

// dogTask is the table row of a dog task: stand (speed 0, no ball), the moving tasks
// at their speed, or fetch.
func dogTask(task string, speed float64, fetch bool) *taskDef {
	floor := dogTimeLimit * max(speed, dogWalkSpeed)
	if fetch {
		floor = dogFetchFloor
	}
	return &taskDef{domain: "dog", task: task, frameSkip: 3, model: dogModel(floor, !fetch), newLogic: newDog(speed, fetch)}
}

// dogModel is the suite's make_model: the floor's half size, and without the ball its
// body, the target, the cameras that look at them and the walls removed.
func dogModel(floorSize float64, removeBall bool) func(taskOptions) ([]byte, error) {
	return editedModel("dog", func(doc []byte) ([]byte, error) {
		doc, err := setElementAttr(doc, "geom", "floor", "size", fmt.Sprintf("%g %g .1", floorSize, floorSize))
		if err != nil || !removeBall {
			return doc, err
		}
		for _, e := range []struct{ tag, name string }{
			{"body", "ball"}, {"geom", "target"}, {"camera", "ball"}, {"camera", "head"},
			{"geom", "wall_px"}, {"geom", "wall_nx"}, {"geom", "wall_py"}, {"geom", "wall_ny"},
		} {
			if doc, err = removeNamedElements(doc, e.tag, e.name); err != nil {
				return nil, err
			}
		}
		return doc, nil
	})
}

// dog is one env's logic of the dog tasks.
type dog struct {
	plainControl
	noTermination
	speed float64 // 0: stand (and fetch)
	fetch bool

	torso, pelvis, skull int // bodies
	root                 Joint
	hinges               []Joint
	act, ctrlRange       []float64
	torsoLinvel          Sensor
	inertial, forces     []Sensor
	touch                []Sensor

	// standHeight is 0.9 of the torso's and pelvis' heights in the default pose, and
	// bodyWeight the torso subtree's weight: the suite measures both at every reset.
	standHeight [2]float64
	bodyWeight  float64

	// fetch
	head, upperBite, lowerBite int // sites
	ball, target, floor        int // geoms
	ballRoot                   Joint
	cvel                       []float64
}

// newDog makes the logic of a dog task (speed 0 and not fetch: stand).
func newDog(speed float64, fetch bool) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "dog")
		d := &dog{speed: speed, fetch: fetch, act: p.D.Float64s("act"), ctrlRange: p.M.CtrlRange,
			torso: r.id(mujoco.ObjBody, "torso"), pelvis: r.id(mujoco.ObjBody, "pelvis"), skull: r.id(mujoco.ObjBody, "skull"),
			root: r.joint("root"), torsoLinvel: r.sensor("torso_linvel"),
			inertial: r.sensors("accelerometer", "velocimeter", "gyro"),
			forces:   r.sensors("foot_L", "foot_R", "hand_L", "hand_R"),
			touch:    r.sensors("palm_L", "palm_R", "sole_L", "sole_R"),
		}
		if fetch {
			d.head, d.upperBite, d.lowerBite = r.id(mujoco.ObjSite, "head"), r.id(mujoco.ObjSite, "upper_bite"), r.id(mujoco.ObjSite, "lower_bite")
			d.ball, d.target, d.floor = r.id(mujoco.ObjGeom, "ball"), r.id(mujoco.ObjGeom, "target"), r.id(mujoco.ObjGeom, "floor")
			d.ballRoot, d.cvel = r.joint("ball_root"), p.D.Float64s("cvel")
		}
		if err := r.err(); err != nil {
			return nil, err
		}
		if len(d.act) != p.M.NU {
			return nil, fmt.Errorf("dmc: dog: %d actuator states for %d actuators; the task draws one per actuator", len(d.act), p.M.NU)
		}
		if d.root.Qvel != 0 {
			return nil, fmt.Errorf("dmc: dog: the root joint's velocities start at %d, not 0", d.root.Qvel)
		}
		for j, t := range p.M.Int32s("jnt_type") {
			if t == mujoco.JointHinge {
				d.hinges = append(d.hinges, p.jointAt(j))
			}
		}
		return d, nil
	}
}

// initEpisode measures the standing heights and the body weight in the default pose
// (the data holds it: mj_resetData and a forward pass ran), then turns the body to a
// random heading, gives the root random horizontal and yaw velocities and the
// actuators random activations; fetch also throws the ball.
func (d *dog) initEpisode(p *Physics) error {
	d.standHeight = [2]float64{dogStandHeightFraction * vec3(p.Xpos, d.torso)[2], dogStandHeightFraction * vec3(p.Xpos, d.pelvis)[2]}
	gravity := -p.M.Gravity()[2]
	d.bodyWeight = gravity * p.M.Float64s("body_subtreemass")[d.torso]

	azimuth := p.Uniform(0, 2*math.Pi)
	q := p.D.Qpos[d.root.Qpos+3:]
	q[0], q[1], q[2], q[3] = math.Cos(azimuth/2), 0, 0, math.Sin(azimuth/2)
	// The suite writes qvel[0], qvel[1] and qvel[5]: the root's x, y and yaw rates.
	p.D.Qvel[0] = 2 * p.Normal()
	p.D.Qvel[1] = 2 * p.Normal()
	p.D.Qvel[5] = 2 * p.Normal()
	for i := range d.act {
		d.act[i] = p.Uniform(d.ctrlRange[2*i], d.ctrlRange[2*i+1])
	}
	if !d.fetch {
		return nil
	}
	radius := 0.75 * p.ModelRow("geom_size", d.floor, 3)[0]
	azimuth = p.Uniform(0, 2*math.Pi)
	b := p.D.Qpos[d.ballRoot.Qpos:]
	b[0], b[1], b[2] = radius*math.Sin(azimuth), radius*math.Cos(azimuth), 0.05
	rise := p.Uniform(0, 3)
	speed := p.Uniform(0, 5)
	dx, dy := -math.Sin(azimuth)+0.05*p.Normal(), -math.Cos(azimuth)+0.05*p.Normal()
	v := p.D.Qvel[d.ballRoot.Qvel:]
	v[0], v[1], v[2] = speed*dx, speed*dy, math.Sqrt(2*gravity*rise)
	return nil
}

// torsoCOMVelocity is the torso subtree's centre-of-mass velocity in the torso's frame.
func (d *dog) torsoCOMVelocity(p *Physics) [3]float64 {
	s := p.SensorData(d.torsoLinvel)
	return vecInFrame([3]float64{s[0], s[1], s[2]}, mat3(p.Xmat, d.torso))
}

// standReward is the product of the stand factors: torso and pelvis heights, the three
// bodies upright, and the feet carrying the body's weight.
func (d *dog) standReward(p *Physics) float64 {
	r := 1.0
	for i, b := range []int{d.torso, d.pelvis} {
		h := d.standHeight[i]
		r *= Tolerance(vec3(p.Xpos, b)[2], h, math.Inf(1), h, Gaussian, DefaultValueAtMargin)
	}
	minCos := math.Cos(dogMaxUprightDeg * math.Pi / 180)
	for _, b := range []int{d.skull, d.torso, d.pelvis} {
		r *= Tolerance(bodyZAxisZ(p, b), minCos, math.Inf(1), minCos+1, Linear, 0)
	}
	touch := 0.0
	for _, s := range d.touch {
		touch += p.SensorData(s)[0]
	}
	return r * Tolerance(touch, d.bodyWeight, math.Inf(1), d.bodyWeight, Linear, 0.9)
}

// reward is the stand product, times the forward factor of the moving tasks or the
// reach and fetch factors of fetch.
func (d *dog) reward(p *Physics) float64 {
	r := d.standReward(p)
	if d.speed > 0 {
		forward := Tolerance(d.torsoCOMVelocity(p)[0], d.speed, 2*d.speed, max(1, d.speed), Linear, 0)
		return r * (4*forward + 1) / 5
	}
	if !d.fetch {
		return r
	}
	ball, target := vec3(p.GeomXpos, d.ball), vec3(p.GeomXpos, d.target)
	mouth := (distance(ball, vec3(p.SiteXpos, d.upperBite)) + distance(ball, vec3(p.SiteXpos, d.lowerBite))) / 2
	biteRadius := p.ModelRow("site_size", d.upperBite, 3)[0]
	reach := (6*Tolerance(mouth, 0, biteRadius, dogBiteMargin, Reciprocal, DefaultValueAtMargin) + 1) / 7
	targetRadius := p.ModelRow("geom_size", d.target, 3)[0]
	toTarget := distance(ball, target)
	fetch := (Tolerance(toTarget, 0, targetRadius, p.ModelRow("geom_size", d.floor, 3)[0], Reciprocal, DefaultValueAtMargin) + 1) / 2
	if toTarget < 2*targetRadius {
		reach = 1
	}
	return r * reach * fetch
}

// layout is the stand entries, and fetch's ball_state and target_position.
func (d *dog) layout(p *Physics) []envpool.ObsField {
	l := []envpool.ObsField{
		field("joint_angles", len(d.hinges)), field("joint_velocites", len(d.hinges)), field("torso_pelvis_height", 2),
		field("z_projection", 9), field("torso_com_velocity", 3), field("inertial_sensors", sensorsSize(d.inertial)),
		field("foot_forces", sensorsSize(d.forces)), field("touch_sensors", sensorsSize(d.touch)), field("actuator_state", len(d.act)),
	}
	if d.fetch {
		l = append(l, field("ball_state", 6), field("target_position", 3))
	}
	return l
}

// pointVelocity is the world-frame linear velocity of the point at pos moving with body
// b, as mj_objectVelocity computes it: the body's spatial velocity (cvel, about its
// tree's centre of mass) moved to the point.
func (d *dog) pointVelocity(p *Physics, b int, pos []float64) [3]float64 {
	c := d.cvel[6*b : 6*b+6]
	com := vec3(p.SubtreeCom, int(p.M.Int32s("body_rootid")[b]))
	r := vecSub3(pos, com)
	// v(pos) = v(com) - r x w
	return [3]float64{
		c[3] - (r[1]*c[2] - r[2]*c[1]),
		c[4] - (r[2]*c[0] - r[0]*c[2]),
		c[5] - (r[0]*c[1] - r[1]*c[0]),
	}
}

// observe writes the entries in the suite's order.
func (d *dog) observe(p *Physics, o []float32) {
	for _, j := range d.hinges {
		o = put(o, p.D.Qpos[j.Qpos])
	}
	for _, j := range d.hinges {
		o = put(o, p.D.Qvel[j.Qvel])
	}
	o = put(o, vec3(p.Xpos, d.torso)[2], vec3(p.Xpos, d.pelvis)[2])
	for _, b := range []int{d.skull, d.torso, d.pelvis} {
		o = put(o, mat3(p.Xmat, b)[6:9]...)
	}
	v := d.torsoCOMVelocity(p)
	o = put(o, v[:]...)
	for _, group := range [][]Sensor{d.inertial, d.forces, d.touch} {
		for _, s := range group {
			o = put(o, p.SensorData(s)...)
		}
	}
	o = put(o, d.act...)
	if !d.fetch {
		return
	}
	head, frame := vec3(p.SiteXpos, d.head), mat3(p.SiteXmat, d.head)
	ball := vec3(p.GeomXpos, d.ball)
	toBall := vecInFrame(vecSub3(ball, head), frame)
	bv := d.pointVelocity(p, int(p.M.Int32s("geom_bodyid")[d.ball]), ball)
	hv := d.pointVelocity(p, int(p.M.Int32s("site_bodyid")[d.head]), head)
	ballVel := vecInFrame([3]float64{bv[0] - hv[0], bv[1] - hv[1], bv[2] - hv[2]}, frame)
	toTarget := vecInFrame(vecSub3(vec3(p.GeomXpos, d.target), head), frame)
	o = put(o, toBall[:]...)
	o = put(o, ballVel[:]...)
	put(o, toTarget[:]...)
}
