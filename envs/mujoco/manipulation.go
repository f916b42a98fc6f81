package mujoco

import "math"

// The balance and reaching tasks: InvertedPendulum, InvertedDoublePendulum, Reacher and
// Pusher (docs/design/mujoco.md, The tasks), v4 and, with the v5 switch on, v5 (v5.go).
// The v4 tasks take no constructor options: init gives them their fixed values.

// invertedPendulum is InvertedPendulum-v4 and InvertedPendulum-v5: keep a pole on a cart
// upright.
type invertedPendulum struct {
	v5Switch
	noise  float64 // reset_noise_scale (v5)
	nq, nv int
}

func (t *invertedPendulum) init(m *Model, dt float64) error {
	if !t.v5 {
		t.noise = 0.01
	}
	t.nq, t.nv = m.NQ, m.NV
	return needSizes(m, "InvertedPendulum", 2, 0, 0)
}
func (t *invertedPendulum) obsDim() int  { return t.nq + t.nv }
func (t *invertedPendulum) reset(e *Env) { uniformReset(e, t.noise) }

func (t *invertedPendulum) infoKeys() []string {
	if t.v5 {
		return []string{"reward_survive"}
	}
	return nil
}

// step: v4 pays 1 on every step, the terminating one included; v5 pays 0 on that one.
func (t *invertedPendulum) step(e *Env, a []float32) (float64, bool) {
	t.simulate(e, a)
	terminated := !e.stateFinite() || math.Abs(e.d.Qpos[1]) > 0.2
	if !t.v5 {
		return 1, terminated
	}
	e.info[0] = float64(boolInt(!terminated))
	return e.info[0], terminated
}

func (t *invertedPendulum) observe(e *Env, obs []float32) {
	obs = putSlice(obs, e.d.Qpos)
	putSlice(obs, e.d.Qvel)
}

// invertedDoublePendulum is InvertedDoublePendulum-v4 and -v5: balance two poles on a
// cart.
type invertedDoublePendulum struct {
	v5Switch
	healthyReward float64 // healthy_reward (v5)
	noise         float64 // reset_noise_scale (v5)
	tip, nq, nv   int
}

// init: v4 finds the site named "tip"; v5, like Gymnasium's, takes the model's first
// site.
func (t *invertedDoublePendulum) init(m *Model, dt float64) (err error) {
	t.nq, t.nv = m.NQ, m.NV
	if t.v5 {
		return needSizes(m, "InvertedDoublePendulum-v5", 3, 3, 1)
	}
	t.healthyReward, t.noise = 10, 0.1
	t.tip, err = m.ID(mjOBJ_SITE, "tip")
	return err
}

// obsDim: the cart position, sin and cos of the hinges, qvel, and qfrc_constraint
// (every dof's in v4, the cart's only in v5).
func (t *invertedDoublePendulum) obsDim() int {
	return 2*t.nq - 1 + t.nv + t.constraintCount()
}

func (t *invertedDoublePendulum) constraintCount() int {
	if t.v5 {
		return 1
	}
	return t.nv
}

func (t *invertedDoublePendulum) infoKeys() []string {
	if t.v5 {
		return []string{"reward_survive", "distance_penalty", "velocity_penalty"}
	}
	return nil
}

// reset adds U(-s, s) to qpos and draws qvel from s*N(0,1) (s = 0.1 in v4).
func (t *invertedDoublePendulum) reset(e *Env) {
	for i := range e.d.Qpos {
		e.d.Qpos[i] += e.uniform(-t.noise, t.noise)
	}
	for i := range e.d.Qvel {
		e.d.Qvel[i] = t.noise * e.normal()
	}
}

// step reads the tip's (stale) site position after the simulation. v4 pays the alive
// bonus on the terminating step too, v5 does not.
func (t *invertedDoublePendulum) step(e *Env, a []float32) (float64, bool) {
	t.simulate(e, a)
	x, y := e.d.SiteXpos[3*t.tip], e.d.SiteXpos[3*t.tip+2]
	distPenalty := 0.01*x*x + (y-2)*(y-2)
	v1, v2 := e.d.Qvel[1], e.d.Qvel[2]
	velPenalty := 1e-3*v1*v1 + 5e-3*v2*v2
	terminated := y <= 1
	alive := t.healthyReward
	if t.v5 {
		alive *= float64(boolInt(!terminated))
		e.info[0], e.info[1], e.info[2] = alive, -distPenalty, -velPenalty
	}
	return alive - distPenalty - velPenalty, terminated
}

func (t *invertedDoublePendulum) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	obs = put32(obs, q[0])
	for _, x := range q[1:] {
		obs = put32(obs, math.Sin(x))
	}
	for _, x := range q[1:] {
		obs = put32(obs, math.Cos(x))
	}
	obs = putClipped(obs, e.d.Qvel, -10, 10)
	putClipped(obs, e.d.QfrcConstraint[:t.constraintCount()], -10, 10)
}

// reacher is Reacher-v4 and Reacher-v5: move a two-link arm's fingertip to a random
// target.
type reacher struct {
	v5Switch
	distWeight, ctrlWeight float64 // reward_dist_weight, reward_control_weight (v5)
	fingertip, target, nq  int
}

func (t *reacher) init(m *Model, dt float64) (err error) {
	if !t.v5 {
		t.distWeight, t.ctrlWeight = 1, 1
	}
	t.nq = m.NQ
	if err := needSizes(m, "Reacher", 4, 4, 0); err != nil {
		return err
	}
	if t.fingertip, err = m.ID(mjOBJ_BODY, "fingertip"); err != nil {
		return err
	}
	t.target, err = m.ID(mjOBJ_BODY, "target")
	return err
}

