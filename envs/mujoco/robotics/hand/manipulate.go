package hand

import (
	"errors"
	"math"

	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv"
)

// RotationRule is the manipulation tasks' goal arithmetic on goals of seven values (a
// position, then a unit quaternion): the position distance (0 when Position is
// false) and the rotation angle between the quaternions (0 when Rotation is false;
// with IgnoreZ the achieved rotation's Euler z angle is replaced by the goal's first).
type RotationRule struct {
	Position, Rotation, IgnoreZ          bool
	DistanceThreshold, RotationThreshold float64
	Dense                                bool
}

// distances returns the position distance and the rotation angle.
func (r RotationRule) distances(a, b []float64) (dPos, dRot float64) {
	if r.Position {
		dPos = goalenv.Distance(a[:3], b[:3])
	}
	if r.Rotation {
		qa, qb := goalenv.Quat(a[3:7]), goalenv.Quat(b[3:7])
		if r.IgnoreZ {
			ea, eb := goalenv.QuatToEuler(qa), goalenv.QuatToEuler(qb)
			ea[2] = eb[2]
			qa = goalenv.EulerToQuat(ea)
		}
		dRot = goalenv.RotationAngle(qa, qb)
	}
	return dPos, dRot
}

// Success is both distances below their thresholds.
func (r RotationRule) Success(a, b []float64) bool {
	p, q := r.distances(a, b)
	return p < r.DistanceThreshold && q < r.RotationThreshold
}

// Reward is 0 on success and -1 otherwise when sparse, -(10 x position distance +
// angle) when dense (metres weighed against radians).
func (r RotationRule) Reward(a, b []float64) float64 {
	if !r.Dense {
		if r.Success(a, b) {
			return 0
		}
		return -1
	}
	p, q := r.distances(a, b)
	return -(10*p + q)
}

// Distance is the info's distance: position distance plus angle.
func (r RotationRule) Distance(a, b []float64) float64 {
	p, q := r.distances(a, b)
	return p + q
}

// manipulate is one env's in-hand manipulation task: turn (and for some ids move) the
// object on the palm to the goal pose.
type manipulate struct {
	o           Options
	act         *actuators
	object      goalenv.Joint // the object's free joint
	target      goalenv.Joint // the goal marker's free joint (pictures only)
	center      int           // the object's centre site
	hidden      int           // the geom drawn when the goal marker shows the object (-1: none)
	touchAdr    []int
	touchSites  []int
	qpos, qvel  []float64
	zero        []float32
	touchValues []float64
}

// newManipulate resolves the names; the object starts where the model puts it.
func newManipulate(s *goalenv.Sim, o Options) (*manipulate, error) {
	act, err := newActuators(s, o.RelativeControl)
	if err != nil {
		return nil, err
	}
	m := &manipulate{o: o, act: act, zero: make([]float32, s.M.NU)}
	var e1, e2, e3, e4 error
	m.object, e1 = s.Joint("object:joint")
	m.target, e2 = s.Joint("target:joint")
	m.center, e3 = s.Site("object:center")
	m.hidden, _ = s.M.ID(mujoco.ObjGeom, "object_hidden")
	m.touchAdr, m.touchSites, e4 = touchSensors(s.M)
	if err := errors.Join(e1, e2, e3, e4); err != nil {
		return nil, err
	}
	if o.TouchVisualisation == "off" {
		rgba := s.M.Float32s("site_rgba")
		for _, id := range m.touchSites {
			rgba[4*id+3] = 0
		}
	}
	return m, s.D.Forward()
}

// rotation draws a rotation as target_rotation asks: about z for "z", about z after
// one of the 24 axis-aligned turns for "parallel", about a random axis for "xyz"
// (and, at the start only, "ignore"), none otherwise.
func (m *manipulate) rotation(s *goalenv.Sim, start bool) (goalenv.Quat, bool) {
	switch m.o.TargetRotation {
	case "z":
		return goalenv.QuatFromAngleAxis(s.Uniform(-math.Pi, math.Pi), [3]float64{0, 0, 1}), true
	case "parallel":
		z := goalenv.QuatFromAngleAxis(s.Uniform(-math.Pi, math.Pi), [3]float64{0, 0, 1})
		p := goalenv.ParallelQuats()
		return goalenv.QuatMul(z, p[s.Rng.IntN(len(p))]), true
	case "ignore":
		if !start {
			return goalenv.Quat{}, false
		}
		fallthrough
	case "xyz":
		angle := s.Uniform(-math.Pi, math.Pi)
		axis := [3]float64{s.Uniform(-1, 1), s.Uniform(-1, 1), s.Uniform(-1, 1)}
		return goalenv.QuatFromAngleAxis(angle, axis), true
	}
	return goalenv.Quat{}, false
}

