package mujoco

import "math"

// The balance and reaching tasks: InvertedPendulum, InvertedDoublePendulum, Reacher and
// Pusher (docs/design/mujoco.md, The tasks). None takes constructor options.

// invertedPendulum is InvertedPendulum-v4: keep a pole on a cart upright.
type invertedPendulum struct{}

func (t *invertedPendulum) init(m *Model, dt float64) error { return nil }
func (t *invertedPendulum) obsDim() int                     { return 4 }
func (t *invertedPendulum) infoKeys() []string              { return nil }
func (t *invertedPendulum) reset(e *Env)                    { uniformReset(e, 0.01) }

// step pays 1 on every step, the terminating one included.
func (t *invertedPendulum) step(e *Env, a []float32) (float64, bool) {
	e.simulate(a)
	terminated := !e.stateFinite() || math.Abs(e.d.Qpos[1]) > 0.2
	return 1, terminated
}

func (t *invertedPendulum) observe(e *Env, obs []float32) {
	obs = putSlice(obs, e.d.Qpos)
	putSlice(obs, e.d.Qvel)
}

// invertedDoublePendulum is InvertedDoublePendulum-v4: balance two poles on a cart.
type invertedDoublePendulum struct {
	tip int
}

func (t *invertedDoublePendulum) init(m *Model, dt float64) (err error) {
	t.tip, err = m.ID(mjOBJ_SITE, "tip")
	return err
}
func (t *invertedDoublePendulum) obsDim() int        { return 11 }
func (t *invertedDoublePendulum) infoKeys() []string { return nil }

// reset adds U(-0.1, 0.1) to qpos and draws qvel from 0.1*N(0,1).
func (t *invertedDoublePendulum) reset(e *Env) {
	for i := range e.d.Qpos {
		e.d.Qpos[i] += e.uniform(-0.1, 0.1)
	}
	for i := range e.d.Qvel {
		e.d.Qvel[i] = 0.1 * e.normal()
	}
}

// step reads the tip's (stale) site position after the simulation.
func (t *invertedDoublePendulum) step(e *Env, a []float32) (float64, bool) {
	e.simulate(a)
	x, y := e.d.SiteXpos[3*t.tip], e.d.SiteXpos[3*t.tip+2]
	distPenalty := 0.01*x*x + (y-2)*(y-2)
	v1, v2 := e.d.Qvel[1], e.d.Qvel[2]
	velPenalty := 1e-3*v1*v1 + 5e-3*v2*v2
	return 10 - distPenalty - velPenalty, y <= 1
}

func (t *invertedDoublePendulum) observe(e *Env, obs []float32) {
	q := e.d.Qpos
	obs = put32(obs, q[0], math.Sin(q[1]), math.Sin(q[2]), math.Cos(q[1]), math.Cos(q[2]))
	obs = putClipped(obs, e.d.Qvel, -10, 10)
	putClipped(obs, e.d.QfrcConstraint, -10, 10)
}

// reacher is Reacher-v4: move a two-link arm's fingertip to a random target.
type reacher struct {
	fingertip, target int
}

func (t *reacher) init(m *Model, dt float64) (err error) {
	if t.fingertip, err = m.ID(mjOBJ_BODY, "fingertip"); err != nil {
		return err
	}
	t.target, err = m.ID(mjOBJ_BODY, "target")
	return err
}
func (t *reacher) obsDim() int        { return 11 }
func (t *reacher) infoKeys() []string { return []string{"reward_dist", "reward_ctrl"} }

// reset: qpos noise, then goal draws until inside the 0.2 disc, then qvel noise.
func (t *reacher) reset(e *Env) {
	q := e.d.Qpos
	for i := range q {
		q[i] += e.uniform(-0.1, 0.1)
	}
	for {
		gx, gy := e.uniform(-0.2, 0.2), e.uniform(-0.2, 0.2)
		if math.Hypot(gx, gy) < 0.2 {
			q[2], q[3] = gx, gy
			break
		}
	}
	v := e.d.Qvel
	for i := range v {
		v[i] = e.uniform(-0.005, 0.005)
	}
	v[2], v[3] = 0, 0
}

// step computes the reward before simulating, from the previous step's (stale) xpos.
func (t *reacher) step(e *Env, a []float32) (float64, bool) {
	f, g := e.body(t.fingertip), e.body(t.target)
	dist := -math.Sqrt(sq(f[0]-g[0]) + sq(f[1]-g[1]) + sq(f[2]-g[2]))
	ctrl := -ctrlCost(a)
	e.simulate(a)
	e.info[0], e.info[1] = dist, ctrl
	return dist + ctrl, false
}

func (t *reacher) observe(e *Env, obs []float32) {
	q, f, g := e.d.Qpos, e.body(t.fingertip), e.body(t.target)
	obs = put32(obs, math.Cos(q[0]), math.Cos(q[1]), math.Sin(q[0]), math.Sin(q[1]), q[2], q[3])
	obs = putSlice(obs, e.d.Qvel[:2])
	put32(obs, f[0]-g[0], f[1]-g[1], f[2]-g[2])
}

// pusher is Pusher-v4: push a cylinder to a goal with a 7-DoF arm.
type pusher struct {
	tips, object, goal int
}

func (t *pusher) init(m *Model, dt float64) (err error) {
	if t.tips, err = m.ID(mjOBJ_BODY, "tips_arm"); err != nil {
		return err
	}
	if t.object, err = m.ID(mjOBJ_BODY, "object"); err != nil {
		return err
	}
	t.goal, err = m.ID(mjOBJ_BODY, "goal")
	return err
}
func (t *pusher) obsDim() int        { return 23 }
func (t *pusher) infoKeys() []string { return []string{"reward_dist", "reward_ctrl"} }

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

// step computes the reward before simulating, from the previous step's (stale) xpos.
func (t *pusher) step(e *Env, a []float32) (float64, bool) {
	tip, obj, goal := e.body(t.tips), e.body(t.object), e.body(t.goal)
	near := -math.Sqrt(sq(obj[0]-tip[0]) + sq(obj[1]-tip[1]) + sq(obj[2]-tip[2]))
	dist := -math.Sqrt(sq(obj[0]-goal[0]) + sq(obj[1]-goal[1]) + sq(obj[2]-goal[2]))
	ctrl := -ctrlCost(a)
	e.simulate(a)
	e.info[0], e.info[1] = dist, ctrl
	return dist + 0.1*ctrl + 0.5*near, false
}

func (t *pusher) observe(e *Env, obs []float32) {
	obs = putSlice(obs, e.d.Qpos[:7])
	obs = putSlice(obs, e.d.Qvel[:7])
	obs = putSlice(obs, e.body(t.tips))
	obs = putSlice(obs, e.body(t.object))
	putSlice(obs, e.body(t.goal))
}

func sq(x float64) float64 { return x * x }
