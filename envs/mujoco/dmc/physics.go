package dmc

import (
	"fmt"
	"math"
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

// newPhysics wraps a model copy and its data.
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

// finite reports whether qpos and qvel hold only finite values.
func (p *Physics) finite() bool {
	for _, v := range p.D.Qpos {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	for _, v := range p.D.Qvel {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// Uniform draws from U(lo, hi) with the env's generator.
func (p *Physics) Uniform(lo, hi float64) float64 { return lo + (hi-lo)*p.rng.Float64() }

// Normal draws from N(0, 1) with the env's generator.
func (p *Physics) Normal() float64 { return p.rng.NormFloat64() }

// Intn draws an integer in [0, n) with the env's generator.
func (p *Physics) Intn(n int) int { return p.rng.IntN(n) }

// RandomizeLimitedAndRotationalJoints is the suite's randomizers function of the same
// name: a limited hinge or slide joint gets a uniform value in its range, a limited
// ball joint a rotation about a random axis by an angle uniform in [0, range max], an
// unlimited hinge an angle uniform in [-pi, pi], an unlimited ball or free joint a
// random unit quaternion (a free joint keeps its position).
func (p *Physics) RandomizeLimitedAndRotationalJoints() {
	m := p.M
	types, limited := m.Int32s("jnt_type"), m.Bytes("jnt_limited")
	ranges, adr := m.Float64s("jnt_range"), m.Int32s("jnt_qposadr")
	q := p.D.Qpos
	for j := range types {
		a := int(adr[j])
		lo, hi := ranges[2*j], ranges[2*j+1]
		switch typ := int(types[j]); {
		case limited[j] != 0 && (typ == mujoco.JointHinge || typ == mujoco.JointSlide):
			q[a] = p.Uniform(lo, hi)
		case limited[j] != 0 && typ == mujoco.JointBall:
			axis := [3]float64{p.Normal(), p.Normal(), p.Normal()}
			n := math.Sqrt(axis[0]*axis[0] + axis[1]*axis[1] + axis[2]*axis[2])
			angle := p.Uniform(0, hi)
			s := math.Sin(angle / 2)
			q[a], q[a+1], q[a+2], q[a+3] = math.Cos(angle/2), s*axis[0]/n, s*axis[1]/n, s*axis[2]/n
		case typ == mujoco.JointHinge:
			q[a] = p.Uniform(-math.Pi, math.Pi)
		case typ == mujoco.JointBall || typ == mujoco.JointFree:
			if typ == mujoco.JointFree {
				a += 3
			}
			var quat [4]float64
			n := 0.0
			for i := range quat {
				if typ == mujoco.JointBall {
					quat[i] = p.Normal()
				} else {
					quat[i] = p.Uniform(0, 1)
				}
				n += quat[i] * quat[i]
			}
			n = math.Sqrt(n)
			for i := range quat {
				q[a+i] = quat[i] / n
			}
		}
	}
}

// ID returns the id of a named model object (mujoco.ObjBody, ObjJoint, ObjSensor, ...);
// tasks resolve their names once when an env is made.
func (p *Physics) ID(objType int, name string) (int, error) { return p.M.ID(objType, name) }

// Names resolves several names of one object type, stopping at the first missing one.
func (p *Physics) Names(objType int, names ...string) ([]int, error) {
	ids := make([]int, len(names))
	for i, n := range names {
		id, err := p.M.ID(objType, n)
		if err != nil {
			return nil, err
		}
		ids[i] = id
	}
	return ids, nil
}

// Joint is a resolved joint: where its values start in qpos and qvel.
type Joint struct{ Qpos, Qvel int }

// Joints resolves named joints.
func (p *Physics) Joints(names ...string) ([]Joint, error) {
	ids, err := p.Names(mujoco.ObjJoint, names...)
	if err != nil {
		return nil, err
	}
	qa, va := p.M.Int32s("jnt_qposadr"), p.M.Int32s("jnt_dofadr")
	out := make([]Joint, len(ids))
	for i, id := range ids {
		out[i] = Joint{int(qa[id]), int(va[id])}
	}
	return out, nil
}

// Sensor is a resolved sensor: its slice of sensordata.
type Sensor struct{ Adr, Dim int }

// Sensors resolves named sensors.
func (p *Physics) Sensors(names ...string) ([]Sensor, error) {
	ids, err := p.Names(mujoco.ObjSensor, names...)
	if err != nil {
		return nil, err
	}
	adr, dim := p.M.Int32s("sensor_adr"), p.M.Int32s("sensor_dim")
	out := make([]Sensor, len(ids))
	for i, id := range ids {
		out[i] = Sensor{int(adr[id]), int(dim[id])}
	}
	return out, nil
}

// SensorData returns a sensor's current values (a view into mjData).
func (p *Physics) SensorData(s Sensor) []float64 {
	return p.Sensordata[s.Adr : s.Adr+s.Dim]
}

// Row returns row id of an mjData array with cols columns ("xpos", 3; "xmat", 9;
// "site_xpos", 3; ...), a view into mjData.
func (p *Physics) Row(array string, id, cols int) []float64 {
	return p.D.Float64s(array)[id*cols : (id+1)*cols]
}

// ModelRow returns row id of an mjModel array of the env's own model copy, which the
// task may write ("geom_size", 3; "site_pos", 3; ...).
func (p *Physics) ModelRow(array string, id, cols int) []float64 {
	return p.M.Float64s(array)[id*cols : (id+1)*cols]
}

// mustBeNamed turns a resolution error into one naming the domain, for the tasks'
// constructors.
func mustBeNamed(domain string, err error) error {
	if err != nil {
		return fmt.Errorf("dmc: %s: %w", domain, err)
	}
	return nil
}

// put writes float64 values as float32 and returns the rest of dst.
func put(dst []float32, src ...float64) []float32 {
	for i, v := range src {
		dst[i] = float32(v)
	}
	return dst[len(src):]
}
