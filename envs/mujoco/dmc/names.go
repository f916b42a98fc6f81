package dmc

// Resolving the names of the model objects a task reads (bodies, sites, geoms, joints,
// sensors), once, when its env is made; the tasks then index mjData by id.

import (
	"fmt"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// ID returns the id of a named model object (mujoco.ObjBody, ObjJoint, ObjSensor, ...),
// or an error naming the model and the object.
func (p *Physics) ID(objType int, name string) (int, error) { return p.M.ID(objType, name) }

// Joint is a resolved joint: where its values start in qpos and qvel.
type Joint struct{ Qpos, Qvel int }

// jointAt returns where joint id's values start in qpos and qvel.
func (p *Physics) jointAt(id int) Joint {
	return Joint{int(p.M.Int32s("jnt_qposadr")[id]), int(p.M.Int32s("jnt_dofadr")[id])}
}

// Sensor is a resolved sensor: its slice of sensordata.
type Sensor struct{ Adr, Dim int }

// sensorAt returns sensor id's slice of sensordata.
func (p *Physics) sensorAt(id int) Sensor {
	return Sensor{int(p.M.Int32s("sensor_adr")[id]), int(p.M.Int32s("sensor_dim")[id])}
}

// sensorsOfType lists the sensors of the given types (mjtSensor values) in id order, as
// the suite's _get_sensor_names does for the quadruped's imu and force-torque entries.
func sensorsOfType(p *Physics, types ...int32) []Sensor {
	var out []Sensor
	for id, t := range p.M.Int32s("sensor_type") {
		for _, want := range types {
			if t == want {
				out = append(out, p.sensorAt(id))
			}
		}
	}
	return out
}

// resolver resolves a task's names one by one and keeps the first failure, so that a
// constructor reads as its list of look-ups followed by one check (err). After a
// failure every look-up returns a placeholder (id -1, zero Joint and Sensor) of the
// right length, so that the constructor can finish without a check of its own.
type resolver struct {
	p      *Physics
	domain string
	first  error
}

// newResolver starts resolving the names of a domain's task in an env's model.
func newResolver(p *Physics, domain string) *resolver { return &resolver{p: p, domain: domain} }

// id returns the id of a named object (mujoco.ObjBody, ObjGeom, ...), or -1 once a
// look-up has failed.
func (r *resolver) id(objType int, name string) int {
	if r.first != nil {
		return -1
	}
	id, err := r.p.ID(objType, name)
	r.first = err
	return id
}

// ids returns the ids of named objects of one type, in the order of names.
func (r *resolver) ids(objType int, names ...string) []int {
	return each(names, func(name string) int { return r.id(objType, name) })
}

// joint returns a named joint (zero once a look-up has failed).
func (r *resolver) joint(name string) Joint { return resolveAt(r, mujoco.ObjJoint, name, r.p.jointAt) }

// joints returns named joints, in the order of names.
func (r *resolver) joints(names ...string) []Joint { return each(names, r.joint) }

// sensor returns a named sensor (zero once a look-up has failed).
func (r *resolver) sensor(name string) Sensor {
	return resolveAt(r, mujoco.ObjSensor, name, r.p.sensorAt)
}

// sensors returns named sensors, in the order of names.
func (r *resolver) sensors(names ...string) []Sensor { return each(names, r.sensor) }

// resolveAt resolves a name of a type and returns what at makes of its id (the zero
// value once a look-up has failed).
func resolveAt[T any](r *resolver, objType int, name string, at func(id int) T) T {
	var zero T
	if id := r.id(objType, name); id >= 0 {
		return at(id)
	}
	return zero
}

// each returns lookUp of each name, in order: the plural of a resolver's look-ups.
func each[T any](names []string, lookUp func(name string) T) []T {
	out := make([]T, len(names))
	for i, n := range names {
		out[i] = lookUp(n)
	}
	return out
}

// err returns the first failure, naming the domain, or nil when every name resolved.
func (r *resolver) err() error {
	if r.first != nil {
		return fmt.Errorf("dmc: %s: %w", r.domain, r.first)
	}
	return nil
}
