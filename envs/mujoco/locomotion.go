package mujoco

import "math"

// The locomotion tasks: Ant, HalfCheetah, Hopper, Walker2d, Humanoid, HumanoidStandup
// and Swimmer (docs/design/mujoco.md, The tasks), v4 and, with the v5 switch on, v5
// (v5.go). Option fields carry Gymnasium's constructor argument names in their comments.

// ant is Ant-v4 and Ant-v5: a four-legged body with a free root, rewarded for torso x
// velocity.
type ant struct {
	v5Switch
	forwardWeight     float64 // forward_reward_weight (v5; 1 in v4)
	ctrlCostWeight    float64 // ctrl_cost_weight
	useContactForces  bool    // use_contact_forces (v4); include_cfrc_ext_in_observation (v5)
	contactCostWeight float64 // contact_cost_weight
	healthyReward     float64 // healthy_reward
	terminate         bool    // terminate_when_unhealthy
	zRange            [2]float64
	contactForceRange [2]float64
	noise             float64 // reset_noise_scale
	exclude           bool    // exclude_current_positions_from_observation
	mainBody          bodyRef // main_body (v5; v4 uses "torso")

	torso, nq, nv, nbody int
	dt                   float64
}

func (t *ant) init(m *Model, dt float64) (err error) {
	t.nq, t.nv, t.nbody, t.dt = m.NQ, m.NV, m.NBody, dt
	if t.v5 {
		if err := needSizes(m, "Ant-v5", 3, 0, 0); err != nil {
			return err
		}
		t.torso, err = t.mainBody.resolve(m)
		return err
	}
	t.torso, err = m.ID(mjOBJ_BODY, "torso")
	return err
}

func (t *ant) obsDim() int {
	n := t.nq + t.nv
	if t.exclude {
		n -= 2
	}
	if t.useContactForces {
		n += 6 * (t.nbody - t.firstBody())
	}
	return n
}

func (t *ant) infoKeys() []string {
	if t.v5 {
		return []string{"x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity",
			"reward_forward", "reward_ctrl", "reward_contact", "reward_survive"}
	}
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

// step: v4 adds the contact cost only with use_contact_forces, v5 always; v5's
// positions in info are qpos, v4's the torso's (stale) xpos.
func (t *ant) step(e *Env, a []float32) (float64, bool) {
	p := e.body(t.torso)
	x0, y0 := p[0], p[1]
	t.simulate(e, a)
	x1, y1 := p[0], p[1] // stale kinematics, as in v4 and v5
	vx, vy := (x1-x0)/t.dt, (y1-y0)/t.dt
	z := e.d.Qpos[2]
	healthy := e.stateFinite() && t.zRange[0] <= z && z <= t.zRange[1]
	terminated := t.terminate && !healthy
	survive := t.healthyBonus(t.healthyReward, healthy, t.terminate)
	forward := t.forwardWeight * vx
	ctrl := t.ctrlCostWeight * ctrlCost(a)
	contact := 0.0
	if t.useContactForces || t.v5 {
		contact = t.contactCostWeight * clippedSquares(e.d.CfrcExt, t.contactForceRange)
	}
	if t.v5 {
		n := putPlanarPosition(e, e.info)
		copy(e.info[n:], []float64{vx, vy, forward, -ctrl, -contact, survive})
		return (forward + survive) - (ctrl + contact), terminated
	}
	rewardCtrl := -ctrl
	if t.useContactForces {
		rewardCtrl = -contact // v4 overwrites reward_ctrl with the contact cost
	}
	copy(e.info, []float64{vx, rewardCtrl, survive, x1, y1, math.Hypot(x1, y1), vx, vy, vx})
	return forward + survive - ctrl - contact, terminated
}

func (t *ant) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	if t.exclude {
		q = q[2:]
	}
	obs = putSlice(obs, q)
	obs = putSlice(obs, e.d.Qvel)
	if t.useContactForces {
		putClipped(obs, e.d.CfrcExt[6*t.firstBody():], t.contactForceRange[0], t.contactForceRange[1])
	}
	if t.v5 && atReset(e) {
		putPlanarPosition(e, e.info)
	}
}

