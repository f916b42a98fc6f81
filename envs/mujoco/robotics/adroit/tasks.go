package adroit

import (
	"math"

	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot"
)

// Door: open a door by its handle. Reset: the door frame's body is placed uniformly in
// x [-0.3, -0.2], y [0.25, 0.35], z [0.252, 0.35]. Observation (39): qpos[1:nq-2]
// (the arm and hand but the first slide, without the door's two joints), the latch
// angle, the hinge angle, the palm, the handle and their difference, and 1 or -1 as
// the hinge is past 1 rad or not. Success: hinge angle >= 1.35 (the distance info).
// Dense reward, as EnvPool's (Gymnasium-Robotics v1): 0.1 |palm - handle| (the v1
// sign, which pays for moving away from the handle), - 0.1 (hinge - 1.57)^2, - 1e-5
// |qvel|^2, + 2 past 0.2 rad, + 8 past 1 rad, + 10 on success.
type Door struct {
	// Hinge is the door hinge's qpos address; Palm and Handle are sites, Frame a body.
	Hinge, Palm, Handle, Frame int
}

func newDoor(s *mjrobot.Sim, r resolver) logic {
	hinge := r.id(mujoco.ObjJoint, "door_hinge")
	d := &Door{Palm: r.site("S_grasp"), Handle: r.site("S_handle"), Frame: r.body("frame")}
	if hinge >= 0 {
		d.Hinge = int(s.M.Int32s("jnt_qposadr")[hinge])
	}
	return d
}

func (d *Door) reset(s *mjrobot.Sim) {
	p := s.ModelRow("body_pos", d.Frame, 3)
	p[0], p[1], p[2] = s.Uniform(-0.3, -0.2), s.Uniform(0.25, 0.35), s.Uniform(0.252, 0.35)
}

func (d *Door) observe(s *mjrobot.Sim, o []float32) {
	q := s.D.Qpos
	nq := len(q)
	o = mjrobot.Put(o, q[1:nq-2]...)
	door := q[d.Hinge]
	open := -1.0
	if door > 1 {
		open = 1
	}
	palm, handle := s.Site(d.Palm), s.Site(d.Handle)
	o = mjrobot.Put(o, q[nq-1], door)
	o = mjrobot.Put(o, palm[:]...)
	o = mjrobot.Put(o, handle[:]...)
	diff := sub(palm, handle)
	o = mjrobot.Put(o, diff[:]...)
	mjrobot.Put(o, open)
}

func (d *Door) score(s *mjrobot.Sim) (float64, float64, bool) {
	door := s.D.Qpos[d.Hinge]
	success := door >= 1.35
	r := 0.1*norm(sub(s.Site(d.Palm), s.Site(d.Handle))) - 0.1*(door-1.57)*(door-1.57) - 1e-5*sumSq(s.D.Qvel)
	if door > 0.2 {
		r += 2
	}
	if door > 1 {
		r += 8
	}
	if success {
		r += 10
	}
	return r, door, success
}

// Hammer: drive a nail into a board with a hammer. Reset: the board's height (body
// z) is uniform in [0.1, 0.25]. Observation (46): qpos[:nq-6] (the arm and hand),
// the hammer's six velocities clipped to [-1, 1], the palm, the hammer's position and
// its orientation as Euler angles, the nail's position, and the nail's touch sensor
// clipped to [-1, 1]. Distance: from the nail (S_target) to its goal site; success
// below 0.01. Dense reward: 0.1 |palm - hammer| (the sources' sign), - |head - nail|,
// - 10 distance, - 0.01 |qvel|, + 2 with hammer and head above 0.04, + 25 below
// 0.02, + 75 on success.
type Hammer struct {
	Nail, Palm, Tool, Goal int // sites
	Object, Board          int // bodies
	touch                  int // the nail sensor's sensordata address
}

