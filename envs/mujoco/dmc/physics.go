package dmc

import (
	"math/rand/v2"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// Physics is one env's simulation as the suite's tasks see it (dm_control's Physics):
// its own model copy M, its data D, the env's random generator, and the suite's way of
// stepping.
type Physics struct {
	M    *mujoco.Model
	D    *mujoco.Data
	rng  *rand.Rand
	nSub int

	// Views of the mjData arrays the tasks read most, row-major: sensordata, xpos and
	// xmat (bodies), geom_xpos and geom_xmat, site_xpos and site_xmat, subtree_com.
	Sensordata, Xpos, Xmat []float64
	GeomXpos, GeomXmat     []float64
	SiteXpos, SiteXmat     []float64
	SubtreeCom             []float64
}

// newPhysics wraps a model copy and its data, with a generator seeded by the pool, and
// takes the views of the arrays the tasks read.
func newPhysics(m *mujoco.Model, d *mujoco.Data, seed int64, nSub int) *Physics {
	return &Physics{
		M: m, D: d, nSub: nSub,
		rng:        rand.New(rand.NewPCG(uint64(seed), 0x646d63)), // "dmc"
		Sensordata: d.Float64s("sensordata"),
		Xpos:       d.Float64s("xpos"), Xmat: d.Float64s("xmat"),
		GeomXpos: d.Float64s("geom_xpos"), GeomXmat: d.Float64s("geom_xmat"),
		SiteXpos: d.Float64s("site_xpos"), SiteXmat: d.Float64s("site_xmat"),
		SubtreeCom: d.Float64s("subtree_com"),
	}
}

// step is one control step: nSub physics steps the suite's (legacy) way. The data
// already holds mj_step1's results for the current state (a forward pass or the
// previous step's closing mj_step1), so the first step finishes with mj_step2 (RK4
// models take a whole mj_step), the rest are mj_step, and a closing mj_step1 brings
// positions, velocities and sensors in line with the new state, which the observation
// and reward read.
func (p *Physics) step() error { return p.Steps(p.nSub) }

// Steps advances the simulation n physics steps the suite's way (see step); tasks call
// it to settle an initial state (cheetah's 200 steps).
func (p *Physics) Steps(n int) error {
	var err error
	if p.M.Integrator() == mujoco.IntegratorRK4 {
		err = p.D.Step()
	} else {
		err = p.D.Step2()
	}
	for i := 1; i < n && err == nil; i++ {
		err = p.D.Step()
	}
	if err == nil {
		err = p.D.Step1()
	}
	return err
}

// forwardPassive is a forward pass with actuation disabled, as the suite runs one after
// mj_resetData and after initialize_episode. The flag is set on the env's own model copy.
func (p *Physics) forwardPassive() error {
	f := p.M.DisableFlags()
	p.M.SetDisableFlags(f | mujoco.DisableActuation)
	err := p.D.Forward()
	p.M.SetDisableFlags(f)
	return err
}

// Forward is mj_forward, for tasks that recompute derived quantities after setting a
// state (the suite's physics.forward()).
func (p *Physics) Forward() error { return p.D.Forward() }

// finite reports whether qpos and qvel hold only finite values: a step that leaves a
// NaN or an infinity there has diverged, and the env ends the episode.
func (p *Physics) finite() bool { return p.D.StateFinite() }

// Uniform draws from U(lo, hi) with the env's generator.
func (p *Physics) Uniform(lo, hi float64) float64 { return lo + (hi-lo)*p.rng.Float64() }

// Normal draws from N(0, 1) with the env's generator.
func (p *Physics) Normal() float64 { return p.rng.NormFloat64() }

// Intn draws an integer in [0, n) with the env's generator.
func (p *Physics) Intn(n int) int { return p.rng.IntN(n) }

// SensorData returns a sensor's current values (a view into sensordata).
func (p *Physics) SensorData(s Sensor) []float64 {
	return p.Sensordata[s.Adr : s.Adr+s.Dim]
}

// ModelRow returns row id of an mjModel array of the env's own model copy ("geom_size",
// 3; "body_quat", 4; ...), a view the task may write to edit its model per episode.
func (p *Physics) ModelRow(array string, id, cols int) []float64 {
	return p.M.Float64s(array)[id*cols : (id+1)*cols]
}
