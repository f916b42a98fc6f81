package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The humanoid domain: a 21-joint 3D humanoid with a free root (the suite's
// humanoid.py). Control timestep 0.025 s over a 0.005 s model step: frame skip 5.
//
// Reward: small_control * standing * upright * a motion term. standing =
// tolerance(the head's z, [1.4, inf], margin 0.35, gaussian, 0.1 at the margin);
// upright = tolerance(the torso's xmat zz, [0.9, inf], margin 1.9, linear, 0 at the
// margin); small_control = (4 + the mean over the actuators of tolerance(ctrl, [0, 0],
// margin 1, quadratic, 0)) / 5. HumanoidStand-v1: the motion term is the mean of
// tolerance(v, [0, 0], margin 2, gaussian, 0.1) over the x and y of the torso
// subtree's linear velocity (sensor torso_subtreelinvel). HumanoidWalk-v1 (speed 1),
// HumanoidRun-v1 and HumanoidRunPureState-v1 (speed 10): (5*move + 1) / 6, move being
// tolerance(the norm of that velocity's x and y, [speed, inf], margin speed, linear, 0).
//
// Reset: the limited joints uniform in their ranges and the root's orientation a
// random unit quaternion (its position stays at 0 0 1.5), drawn again until a forward
// pass finds no contact. No termination.
//
// Observation (HumanoidStand, Walk, Run): joint_angles (qpos without the root's 7
// values, 21), head_height (1), extremities (the left hand, left foot, right hand and
// right foot positions relative to the torso, in the torso's frame, 12),
// torso_vertical (the torso's xmat row z, 3), com_velocity (torso_subtreelinvel, 3),
// velocity (qvel, 27). HumanoidRunPureState-v1: position (qpos, 28), velocity (qvel,
// 27).
func init() {
	body := humanoidBody{
		domain: "humanoid", torso: "torso", uprightCol: 2, velocity: "torso_subtreelinvel",
		extremities: []string{"left_hand", "left_foot", "right_hand", "right_foot"},
	}
	register(
		suiteTask("humanoid", "stand", 5, newHumanoid(body, 0, false)),
		suiteTask("humanoid", "walk", 5, newHumanoid(body, humanoidWalkSpeed, false)),
		suiteTask("humanoid", "run", 5, newHumanoid(body, humanoidRunSpeed, false)),
		suiteTask("humanoid", "run_pure_state", 5, newHumanoid(body, humanoidRunSpeed, true)),
	)
}

// The humanoids' head height for standing and their walking and running speeds.
const (
	humanoidStandHeight = 1.4
	humanoidWalkSpeed   = 1
	humanoidRunSpeed    = 10
)

// The humanoids' reward terms: the head's height, the torso's uprightness and (stand)
// the centre of mass' horizontal speed.
var (
	humanoidStanding = Tol{Lower: humanoidStandHeight, Upper: math.Inf(1), Margin: humanoidStandHeight / 4, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
	humanoidUpright  = Tol{Lower: 0.9, Upper: math.Inf(1), Margin: 1.9, Sigmoid: Linear, ValueAtMargin: 0}
	humanoidDontMove = Tol{Margin: 2, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
)

// humanoidMove is the speed term of the walking and running tasks.
func humanoidMove(speed float64) Tol {
	return Tol{Lower: speed, Upper: math.Inf(1), Margin: speed, Sigmoid: Linear, ValueAtMargin: 0}
}

// humanoidBody is what the humanoid and humanoid_CMU domains differ in: the body whose
// frame the features use, the column of its xmat row z that measures uprightness
// (humanoid: zz; CMU: zy), the centre-of-mass velocity sensor and the four
// extremities.
type humanoidBody struct {
	domain      string
	torso       string
	uprightCol  int
	velocity    string
	extremities []string
}

// humanoid is one env's logic of the humanoid and humanoid_CMU tasks.
type humanoid struct {
	plainControl
	noTermination
	domain      string
	uprightCol  int
	speed       float64
	pure        bool
	torso, head int
	extremities []int
	vel         Sensor
}

// newHumanoid makes the logic of a task of the body's domain: standing still (speed
// 0) or moving at speed, observed by features or (pure) as the plain state.
func newHumanoid(body humanoidBody, speed float64, pure bool) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, body.domain)
		h := &humanoid{domain: body.domain, uprightCol: body.uprightCol, speed: speed, pure: pure,
			torso: r.id(mujoco.ObjBody, body.torso), head: r.id(mujoco.ObjBody, "head"),
			extremities: r.ids(mujoco.ObjBody, body.extremities...), vel: r.sensor(body.velocity)}
		return h, r.err()
	}
}

// initEpisode draws a random contact-free pose.
func (h *humanoid) initEpisode(p *Physics) error {
	return randomStartWithoutContacts(p, h.domain)
}

// headHeight is the head's z.
func (h *humanoid) headHeight(p *Physics) float64 { return vec3(p.Xpos, h.head)[2] }

// reward is small control times standing times upright times the motion term.
func (h *humanoid) reward(p *Physics) float64 {
	stand := humanoidStanding.Of(h.headHeight(p)) * humanoidUpright.Of(mat3(p.Xmat, h.torso)[6+h.uprightCol])
	v := p.SensorData(h.vel)
	if h.speed == 0 {
		dontMove := (humanoidDontMove.Of(v[0]) + humanoidDontMove.Of(v[1])) / 2
		return smallControl(p) * stand * dontMove
	}
	move := humanoidMove(h.speed).Of(norm(v[0], v[1]))
	return smallControl(p) * stand * (5*move + 1) / 6
}

// layout is the plain state (pure) or the suite's features.
func (h *humanoid) layout(p *Physics) []envpool.ObsField {
	if h.pure {
		return qposQvelObs{}.layout(p)
	}
	return []envpool.ObsField{
		field("joint_angles", p.M.NQ-7), scalar("head_height"), field("extremities", 3*len(h.extremities)),
		field("torso_vertical", 3), field("com_velocity", 3), field("velocity", p.M.NV),
	}
}

// observe writes the plain state (pure) or the features: the extremities relative to
// the torso in its frame, and the torso's xmat row z.
func (h *humanoid) observe(p *Physics, o []float32) {
	if h.pure {
		qposQvelObs{}.observe(p, o)
		return
	}
	o = put(o, p.D.Qpos[7:]...)
	o = put(o, h.headHeight(p))
	frame, origin := mat3(p.Xmat, h.torso), vec3(p.Xpos, h.torso)
	for _, b := range h.extremities {
		v := vecInFrame(vecSub3(vec3(p.Xpos, b), origin), frame)
		o = put(o, v[:]...)
	}
	o = put(o, frame[6:9]...)
	o = put(o, p.SensorData(h.vel)...)
	put(o, p.D.Qvel...)
}