// obsDim: cos and sin of the arm, the target's qpos, the arm's qvel and the fingertip
// minus the target (x, y and z in v4; x and y in v5).
func (t *reacher) obsDim() int        { return t.nq + 7 - boolInt(t.v5) }
func (t *reacher) infoKeys() []string { return []string{"reward_dist", "reward_ctrl"} }

// reset: qpos noise, then goal draws until inside the 0.2 disc, then qvel noise.
func (t *reacher) reset(e *Env) {
	q := e.d.Qpos
	for i := range q {
		q[i] += e.uniform(-0.1, 0.1)
	}
	n := len(q)
	for {
		gx, gy := e.uniform(-0.2, 0.2), e.uniform(-0.2, 0.2)
		if math.Hypot(gx, gy) < 0.2 {
			q[n-2], q[n-1] = gx, gy
			break
		}
	}
	v := e.d.Qvel
	for i := range v {
		v[i] = e.uniform(-0.005, 0.005)
	}
	v[len(v)-2], v[len(v)-1] = 0, 0
}

// step: v4 computes the reward before simulating, from the previous step's (stale)
// xpos; v5 after simulating, from the xpos mj_step left (stale too), and weighs both
// terms, info included.
func (t *reacher) step(e *Env, a []float32) (float64, bool) {
	if t.v5 {
		t.simulate(e, a)
	}
	dist := -distance(e.body(t.fingertip), e.body(t.target)) * t.distWeight
	ctrl := -ctrlCost(a) * t.ctrlWeight
	if !t.v5 {
		t.simulate(e, a)
	}
	e.info[0], e.info[1] = dist, ctrl
	return dist + ctrl, false
}

func (t *reacher) observe(e *Env, obs []float32) {
	q, f, g := e.d.Qpos, e.body(t.fingertip), e.body(t.target)
	obs = put32(obs, math.Cos(q[0]), math.Cos(q[1]), math.Sin(q[0]), math.Sin(q[1]))
	obs = putSlice(obs, q[2:])
	obs = putSlice(obs, e.d.Qvel[:2])
	obs = put32(obs, f[0]-g[0], f[1]-g[1])
	if !t.v5 {
		put32(obs, f[2]-g[2])
	}
}

// pusher is Pusher-v4 and Pusher-v5: push a cylinder to a goal with a 7-DoF arm.
type pusher struct {
	v5Switch
	nearWeight, distWeight, ctrlWeight float64 // reward_near_weight, reward_dist_weight, reward_control_weight (v5)
	tips, object, goal                 int
}

func (t *pusher) init(m *Model, dt float64) (err error) {
	if !t.v5 {
		t.nearWeight, t.distWeight, t.ctrlWeight = 0.5, 1, 0.1
	}
	if err := needSizes(m, "Pusher", 11, 11, 0); err != nil {
		return err
	}
	if t.tips, err = m.ID(mjOBJ_BODY, "tips_arm"); err != nil {
		return err
	}
	if t.object, err = m.ID(mjOBJ_BODY, "object"); err != nil {
		return err
	}
	t.goal, err = m.ID(mjOBJ_BODY, "goal")
	return err
}
func (t *pusher) obsDim() int { return 23 }

func (t *pusher) infoKeys() []string {
	if t.v5 {
		return []string{"reward_dist", "reward_ctrl", "reward_near"}
	}
	return []string{"reward_dist", "reward_ctrl"}
}

// reset: no qpos noise; the object is drawn until it is more than 0.17 from the goal at
// the origin (obj_slidey ~ U(-0.3, 0), obj_slidex ~ U(-0.2, 0.2)); small qvel noise on
// the arm only.
func (t *pusher) reset(e *Env) {
	q := e.d.Qpos
	n := len(q)
	for {
		cy, cx := e.uniform(-0.3, 0), e.uniform(-0.2, 0.2)
		if math.Hypot(cy, cx) > 0.17 {
			q[n-4], q[n-3] = cy, cx
			break
		}
	}
	q[n-2], q[n-1] = 0, 0
	v := e.d.Qvel
	for i := range v {
		v[i] = e.uniform(-0.005, 0.005)
	}
	for i := len(v) - 4; i < len(v); i++ {
		v[i] = 0
	}
}

// step: v4 computes the reward before simulating, from the previous step's (stale)
// xpos, and reports the control term unweighted; v5 computes it after simulating, from
// the xpos mj_step left (stale too), and reports every term weighted.
func (t *pusher) step(e *Env, a []float32) (float64, bool) {
	if t.v5 {
		t.simulate(e, a)
	}
	tip, obj, goal := e.body(t.tips), e.body(t.object), e.body(t.goal)
	near := -distance(obj, tip) * t.nearWeight
	dist := -distance(obj, goal) * t.distWeight
	rawCtrl := -ctrlCost(a)
	ctrl := rawCtrl * t.ctrlWeight
	if t.v5 {
		e.info[0], e.info[1], e.info[2] = dist, ctrl, near
	} else {
		t.simulate(e, a)
		e.info[0], e.info[1] = dist, rawCtrl
	}
	return dist + ctrl + near, false
}

func (t *pusher) observe(e *Env, obs []float32) {
	obs = putSlice(obs, e.d.Qpos[:7])
	obs = putSlice(obs, e.d.Qvel[:7])
	obs = putSlice(obs, e.body(t.tips))
	obs = putSlice(obs, e.body(t.object))
	putSlice(obs, e.body(t.goal))
}

func sq(x float64) float64 { return x * x }

// distance is the Euclidean distance between two points.
func distance(p, q []float64) float64 {
	return math.Sqrt(sq(p[0]-q[0]) + sq(p[1]-q[1]) + sq(p[2]-q[2]))
}
