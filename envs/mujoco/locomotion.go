package mujoco

import "math"

// The locomotion tasks: Ant, HalfCheetah, Hopper, Walker2d, Humanoid, HumanoidStandup
// and Swimmer (docs/design/mujoco.md, The tasks). Option fields carry Gymnasium's
// constructor argument names in their comments.

// ant is Ant-v4: a four-legged body with a free root, rewarded for torso x velocity.
type ant struct {
	ctrlCostWeight    float64 // ctrl_cost_weight
	useContactForces  bool    // use_contact_forces
	contactCostWeight float64 // contact_cost_weight
	healthyReward     float64 // healthy_reward
	terminate         bool    // terminate_when_unhealthy
	zRange            [2]float64
	contactForceRange [2]float64
	noise             float64 // reset_noise_scale
	exclude           bool    // exclude_current_positions_from_observation

	torso, nq, nv, nbody int
	dt                   float64
}

func (t *ant) init(m *Model, dt float64) (err error) {
	t.nq, t.nv, t.nbody, t.dt = m.NQ, m.NV, m.NBody, dt
	t.torso, err = m.ID(mjOBJ_BODY, "torso")
	return err
}

func (t *ant) obsDim() int {
	n := t.nq + t.nv
	if t.exclude {
		n -= 2
	}
	if t.useContactForces {
		n += 6 * t.nbody
	}
	return n
}

func (t *ant) infoKeys() []string {
	return []string{"reward_forward", "reward_ctrl", "reward_survive", "x_position", "y_position",
		"distance_from_origin", "x_velocity", "y_velocity", "forward_reward"}
}

// reset adds U(-s, s) to all of qpos (the root quaternion included; mj_forward
// normalises it) and s*N(0,1) to qvel.
func (t *ant) reset(e *Env) {
	for i := range e.d.Qpos {
		e.d.Qpos[i] += e.uniform(-t.noise, t.noise)
	}
	for i := range e.d.Qvel {
		e.d.Qvel[i] = t.noise * e.normal()
	}
}

func (t *ant) step(e *Env, a []float32) (float64, bool) {
	p := e.body(t.torso)
	x0, y0 := p[0], p[1]
	e.simulate(a)
	x1, y1 := p[0], p[1] // stale kinematics, as in v4
	vx, vy := (x1-x0)/t.dt, (y1-y0)/t.dt
	z := e.d.Qpos[2]
	healthy := e.stateFinite() && t.zRange[0] <= z && z <= t.zRange[1]
	survive := 0.0
	if healthy || t.terminate {
		survive = t.healthyReward
	}
	ctrl := t.ctrlCostWeight * ctrlCost(a)
	reward := vx + survive - ctrl
	rewardCtrl := -ctrl
	if t.useContactForces {
		s := 0.0
		for _, f := range e.d.CfrcExt {
			c := min(max(f, t.contactForceRange[0]), t.contactForceRange[1])
			s += c * c
		}
		contact := t.contactCostWeight * s
		reward -= contact
		rewardCtrl = -contact // v4 overwrites reward_ctrl with the contact cost
	}
	copy(e.info, []float64{vx, rewardCtrl, survive, x1, y1, math.Hypot(x1, y1), vx, vy, vx})
	return reward, t.terminate && !healthy
}

func (t *ant) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	if t.exclude {
		q = q[2:]
	}
	obs = putSlice(obs, q)
	obs = putSlice(obs, e.d.Qvel)
	if t.useContactForces {
		putClipped(obs, e.d.CfrcExt, t.contactForceRange[0], t.contactForceRange[1])
	}
}

// halfCheetah is HalfCheetah-v4: a planar runner that never terminates.
type halfCheetah struct {
	forwardWeight  float64 // forward_reward_weight
	ctrlCostWeight float64 // ctrl_cost_weight
	noise          float64 // reset_noise_scale
	exclude        bool
	dt             float64
}

func (t *halfCheetah) init(m *Model, dt float64) error { t.dt = dt; return nil }

func (t *halfCheetah) obsDim() int { return 17 + boolInt(!t.exclude) }

func (t *halfCheetah) infoKeys() []string {
	return []string{"x_position", "x_velocity", "reward_run", "reward_ctrl"}
}

func (t *halfCheetah) reset(e *Env) {
	for i := range e.d.Qpos {
		e.d.Qpos[i] += e.uniform(-t.noise, t.noise)
	}
	for i := range e.d.Qvel {
		e.d.Qvel[i] = t.noise * e.normal()
	}
}

