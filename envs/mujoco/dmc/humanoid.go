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
	def := humanoidDef{
		domain: "humanoid", frameSkip: 5, torso: "torso", uprightCol: 2, velocity: "torso_subtreelinvel",
		extremities: []string{"left_hand", "left_foot", "right_hand", "right_foot"},
	}
	def.register("stand", 0, false)
	def.register("walk", humanoidWalkSpeed, false)
	def.register("run", humanoidRunSpeed, false)
	def.register("run_pure_state", humanoidRunSpeed, true)
}

const (
	humanoidStandHeight = 1.4
	humanoidWalkSpeed   = 1
	humanoidRunSpeed    = 10
)

var (
	humanoidStanding = Tol{Lower: humanoidStandHeight, Upper: math.Inf(1), Margin: humanoidStandHeight / 4, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
	humanoidUpright  = Tol{Lower: 0.9, Upper: math.Inf(1), Margin: 1.9, Sigmoid: Linear, ValueAtMargin: 0}
	humanoidDontMove = Tol{Margin: 2, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
)

// humanoidMove is the speed term of the walking and running tasks.
func humanoidMove(speed float64) Tol {
	return Tol{Lower: speed, Upper: math.Inf(1), Margin: speed, Sigmoid: Linear, ValueAtMargin: 0}
}

// humanoidDef is what the humanoid and humanoid_CMU domains differ in: the body whose
// frame the features use, the column of its xmat row z that measures uprightness
// (humanoid: zz; CMU: zy), the centre-of-mass velocity sensor and the four
// extremities.
type humanoidDef struct {
	domain      string
	frameSkip   int
	torso       string
	uprightCol  int
	velocity    string
	extremities []string
}

func (d humanoidDef) register(task string, speed float64, pure bool) {
	register(&taskDef{domain: d.domain, task: task, frameSkip: d.frameSkip, model: suiteModel(d.domain),
		newLogic: func(p *Physics, _ taskOptions) (logic, error) { return d.newLogic(p, speed, pure) }})
}

type humanoid struct {
	plainControl
	noTermination
	def         humanoidDef
	speed       float64
	pure        bool
	torso, head int
	extremities []int
	vel         Sensor
}

func (d humanoidDef) newLogic(p *Physics, speed float64, pure bool) (logic, error) {
	r := &nameResolver{p: p, domain: d.domain}
	h := &humanoid{def: d, speed: speed, pure: pure, torso: r.id(mujoco.ObjBody, d.torso), head: r.id(mujoco.ObjBody, "head"), vel: r.sensor(d.velocity)}
	for _, name := range d.extremities {
		h.extremities = append(h.extremities, r.id(mujoco.ObjBody, name))
	}
	return h, r.failed()
}

func (h *humanoid) initEpisode(p *Physics) error {
	return randomStartWithoutContacts(p, h.def.domain)
}

func (h *humanoid) headHeight(p *Physics) float64 { return p.Xpos[3*h.head+2] }

func (h *humanoid) reward(p *Physics) float64 {
	stand := humanoidStanding.Of(h.headHeight(p)) * humanoidUpright.Of(p.Xmat[9*h.torso+6+h.def.uprightCol])
	v := p.SensorData(h.vel)
	if h.speed == 0 {
		dontMove := (humanoidDontMove.Of(v[0]) + humanoidDontMove.Of(v[1])) / 2
		return smallControl(p) * stand * dontMove
	}
	move := humanoidMove(h.speed).Of(euclidNorm(v[0], v[1]))
	return smallControl(p) * stand * (5*move + 1) / 6
}

func (h *humanoid) layout(p *Physics) []envpool.ObsField {
	if h.pure {
		return []envpool.ObsField{field("position", p.M.NQ), field("velocity", p.M.NV)}
	}
	return []envpool.ObsField{
		field("joint_angles", p.M.NQ-7), field("head_height", 1), field("extremities", 3*len(h.extremities)),
		field("torso_vertical", 3), field("com_velocity", 3), field("velocity", p.M.NV),
	}
}

func (h *humanoid) observe(p *Physics, o []float32) {
	if h.pure {
		o = put(o, p.D.Qpos...)
		put(o, p.D.Qvel...)
		return
	}
	o = put(o, p.D.Qpos[7:]...)
	o = put(o, h.headHeight(p))
	frame, origin := p.Xmat[9*h.torso:9*h.torso+9], p.Xpos[3*h.torso:3*h.torso+3]
	for _, b := range h.extremities {
		v := vecInFrame(vecSub3(p.Xpos[3*b:3*b+3], origin), frame)
		o = put(o, v[:]...)
	}
	o = put(o, frame[6:9]...)
	o = put(o, p.SensorData(h.vel)...)
	put(o, p.D.Qvel...)
}