// halfCheetah is HalfCheetah-v4 and HalfCheetah-v5: a planar runner that never
// terminates.
type halfCheetah struct {
	v5Switch
	forwardWeight  float64 // forward_reward_weight
	ctrlCostWeight float64 // ctrl_cost_weight
	noise          float64 // reset_noise_scale
	exclude        bool
	dt             float64
}

func (t *halfCheetah) init(m *Model, dt float64) error { t.dt = dt; return nil }

func (t *halfCheetah) obsDim() int { return 17 + boolInt(!t.exclude) }

func (t *halfCheetah) infoKeys() []string {
	if t.v5 {
		return []string{"x_position", "x_velocity", "reward_forward", "reward_ctrl"}
	}
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
	t.simulate(e, a)
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
	if t.v5 && atReset(e) {
		e.info[0] = e.d.Qpos[0]
	}
}

// planarWalker is Hopper and Walker2d, v4 and v5: planar bodies with a slide x, slide z
// (absolute torso height) and hinge y root, rewarded for x velocity while healthy.
type planarWalker struct {
	v5Switch
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
	return needSizes(m, "Hopper and Walker2d", 3, 0, 0)
}

func (t *planarWalker) obsDim() int { return t.nq - 1 + t.nv + boolInt(!t.exclude) }

func (t *planarWalker) infoKeys() []string {
	if t.v5 {
		return []string{"x_position", "z_distance_from_origin", "x_velocity", "reward_forward", "reward_ctrl", "reward_survive"}
	}
	return []string{"x_position", "x_velocity"}
}

// putState writes v5's x_position and z_distance_from_origin.
func (t *planarWalker) putState(e *Env) int {
	e.info[0], e.info[1] = e.d.Qpos[0], heightChange(e, 1)
	return 2
}

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
	t.simulate(e, a)
	x1 := e.d.Qpos[0]
	vx := (x1 - x0) / t.dt
	healthy := t.healthy(e)
	survive := t.healthyBonus(t.healthyReward, healthy, t.terminate)
	forward := t.forwardWeight * vx
	ctrl := t.ctrlCostWeight * ctrlCost(a)
	if t.v5 {
		n := t.putState(e)
		copy(e.info[n:], []float64{vx, forward, -ctrl, survive})
	} else {
		e.info[0], e.info[1] = x1, vx
	}
	return forward + survive - ctrl, t.terminate && !healthy
}

func (t *planarWalker) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	if t.exclude {
		q = q[1:]
	}
	obs = putSlice(obs, q)
	putClipped(obs, e.d.Qvel, -10, 10)
	if t.v5 && atReset(e) {
		t.putState(e)
	}
}

// humanoid is Humanoid-v4 and Humanoid-v5: a 3-D biped rewarded for centre-of-mass x
// velocity.
type humanoid struct {
	v5Switch
	humanoidObs
	forwardWeight     float64 // forward_reward_weight
	ctrlCostWeight    float64 // ctrl_cost_weight
	contactCost       bool    // use_contact_forces (v4, Humanoid-v3's default); v5 always pays it
	contactCostWeight float64 // contact_cost_weight (v5; 5e-7 in v4)
	contactCostRange  [2]float64
	healthyReward     float64 // healthy_reward
	terminate         bool    // terminate_when_unhealthy
	zRange            [2]float64
	noise             float64 // reset_noise_scale

	m  *Model
	dt float64
}

func (t *humanoid) init(m *Model, dt float64) error {
	t.m, t.dt = m, dt
	return t.humanoidObs.check(m, "Humanoid", t.v5)
}

func (t *humanoid) obsDim() int { return t.humanoidObs.dim(t.m, &t.v5Switch) }

func (t *humanoid) infoKeys() []string {
	if t.v5 {
		keys := append([]string{"x_position", "y_position"}, tendonKeys(t.m)...)
		return append(keys, "distance_from_origin", "x_velocity", "y_velocity",
			"reward_survive", "reward_forward", "reward_ctrl", "reward_contact")
	}
	return []string{"reward_linvel", "reward_quadctrl", "reward_alive", "x_position", "y_position",
		"distance_from_origin", "x_velocity", "y_velocity", "forward_reward"}
}