func newHammer(s *mjrobot.Sim, r resolver) logic {
	h := &Hammer{Nail: r.site("S_target"), Palm: r.site("S_grasp"), Tool: r.site("tool"), Goal: r.site("nail_goal"), Object: r.body("Object"), Board: r.body("nail_board")}
	if id := r.id(mujoco.ObjSensor, "S_nail"); id >= 0 {
		h.touch = int(s.M.Int32s("sensor_adr")[id])
	}
	return h
}

func (h *Hammer) reset(s *mjrobot.Sim) {
	s.ModelRow("body_pos", h.Board, 3)[2] = s.Uniform(0.1, 0.25)
}

func (h *Hammer) observe(s *mjrobot.Sim, o []float32) {
	q, v := s.D.Qpos, s.D.Qvel
	o = mjrobot.Put(o, q[:len(q)-6]...)
	for _, x := range v[len(v)-6:] {
		o = mjrobot.Put(o, clip1(x))
	}
	palm, obj, nail := s.Site(h.Palm), s.Body(h.Object), s.Site(h.Nail)
	rot := goalenv.QuatToEuler(s.BodyQuat(h.Object))
	o = mjrobot.Put(o, palm[:]...)
	o = mjrobot.Put(o, obj[:]...)
	o = mjrobot.Put(o, rot[:]...)
	o = mjrobot.Put(o, nail[:]...)
	mjrobot.Put(o, clip1(s.Sensordata[h.touch]))
}

func (h *Hammer) score(s *mjrobot.Sim) (float64, float64, bool) {
	hammer, palm, head, nail := s.Body(h.Object), s.Site(h.Palm), s.Site(h.Tool), s.Site(h.Nail)
	d := norm(sub(nail, s.Site(h.Goal)))
	success := d < 0.01
	r := 0.1*norm(sub(palm, hammer)) - norm(sub(head, nail)) - 10*d - 1e-2*math.Sqrt(sumSq(s.D.Qvel))
	if hammer[2] > 0.04 && head[2] > 0.04 {
		r += 2
	}
	if d < 0.02 {
		r += 25
	}
	if success {
		r += 75
	}
	return r, d, success
}

// Pen: turn a pen in the hand to a target orientation. Reset: the target body's
// orientation is the quaternion of Euler angles (x, y, 0) with x, y uniform in
// [-1, 1]. Orientations are the unit vectors from a pen's bottom site to its top
// (divided by the length they have after the reset). Observation (45): qpos[:nq-6],
// the pen's position, its six velocities, its orientation, the target's, the pen's
// offset from the eps_ball site and the orientations' difference. Distance: from the
// pen to eps_ball; success: distance < 0.075 and orientation similarity (dot
// product) > 0.95. Dense reward: - distance + similarity, + 10 when distance < 0.075
// and similarity > 0.9, + 50 on success, - 5 with the pen below 0.075.
type Pen struct {
	Object, Target                                      int // bodies
	Ball, ObjectTop, ObjectBottom, TargetTop, TargetBot int // sites
	penLength, targetLength                             float64
}

func newPen(_ *mjrobot.Sim, r resolver) logic {
	return &Pen{
		Object: r.body("Object"), Target: r.body("target"), Ball: r.site("eps_ball"),
		ObjectTop: r.site("object_top"), ObjectBottom: r.site("object_bottom"),
		TargetTop: r.site("target_top"), TargetBot: r.site("target_bottom"),
	}
}

func (p *Pen) reset(s *mjrobot.Sim) {
	q := goalenv.EulerToQuat([3]float64{s.Uniform(-1, 1), s.Uniform(-1, 1), 0})
	copy(s.ModelRow("body_quat", p.Target, 4), q[:])
	s.Forward()
	p.penLength = norm(sub(s.Site(p.ObjectTop), s.Site(p.ObjectBottom)))
	p.targetLength = norm(sub(s.Site(p.TargetTop), s.Site(p.TargetBot)))
}

// orientation is the unit vector from bottom to top, by the length after the reset.
func orientation(s *mjrobot.Sim, top, bottom int, length float64) [3]float64 {
	if length <= 0 {
		return [3]float64{}
	}
	d := sub(s.Site(top), s.Site(bottom))
	return [3]float64{d[0] / length, d[1] / length, d[2] / length}
}