func (t *halfCheetah) step(e *Env, a []float32) (float64, bool) {
	x0 := e.d.Qpos[0]
	e.simulate(a)
	x1 := e.d.Qpos[0]
	vx := (x1 - x0) / t.dt
	run := t.forwardWeight * vx
	ctrl := t.ctrlCostWeight * ctrlCost(a)
	copy(e.info, []float64{x1, vx, run, -ctrl})
	return run - ctrl, false
}

func (t *halfCheetah) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	if t.exclude {
		q = q[1:]
	}
	obs = putSlice(obs, q)
	putSlice(obs, e.d.Qvel)
}

// planarWalker is Hopper-v4 and Walker2d-v4: planar bodies with a slide x, slide z
// (absolute torso height) and hinge y root, rewarded for x velocity while healthy.
type planarWalker struct {
	forwardWeight  float64 // forward_reward_weight
	ctrlCostWeight float64 // ctrl_cost_weight
	healthyReward  float64 // healthy_reward
	terminate      bool    // terminate_when_unhealthy
	stateRange     [2]float64
	zRange         [2]float64
	angleRange     [2]float64
	noise          float64 // reset_noise_scale
	exclude        bool
	checkState     bool // Hopper checks healthy_state_range; Walker2d has none

	nq, nv int
	dt     float64
}

func (t *planarWalker) init(m *Model, dt float64) error {
	t.nq, t.nv, t.dt = m.NQ, m.NV, dt
	return nil
}

func (t *planarWalker) obsDim() int { return t.nq - 1 + t.nv + boolInt(!t.exclude) }

func (t *planarWalker) infoKeys() []string { return []string{"x_position", "x_velocity"} }

// reset adds U(-s, s) to qpos and draws qvel from U(-s, s).
func (t *planarWalker) reset(e *Env) {
	for i := range e.d.Qpos {
		e.d.Qpos[i] += e.uniform(-t.noise, t.noise)
	}
	for i := range e.d.Qvel {
		e.d.Qvel[i] = e.uniform(-t.noise, t.noise)
	}
}

// healthy uses strict inequalities throughout, as v4 does.
func (t *planarWalker) healthy(e *Env) bool {
	q := e.d.Qpos
	if t.checkState {
		for _, v := range q[2:] {
			if !(t.stateRange[0] < v && v < t.stateRange[1]) {
				return false
			}
		}
		for _, v := range e.d.Qvel {
			if !(t.stateRange[0] < v && v < t.stateRange[1]) {
				return false
			}
		}
	}
	return t.zRange[0] < q[1] && q[1] < t.zRange[1] && t.angleRange[0] < q[2] && q[2] < t.angleRange[1]
}

func (t *planarWalker) step(e *Env, a []float32) (float64, bool) {
	x0 := e.d.Qpos[0]
	e.simulate(a)
	x1 := e.d.Qpos[0]
	vx := (x1 - x0) / t.dt
	healthy := t.healthy(e)
	survive := 0.0
	if healthy || t.terminate {
		survive = t.healthyReward
	}
	reward := t.forwardWeight*vx + survive - t.ctrlCostWeight*ctrlCost(a)
	e.info[0], e.info[1] = x1, vx
	return reward, t.terminate && !healthy
}

func (t *planarWalker) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	if t.exclude {
		q = q[1:]
	}
	obs = putSlice(obs, q)
	putClipped(obs, e.d.Qvel, -10, 10)
}

// humanoid is Humanoid-v4: a 3-D biped rewarded for centre-of-mass x velocity.
type humanoid struct {
	forwardWeight  float64 // forward_reward_weight
	ctrlCostWeight float64 // ctrl_cost_weight
	healthyReward  float64 // healthy_reward
	terminate      bool    // terminate_when_unhealthy
	zRange         [2]float64
	noise          float64 // reset_noise_scale
	exclude        bool

	m  *Model
	dt float64
}

func (t *humanoid) init(m *Model, dt float64) error { t.m, t.dt = m, dt; return nil }

func (t *humanoid) obsDim() int {
	return humanoidObsDim(t.m) + 2*boolInt(!t.exclude)
}

func humanoidObsDim(m *Model) int {
	return (m.NQ - 2) + m.NV + 10*m.NBody + 6*m.NBody + m.NV + 6*m.NBody
}

func (t *humanoid) infoKeys() []string {
	return []string{"reward_linvel", "reward_quadctrl", "reward_alive", "x_position", "y_position",
		"distance_from_origin", "x_velocity", "y_velocity", "forward_reward"}
}

func (t *humanoid) reset(e *Env) { uniformReset(e, t.noise) }

func uniformReset(e *Env, s float64) {
	for i := range e.d.Qpos {
		e.d.Qpos[i] += e.uniform(-s, s)
	}
	for i := range e.d.Qvel {
		e.d.Qvel[i] = e.uniform(-s, s)
	}
}

