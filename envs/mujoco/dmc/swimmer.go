package dmc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The swimmer domain: an n-link planar swimmer in a viscous fluid that must bring its
// nose to a target (the suite's swimmer.py). Control timestep 0.03 s over a 0.002 s
// model step: frame skip 15. SwimmerSwimmer6-v1 has 6 bodies, SwimmerSwimmer15-v1 15.
//
// Model: generated from swimmer.xml as the suite generates it: the head gets a chain
// of n-1 segments (segment_i at 0 .1 0 in its parent, with geoms visual_i and
// inertial_i, site site_i and a hinge joint_i limited to ±360/n degrees), each joint a
// motor motor_i and each site a velocimeter_i and a gyro_i, in new actuator and sensor
// sections; the tracking cameras move away by n/6.
//
// Reward: tolerance(the nose-to-target distance in the head's x-y plane, [0, r],
// margin 5r, long_tail, 0.1 at the margin), r being the target's radius (0.1).
//
// Reset: the root's rotation uniform in [-pi, pi] and the link joints uniform in their
// ranges (the root's slides stay at 0); the target (geom and light) at x, y uniform in
// [-0.3, 0.3] with probability 0.2, else in [-2, 2]. No termination.
//
// Observation: joints (qpos without the root's 3 values, n-1), to_target (the target
// minus the nose, in the head's frame, x and y, 2), body_velocities (for the head and
// every segment, the x and y of its velocimeter and the z of its gyro, 3n).
func init() {
	for _, n := range []int{6, 15} {
		register(&taskDef{domain: "swimmer", task: fmt.Sprintf("swimmer%d", n), frameSkip: 15,
			model:    func(taskOptions) ([]byte, error) { return swimmerModel(n) },
			newLogic: newSwimmer})
	}
}

// swimmerFixedSensors is the number of sensordata values before the body velocities:
// nose_pos, target_pos, head_xaxis and head_yaxis.
const swimmerFixedSensors = 12

// swimmerObjLight is MuJoCo 2.2.2's mjOBJ_LIGHT (between mjOBJ_CAMERA, 7, and
// mjOBJ_MESH, 9), which the mujoco package does not export.
const swimmerObjLight = 8

// swimmerModel builds the document of an n-body swimmer from the suite's swimmer.xml,
// as the suite's _make_model does.
func swimmerModel(n int) ([]byte, error) {
	if n < 3 {
		return nil, fmt.Errorf("dmc: swimmer: at least 3 bodies required, got %d", n)
	}
	doc, err := ModelXML("swimmer")
	if err != nil {
		return nil, err
	}
	limit := swimmerNumber(360.0 / float64(n))
	var chain, actuators, sensors strings.Builder
	for i := range n - 1 {
		fmt.Fprintf(&chain, `<body name="segment_%d" pos="0 .1 0"><geom class="visual" name="visual_%d"/><geom class="inertial" name="inertial_%d"/>`, i, i, i)
		fmt.Fprintf(&chain, `<site name="site_%d"/><joint name="joint_%d" range="-%s %s"/>`, i, i, limit, limit)
		fmt.Fprintf(&actuators, "    <motor name=\"motor_%d\" joint=\"joint_%d\"/>\n", i, i)
		fmt.Fprintf(&sensors, "    <velocimeter name=\"velocimeter_%d\" site=\"site_%d\"/>\n    <gyro name=\"gyro_%d\" site=\"site_%d\"/>\n", i, i, i, i)
	}
	chain.WriteString(strings.Repeat("</body>", n-1))
	doc, err = appendToElement(doc, "body", "head", chain.String())
	if err == nil {
		doc, err = appendToElement(doc, "mujoco", "", "  <actuator>\n"+actuators.String()+"  </actuator>\n  <sensor>\n"+sensors.String()+"  </sensor>\n")
	}
	if err == nil {
		doc, err = swimmerMoveCameras(doc, float64(n)/6)
	}
	if err != nil {
		return nil, fmt.Errorf("dmc: swimmer: %w", err)
	}
	return doc, nil
}