// Reset turns and shifts the object's start as the options ask, lets the hand settle
// for ten env steps with zero actions, refuses the start when the object fell off the
// palm (its centre below 4 cm), and draws the goal pose from where the object settled.
func (m *manipulate) Reset(s *goalenv.Sim, goal []float64) (bool, error) {
	q := s.Qpos(m.object)
	quat := goalenv.Quat(q[3:7])
	if m.o.RandomizeRotation {
		if off, ok := m.rotation(s, true); ok {
			quat = goalenv.QuatMul(quat, off)
		}
	}
	if m.o.RandomizePosition && m.o.TargetPosition != "fixed" {
		for k := range 3 {
			q[k] += s.Normal(0.005)
		}
	}
	quat = goalenv.Normalize(quat)
	copy(q[3:7], quat[:])
	for range 10 {
		m.act.set(s, nil)
		if err := s.Simulate(); err != nil {
			return false, nil // an unusable start: draw another
		}
	}
	if err := s.D.Forward(); err != nil {
		return false, err
	}
	if s.SitePos(m.center)[2] <= 0.04 {
		return false, nil
	}
	low := [3]float64{m.o.TargetPositionLow0, m.o.TargetPositionLow1, m.o.TargetPositionLow2}
	high := [3]float64{m.o.TargetPositionHi0, m.o.TargetPositionHi1, m.o.TargetPositionHi2}
	copy(goal, q[:3])
	if m.o.TargetPosition == "random" {
		for k := range 3 {
			goal[k] += s.Uniform(low[k], high[k])
		}
	}
	target := goalenv.Quat(q[3:7])
	if r, ok := m.rotation(s, false); ok {
		target = r
	}
	target = goalenv.Normalize(target)
	copy(goal[3:7], target[:])
	return true, nil
}

// Act sets the controls and advances one env step.
func (m *manipulate) Act(s *goalenv.Sim, action []float32) error {
	m.act.set(s, action)
	return s.Simulate()
}

// Achieved is the object's pose: its free joint's position and quaternion.
func (m *manipulate) Achieved(s *goalenv.Sim, dst []float64) { copy(dst, s.Qpos(m.object)) }

// Observe writes the hand's joint positions and velocities, the object's velocity and
// pose, and the touch readings touch_get_obs asks for.
func (m *manipulate) Observe(s *goalenv.Sim, achieved []float64, o []float32) error {
	o = observeRobot(s, &m.qpos, &m.qvel, o)
	o = put(put(o, s.Qvel(m.object)...), achieved...)
	if m.o.TouchGetObs == "off" {
		return nil
	}
	m.touchValues = m.touchValues[:0]
	for _, a := range m.touchAdr {
		v := s.Sensordata[a]
		switch m.o.TouchGetObs {
		case "boolean":
			v = boolValue(v > 0)
		case "log":
			v = math.Log(v + 1)
		}
		m.touchValues = append(m.touchValues, v)
	}
	put(o, m.touchValues...)
	return nil
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// RenderSetup puts the goal marker at the goal pose (15 cm aside when the position is
// not part of the goal), shows the object's hidden faces, and with on_touch colours
// the touch sites red where they sense contact and green elsewhere.
func (m *manipulate) RenderSetup(s *goalenv.Sim, goal []float64) (mujoco.View, error) {
	t := s.Qpos(m.target)
	copy(t, goal)
	if m.o.TargetPosition == "ignore" {
		t[0] += 0.15
	}
	clear(s.Qvel(m.target))
	if m.hidden >= 0 {
		s.M.Float32s("geom_rgba")[4*m.hidden+3] = 1
	}
	if err := s.D.Forward(); err != nil {
		return handView, err
	}
	if m.o.TouchVisualisation == "on_touch" {
		rgba := s.M.Float32s("site_rgba")
		for i, id := range m.touchSites {
			c := []float32{0, 0.5, 0, 0.2}
			if s.Sensordata[m.touchAdr[i]] != 0 {
				c = []float32{1, 0, 0, 0.5}
			}
			copy(rgba[4*id:4*id+4], c)
		}
	}
	return handView, nil
}