// massCenter is the mass-weighted mean of the bodies' (stale) xipos, x and y only.
func massCenter(e *Env) (float64, float64) {
	var mx, my, total float64
	for b, mass := range e.m.BodyMass {
		mx += mass * e.d.Xipos[3*b]
		my += mass * e.d.Xipos[3*b+1]
		total += mass
	}
	return mx / total, my / total
}

func (t *humanoid) step(e *Env, a []float32) (float64, bool) {
	x0, y0 := massCenter(e)
	e.simulate(a)
	x1, y1 := massCenter(e)
	vx, vy := (x1-x0)/t.dt, (y1-y0)/t.dt
	forward := t.forwardWeight * vx
	ctrl := t.ctrlCostWeight * sumSquares(e.d.Ctrl)
	z := e.d.Qpos[2]
	healthy := t.zRange[0] < z && z < t.zRange[1]
	alive := 0.0
	if healthy || t.terminate {
		alive = t.healthyReward
	}
	copy(e.info, []float64{forward, -ctrl, alive, x1, y1, math.Hypot(x1, y1), vx, vy, forward})
	return forward + alive - ctrl, t.terminate && !healthy
}

func (t *humanoid) observe(e *Env, obs []float32) { humanoidObserve(e, obs, t.exclude) }

// humanoidObserve writes qpos[2:] (or qpos), qvel, cinert, cvel, qfrc_actuator, cfrc_ext.
func humanoidObserve(e *Env, obs []float32, exclude bool) {
	q := e.d.Qpos
	if exclude {
		q = q[2:]
	}
	obs = putSlice(obs, q)
	obs = putSlice(obs, e.d.Qvel)
	obs = putSlice(obs, e.d.Cinert)
	obs = putSlice(obs, e.d.Cvel)
	obs = putSlice(obs, e.d.QfrcActuator)
	putSlice(obs, e.d.CfrcExt)
}

func sumSquares(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s
}

// humanoidStandup is HumanoidStandup-v4: the humanoid lying down, rewarded for height.
type humanoidStandup struct {
	m *Model
}

func (t *humanoidStandup) init(m *Model, dt float64) error { t.m = m; return nil }

func (t *humanoidStandup) obsDim() int { return humanoidObsDim(t.m) }

func (t *humanoidStandup) infoKeys() []string {
	return []string{"reward_linup", "reward_quadctrl", "reward_impact"}
}

func (t *humanoidStandup) reset(e *Env) { uniformReset(e, 1e-2) }

// step divides the height by the MuJoCo timestep, not dt, as v4 does.
func (t *humanoidStandup) step(e *Env, a []float32) (float64, bool) {
	e.simulate(a)
	up := e.d.Qpos[2] / t.m.Timestep
	ctrl := 0.1 * sumSquares(e.d.Ctrl)
	impact := min(0.5e-6*sumSquares(e.d.CfrcExt), 10)
	e.info[0], e.info[1], e.info[2] = up, -ctrl, -impact
	return up - ctrl - impact + 1, false
}

func (t *humanoidStandup) observe(e *Env, obs []float32) { humanoidObserve(e, obs, true) }

// swimmer is Swimmer-v4: a three-link swimmer in a viscous medium.
type swimmer struct {
	forwardWeight  float64 // forward_reward_weight
	ctrlCostWeight float64 // ctrl_cost_weight
	noise          float64 // reset_noise_scale
	exclude        bool
	nq, nv         int
	dt             float64
}

func (t *swimmer) init(m *Model, dt float64) error { t.nq, t.nv, t.dt = m.NQ, m.NV, dt; return nil }

func (t *swimmer) obsDim() int { return t.nq - 2 + t.nv + 2*boolInt(!t.exclude) }

func (t *swimmer) infoKeys() []string {
	return []string{"reward_fwd", "reward_ctrl", "x_position", "y_position", "distance_from_origin",
		"x_velocity", "y_velocity", "forward_reward"}
}

func (t *swimmer) reset(e *Env) { uniformReset(e, t.noise) }

func (t *swimmer) step(e *Env, a []float32) (float64, bool) {
	x0, y0 := e.d.Qpos[0], e.d.Qpos[1]
	e.simulate(a)
	x1, y1 := e.d.Qpos[0], e.d.Qpos[1]
	vx, vy := (x1-x0)/t.dt, (y1-y0)/t.dt
	forward := t.forwardWeight * vx
	ctrl := t.ctrlCostWeight * ctrlCost(a)
	copy(e.info, []float64{forward, -ctrl, x1, y1, math.Hypot(x1, y1), vx, vy, forward})
	return forward - ctrl, false
}

func (t *swimmer) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	if t.exclude {
		q = q[2:]
	}
	obs = putSlice(obs, q)
	putSlice(obs, e.d.Qvel)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