// swimmerMoveCameras scales the pos of the head's tracking cameras (mode trackcom), so
// that a longer swimmer stays in view.
func swimmerMoveCameras(doc []byte, scale float64) ([]byte, error) {
	head, ok, err := mjcfFind(doc, "body", "head")
	if err != nil || !ok {
		return nil, fmt.Errorf("swimmer.xml lacks the head body (%v)", err)
	}
	elems, err := mjcfElements(doc)
	if err != nil {
		return nil, err
	}
	for _, e := range elems {
		if mode, _ := e.attr("mode"); e.tag != "camera" || mode != "trackcom" || e.start < head.start || e.end > head.end {
			continue
		}
		name, _ := e.attr("name")
		pos, _ := e.attr("pos")
		fields := strings.Fields(pos)
		for k, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("camera %s: pos %q: %w", name, pos, err)
			}
			fields[k] = swimmerNumber(v * scale)
		}
		// setElementAttr changes only this camera's value, so the spans of the
		// cameras after it move but their order and names do not.
		if doc, err = setElementAttr(doc, "camera", name, "pos", strings.Join(fields, " ")); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// swimmerNumber writes a number of the generated document in the shortest form that
// reads back exactly.
func swimmerNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// swimmer is one env's logic of the swimmer tasks.
type swimmer struct {
	plainControl
	noTermination
	head         int
	nose, target int // geoms
	light        int
}

// newSwimmer makes the logic of a swimmer task (the body count is in the model).
func newSwimmer(p *Physics, _ taskOptions) (logic, error) {
	r := newResolver(p, "swimmer")
	s := &swimmer{head: r.id(mujoco.ObjBody, "head"), nose: r.id(mujoco.ObjGeom, "nose"), target: r.id(mujoco.ObjGeom, "target"),
		light: r.id(swimmerObjLight, "target_light")}
	return s, r.err()
}

// initEpisode draws the joints and moves the target and its light, near with
// probability 0.2.
func (s *swimmer) initEpisode(p *Physics) error {
	p.RandomizeLimitedAndRotationalJoints()
	box := 2.0
	if p.Uniform(0, 1) < 0.2 {
		box = 0.3
	}
	x, y := p.Uniform(-box, box), p.Uniform(-box, box)
	g, l := p.ModelRow("geom_pos", s.target, 3), p.ModelRow("light_pos", s.light, 3)
	g[0], g[1] = x, y
	l[0], l[1] = x, y
	return nil
}

// noseToTarget is the target minus the nose in the head's frame, x and y.
func (s *swimmer) noseToTarget(p *Physics) (float64, float64) {
	v := vecInFrame(vecSub3(vec3(p.GeomXpos, s.target), vec3(p.GeomXpos, s.nose)), mat3(p.Xmat, s.head))
	return v[0], v[1]
}

// reward is the long-tail tolerance of the nose's distance to the target.
func (s *swimmer) reward(p *Physics) float64 {
	r := p.ModelRow("geom_size", s.target, 3)[0]
	return Tolerance(norm(s.noseToTarget(p)), 0, r, 5*r, LongTail, DefaultValueAtMargin)
}

// layout is joints, to_target and body_velocities (three per body).
func (s *swimmer) layout(p *Physics) []envpool.ObsField {
	bodies := (len(p.Sensordata) - swimmerFixedSensors) / 6
	return []envpool.ObsField{field("joints", p.M.NQ-3), field("to_target", 2), field("body_velocities", 3*bodies)}
}

// observe writes the link joints, the target in the head's frame and each body's
// velocimeter x, y and gyro z.
func (s *swimmer) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos[3:]...)
	x, y := s.noseToTarget(p)
	o = put(o, x, y)
	for v := p.Sensordata[swimmerFixedSensors:]; len(v) >= 6; v = v[6:] {
		o = put(o, v[0], v[1], v[5])
	}
}