func (p *Pen) orientations(s *mjrobot.Sim) (obj, want [3]float64) {
	return orientation(s, p.ObjectTop, p.ObjectBottom, p.penLength), orientation(s, p.TargetTop, p.TargetBot, p.targetLength)
}

func (p *Pen) observe(s *mjrobot.Sim, o []float32) {
	q, v := s.D.Qpos, s.D.Qvel
	pos, ball := s.Body(p.Object), s.Site(p.Ball)
	obj, want := p.orientations(s)
	o = mjrobot.Put(o, q[:len(q)-6]...)
	o = mjrobot.Put(o, pos[:]...)
	o = mjrobot.Put(o, v[len(v)-6:]...)
	o = mjrobot.Put(o, obj[:]...)
	o = mjrobot.Put(o, want[:]...)
	off, turn := sub(pos, ball), sub(obj, want)
	o = mjrobot.Put(o, off[:]...)
	mjrobot.Put(o, turn[:]...)
}

func (p *Pen) score(s *mjrobot.Sim) (float64, float64, bool) {
	pos := s.Body(p.Object)
	obj, want := p.orientations(s)
	d, sim := norm(sub(pos, s.Site(p.Ball))), dot(obj, want)
	success := d < 0.075 && sim > 0.95
	r := -d + sim
	if d < 0.075 && sim > 0.9 {
		r += 10
	}
	if success {
		r += 50
	}
	if pos[2] < 0.075 {
		r -= 5
	}
	return r, d, success
}

// Relocate: carry a ball to a target. Reset: the ball's body is placed uniformly in x
// [-0.15, 0.15], y [-0.15, 0.3]; the target site in x, y [-0.2, 0.2], z [0.15, 0.35].
// Observation (39): qpos[:nq-6], palm - ball, palm - target, ball - target. Distance:
// ball to target; success below 0.1. Dense reward: 0.1 |palm - ball| (the sources'
// sign), and with the ball lifted above 0.04: + 1 - 0.5 |palm - target| - 0.5
// distance; + 10 below 0.1, + 20 more below 0.05.
type Relocate struct {
	Target, Palm int // sites
	Object       int // body
}

func newRelocate(_ *mjrobot.Sim, r resolver) logic {
	return &Relocate{Target: r.site("target"), Palm: r.site("S_grasp"), Object: r.body("Object")}
}

func (l *Relocate) reset(s *mjrobot.Sim) {
	b := s.ModelRow("body_pos", l.Object, 3)
	b[0], b[1] = s.Uniform(-0.15, 0.15), s.Uniform(-0.15, 0.3)
	t := s.ModelRow("site_pos", l.Target, 3)
	t[0], t[1], t[2] = s.Uniform(-0.2, 0.2), s.Uniform(-0.2, 0.2), s.Uniform(0.15, 0.35)
}

func (l *Relocate) observe(s *mjrobot.Sim, o []float32) {
	q := s.D.Qpos
	palm, obj, target := s.Site(l.Palm), s.Body(l.Object), s.Site(l.Target)
	o = mjrobot.Put(o, q[:len(q)-6]...)
	a, b, c := sub(palm, obj), sub(palm, target), sub(obj, target)
	o = mjrobot.Put(o, a[:]...)
	o = mjrobot.Put(o, b[:]...)
	mjrobot.Put(o, c[:]...)
}

func (l *Relocate) score(s *mjrobot.Sim) (float64, float64, bool) {
	palm, obj, target := s.Site(l.Palm), s.Body(l.Object), s.Site(l.Target)
	d := norm(sub(obj, target))
	r := 0.1 * norm(sub(palm, obj))
	if obj[2] > 0.04 {
		r += 1 - 0.5*norm(sub(palm, target)) - 0.5*d
	}
	if d < 0.1 {
		r += 10
	}
	if d < 0.05 {
		r += 20
	}
	return r, d, d < 0.1
}