// putState writes v5's x_position, y_position, tendon lengths and velocities and
// distance_from_origin, all but the tendons from qpos.
func (t *humanoid) putState(e *Env) int {
	x, y := e.d.Qpos[0], e.d.Qpos[1]
	e.info[0], e.info[1] = x, y
	n := 2 + putTendons(e, e.info[2:])
	e.info[n] = math.Sqrt(x*x + y*y)
	return n + 1
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

// step: v5 adds the contact cost (v4 only with use_contact_forces) and reports qpos
// positions and the tendons; v4 reports the (stale) centre of mass.
func (t *humanoid) step(e *Env, a []float32) (float64, bool) {
	x0, y0 := massCenter(e)
	t.simulate(e, a)
	x1, y1 := massCenter(e)
	vx, vy := (x1-x0)/t.dt, (y1-y0)/t.dt
	forward := t.forwardWeight * vx
	ctrl := t.ctrlCostWeight * sumSquares(e.d.Ctrl)
	z := e.d.Qpos[2]
	healthy := t.zRange[0] < z && z < t.zRange[1]
	alive := t.healthyBonus(t.healthyReward, healthy, t.terminate)
	terminated := t.terminate && !healthy
	contact := 0.0
	if t.v5 || t.contactCost {
		contact = clip(t.contactCostWeight*sumSquares(e.d.CfrcExt), t.contactCostRange)
	}
	if t.v5 {
		n := t.putState(e)
		copy(e.info[n:], []float64{vx, vy, alive, forward, -ctrl, -contact})
		return (forward + alive) - (ctrl + contact), terminated
	}
	copy(e.info, []float64{forward, -ctrl, alive, x1, y1, math.Hypot(x1, y1), vx, vy, forward})
	return forward + alive - ctrl - contact, terminated
}

func (t *humanoid) observe(e *Env, obs []float32) {
	t.humanoidObs.write(e, obs, &t.v5Switch)
	if t.v5 && atReset(e) {
		t.putState(e)
	}
}

// humanoidObs is the observation of Humanoid and HumanoidStandup: qpos[2:] (or qpos),
// qvel, cinert, cvel, qfrc_actuator and cfrc_ext. v4 writes every body's rows and every
// dof's actuator force; v5 leaves out the world body and the free root's six dofs
// (v5Switch.firstBody, rootDofs), and its include_*_in_observation options can leave
// out whole parts.
type humanoidObs struct {
	exclude                                             bool // exclude_current_positions_from_observation
	omitCinert, omitCvel, omitQfrcActuator, omitCfrcExt bool // not include_*_in_observation (v5)
}

func (h humanoidObs) dim(m *Model, s *v5Switch) int {
	bodies, dofs := m.NBody-s.firstBody(), m.NV-s.rootDofs()
	n := m.NQ - 2*boolInt(h.exclude) + m.NV
	n += 10 * bodies * boolInt(!h.omitCinert)
	n += 6 * bodies * boolInt(!h.omitCvel)
	n += dofs * boolInt(!h.omitQfrcActuator)
	return n + 6*bodies*boolInt(!h.omitCfrcExt)
}

func (h humanoidObs) write(e *Env, obs []float32, s *v5Switch) {
	b := s.firstBody()
	q := e.d.Qpos
	if h.exclude {
		q = q[2:]
	}
	obs = putSlice(obs, q)
	obs = putSlice(obs, e.d.Qvel)
	if !h.omitCinert {
		obs = putSlice(obs, e.d.Cinert[10*b:])
	}
	if !h.omitCvel {
		obs = putSlice(obs, e.d.Cvel[6*b:])
	}
	if !h.omitQfrcActuator {
		obs = putSlice(obs, e.d.QfrcActuator[s.rootDofs():])
	}
	if !h.omitCfrcExt {
		putSlice(obs, e.d.CfrcExt[6*b:])
	}
}

// check: the rules read qpos[2] (height) and, in v5, skip six root dofs.
func (h humanoidObs) check(m *Model, task string, v5 bool) error {
	nv := 0
	if v5 && !h.omitQfrcActuator {
		nv = 6
	}
	return needSizes(m, task, 3, nv, 0)
}

func sumSquares(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s
}

// humanoidStandup is HumanoidStandup-v4 and HumanoidStandup-v5: the humanoid lying
// down, rewarded for height.
type humanoidStandup struct {
	v5Switch
	humanoidObs
	uphCostWeight    float64 // uph_cost_weight (v5): read, and like Gymnasium's never applied
	ctrlCostWeight   float64 // ctrl_cost_weight (v5)
	impactCostWeight float64 // impact_cost_weight (v5)
	impactCostRange  [2]float64
	noise            float64 // reset_noise_scale (v5)

	m *Model
}

// init gives v4, which takes no options, its fixed weights and observation.
func (t *humanoidStandup) init(m *Model, dt float64) error {
	t.m = m
	if !t.v5 {
		t.exclude, t.ctrlCostWeight, t.impactCostWeight, t.noise = true, 0.1, 0.5e-6, 1e-2
		t.impactCostRange = [2]float64{math.Inf(-1), 10}
	}
	return t.humanoidObs.check(m, "HumanoidStandup", t.v5)
}

func (t *humanoidStandup) obsDim() int { return t.humanoidObs.dim(t.m, &t.v5Switch) }

func (t *humanoidStandup) infoKeys() []string {
	keys := []string{"reward_linup", "reward_quadctrl", "reward_impact"}
	if t.v5 {
		state := append([]string{"x_position", "y_position", "z_distance_from_origin"}, tendonKeys(t.m)...)
		keys = append(state, keys...)
	}
	return keys
}

// putState writes v5's x_position, y_position, z_distance_from_origin and the tendons.
func (t *humanoidStandup) putState(e *Env) int {
	e.info[0], e.info[1], e.info[2] = e.d.Qpos[0], e.d.Qpos[1], heightChange(e, 2)
	return 3 + putTendons(e, e.info[3:])
}

func (t *humanoidStandup) reset(e *Env) { uniformReset(e, t.noise) }

// step divides the height by the MuJoCo timestep, not dt, as v4 and v5 do.
func (t *humanoidStandup) step(e *Env, a []float32) (float64, bool) {
	t.simulate(e, a)
	up := e.d.Qpos[2] / t.m.Timestep
	ctrl := t.ctrlCostWeight * sumSquares(e.d.Ctrl)
	impact := clip(t.impactCostWeight*sumSquares(e.d.CfrcExt), t.impactCostRange)
	n := 0
	if t.v5 {
		n = t.putState(e)
	}
	e.info[n], e.info[n+1], e.info[n+2] = up, -ctrl, -impact
	return up - ctrl - impact + 1, false
}

func (t *humanoidStandup) observe(e *Env, obs []float32) {
	t.humanoidObs.write(e, obs, &t.v5Switch)
	if t.v5 && atReset(e) {
		t.putState(e)
	}
}

// swimmer is Swimmer-v4 and Swimmer-v5: a three-link swimmer in a viscous medium.
type swimmer struct {
	v5Switch
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
	if t.v5 {
		return []string{"x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity",
			"reward_forward", "reward_ctrl"}
	}
	return []string{"reward_fwd", "reward_ctrl", "x_position", "y_position", "distance_from_origin",
		"x_velocity", "y_velocity", "forward_reward"}
}

func (t *swimmer) reset(e *Env) { uniformReset(e, t.noise) }

func (t *swimmer) step(e *Env, a []float32) (float64, bool) {
	x0, y0 := e.d.Qpos[0], e.d.Qpos[1]
	t.simulate(e, a)
	x1, y1 := e.d.Qpos[0], e.d.Qpos[1]
	vx, vy := (x1-x0)/t.dt, (y1-y0)/t.dt
	forward := t.forwardWeight * vx
	ctrl := t.ctrlCostWeight * ctrlCost(a)
	if t.v5 {
		n := putPlanarPosition(e, e.info)
		copy(e.info[n:], []float64{vx, vy, forward, -ctrl})
	} else {
		copy(e.info, []float64{forward, -ctrl, x1, y1, math.Hypot(x1, y1), vx, vy, forward})
	}
	return forward - ctrl, false
}

func (t *swimmer) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	if t.exclude {
		q = q[2:]
	}
	obs = putSlice(obs, q)
	putSlice(obs, e.d.Qvel)
	if t.v5 && atReset(e) {
		putPlanarPosition(e, e.info)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
