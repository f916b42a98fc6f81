package dmc

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The quadruped domain: a four-legged body with three actuated degrees of freedom per
// leg (yaw, lift, extend, through filtered position actuators) (the suite's
// quadruped.py). Four physics steps of 0.005 s per action, 1000 actions. Each task
// compiles the suite's file edited as the suite edits it: walk and run set the floor's
// half size to 10 and 100 and remove the walls, the ball, the target site, the terrain
// geom and the rangefinder sensors; escape sets the floor to 40 and keeps the terrain
// and the rangefinders; fetch keeps the floor (15), walls, ball and target and removes
// the terrain and the rangefinders.
//
// QuadrupedWalk-v1, QuadrupedRun-v1: reward upright * move, upright =
// tolerance(torso_upright, [1, inf], margin 2, linear, 0 at the margin) (torso_upright
// being the torso z axis' world z component), move = tolerance(forward speed (the
// velocimeter's x), [v, inf], margin v, linear, 0.5 at the margin), v = 0.5 (walk) or 5
// (run). Reset: a random orientation (a normalised 4-vector of standard normals) and
// the lowest height, in steps of 1 cm from 0, at which the body touches nothing.
//
// QuadrupedEscape-v1: reward upright(20 degrees) * escape, upright(20) =
// tolerance(torso_upright, [cos 20deg, inf], margin 1 + cos 20deg, linear, 0), escape =
// tolerance(distance from the origin to the workspace site, [30, inf], margin 30,
// linear, 0) (30 being the terrain's half size). Reset: a new terrain in the env's
// model copy's heightfield (a sinusoidal bowl times smooth random bumps: 30 x 30 values
// uniform in [0.15, 1] zoomed to 201 x 201 by cubic-spline interpolation, as scipy's
// ndimage.zoom does), then an orientation and height as in walk.
//
// QuadrupedFetch-v1: reward upright * reach * (0.5 + 0.5 fetch), reach =
// tolerance(horizontal distance from the workspace site to the ball, [0, 0.45],
// margin 15 sqrt 2, linear, 0), fetch = tolerance(horizontal distance from the ball to
// the target site, [0, 0.4], same margin). Reset: a random heading (a yaw uniform in
// [0, 2pi]) at x, y uniform in [-13.5, 13.5] (0.9 of the floor's half size) at the
// lowest height free of contact; the ball at x, y uniform in the same range, z 2, with
// horizontal velocity 5 times standard normals.
//
// Observation of every task: egocentric_state (the 16 leg hinge angles, their
// velocities and the 12 actuator activations, 44), torso_velocity (velocimeter, 3),
// torso_upright (1), imu (accelerometer then gyro, 6), force_torque (asinh of the four
// toes' force then torque sensors, 24). Escape adds origin (the world origin in the
// torso's frame, 3) and rangefinder (20 readings, tanh of the distance, 1 where a ray
// hits nothing); fetch adds ball_state (the ball's position and linear velocity
// relative to the torso and its angular velocity, each in the torso's frame, 9) and
// target_position (the target in the torso's frame, 3).
//
// The suite re-uploads the edited heightfield to its rendering context; these envs do
// not render, so there is nothing to upload.
func init() {
	register(
		&taskDef{domain: "quadruped", task: "walk", frameSkip: 4,
			model: quadrupedModel(quadrupedTimeLimit*quadrupedWalkSpeed, false, false, false), newLogic: newQuadruped(quadrupedMove, quadrupedWalkSpeed)},
		&taskDef{domain: "quadruped", task: "run", frameSkip: 4,
			model: quadrupedModel(quadrupedTimeLimit*quadrupedRunSpeed, false, false, false), newLogic: newQuadruped(quadrupedMove, quadrupedRunSpeed)},
		&taskDef{domain: "quadruped", task: "escape", frameSkip: 4,
			model: quadrupedModel(40, true, true, false), newLogic: newQuadruped(quadrupedEscape, 0)},
		&taskDef{domain: "quadruped", task: "fetch", frameSkip: 4,
			model: quadrupedModel(0, false, false, true), newLogic: newQuadruped(quadrupedFetch, 0)},
	)
}

// The suite's quadruped constants: the time limit in seconds (the walk and run floors
// are sized by it), the walk and run speeds, the terrain's smoothness and bump scale,
// and the bound of the height search.
const (
	quadrupedTimeLimit       = 20
	quadrupedWalkSpeed       = 0.5
	quadrupedRunSpeed        = 5
	quadrupedSmoothness      = 0.15
	quadrupedBumpScale       = 2
	quadrupedMaxHeightSearch = 10000
)

// MuJoCo 2.2.2's sensor types (mjtSensor) that the quadruped reads.
const (
	sensorAccelerometer = 1
	sensorGyro          = 3
	sensorForce         = 4
	sensorTorque        = 5
	sensorRangefinder   = 7
)

// quadrupedKind is which of the quadruped's tasks a logic runs.
type quadrupedKind int

const (
	quadrupedMove quadrupedKind = iota // walk and run
	quadrupedEscape
	quadrupedFetch
)

// quadrupedModel is the suite's make_model: floorSize (0: as shipped) sets the floor's
// half size; the other flags keep the terrain geom, the rangefinder sensors and the
// walls, ball and target.
func quadrupedModel(floorSize float64, terrain, rangefinders, wallsAndBall bool) func(taskOptions) ([]byte, error) {
	return editedModel("quadruped", func(doc []byte) ([]byte, error) {
		var err error
		if floorSize != 0 {
			doc, err = setElementAttr(doc, "geom", "floor", "size", fmt.Sprintf("%g %g .5", floorSize, floorSize))
		}
		if err == nil && !wallsAndBall {
			doc, err = removeNamedElements(doc, "geom", "wall_px", "wall_py", "wall_nx", "wall_ny")
			if err == nil {
				doc, err = removeNamedElements(doc, "body", "ball")
			}
			if err == nil {
				doc, err = removeNamedElements(doc, "site", "target")
			}
		}
		if err == nil && !terrain {
			doc, err = removeNamedElements(doc, "geom", "terrain")
		}
		if err == nil && !rangefinders {
			doc, err = removeAllElements(doc, "rangefinder")
		}
		return doc, err
	})
}

// quadruped is one env's logic of the quadruped tasks.
type quadruped struct {
	plainControl
	noTermination
	kind  quadrupedKind
	speed float64

	torso, workspace int // body, site
	root             Joint
	hinges           []Joint
	act              []float64
	velocimeter      Sensor
	imu, forceTorque []Sensor
	rangefinders     []Sensor

	// escape
	bowl []float64 // the terrain's bowl shape, res x res
	// fetch
	ball, target, floor, ballGeom int // body, site, geom, geom
	ballRoot                      Joint
}

// newQuadruped makes the logic of a task of the kind (walk and run: at speed).
func newQuadruped(kind quadrupedKind, speed float64) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "quadruped")
		q := &quadruped{kind: kind, speed: speed, act: p.D.Float64s("act"),
			torso: r.id(mujoco.ObjBody, "torso"), workspace: r.id(mujoco.ObjSite, "workspace"),
			root: r.joint("root"), velocimeter: r.sensor("velocimeter")}
		if kind == quadrupedFetch {
			q.ball, q.target, q.ballRoot = r.id(mujoco.ObjBody, "ball"), r.id(mujoco.ObjSite, "target"), r.joint("ball_root")
			q.floor, q.ballGeom = r.id(mujoco.ObjGeom, "floor"), r.id(mujoco.ObjGeom, "ball")
		}
		if err := r.err(); err != nil {
			return nil, err
		}
		for j, t := range p.M.Int32s("jnt_type") {
			if t == mujoco.JointHinge {
				q.hinges = append(q.hinges, p.jointAt(j))
			}
		}
		q.imu = sensorsOfType(p, sensorAccelerometer, sensorGyro)
		q.forceTorque = sensorsOfType(p, sensorForce, sensorTorque)
		q.rangefinders = sensorsOfType(p, sensorRangefinder)
		if kind == quadrupedEscape {
			res := p.M.Int32s("hfield_nrow")[0]
			if res != p.M.Int32s("hfield_ncol")[0] {
				return nil, fmt.Errorf("dmc: quadruped: the terrain heightfield is not square")
			}
			q.bowl = quadrupedBowl(int(res))
		}
		return q, nil
	}
}

// quadrupedBowl is the escape terrain's bowl: 0.5 - cos(2 pi r)/2 over a res x res grid
// spanning [-1, 1]^2, r the distance from the centre clipped to [0.04, 1].
func quadrupedBowl(res int) []float64 {
	grid := make([]float64, res)
	for i := range grid {
		grid[i] = float64(i)*(2/float64(res-1)) - 1
	}
	bowl := make([]float64, res*res)
	for i, r := range grid {
		for j, c := range grid {
			radius := min(max(math.Sqrt(c*c+r*r), 0.04), 1)
			bowl[i*res+j] = 0.5 - math.Cos(2*math.Pi*radius)/2
		}
	}
	return bowl
}

// newTerrain writes a new escape terrain into the env's model copy's heightfield: the
// bowl times smooth random bumps.
func (q *quadruped) newTerrain(p *Physics) {
	res := int(p.M.Int32s("hfield_nrow")[0])
	bumpRes := int(2 * p.M.Float64s("hfield_size")[0] / quadrupedBumpScale)
	bumps := make([]float64, bumpRes*bumpRes)
	for i := range bumps {
		bumps[i] = p.Uniform(quadrupedSmoothness, 1)
	}
	smooth := splineZoom(bumps, bumpRes, res)
	data := p.M.Float32s("hfield_data")[p.M.Int32s("hfield_adr")[0]:]
	for i, b := range q.bowl {
		data[i] = float32(b * smooth[i])
	}
}

// findNonContactingHeight is the suite's _find_non_contacting_height: from z = 0 up in
// steps of 1 cm, reset the data, place the torso at x, y, z with the orientation, run
// a forward pass with actuation disabled, until no contact exists.
func (q *quadruped) findNonContactingHeight(p *Physics, quat [4]float64, x, y float64) error {
	z := 0.0
	return startWithoutContacts(p, "quadruped", quadrupedMaxHeightSearch, func() error {
		if err := p.D.Reset(); err != nil {
			return err
		}
		if err := p.forwardPassive(); err != nil {
			return err
		}
		r := p.D.Qpos[q.root.Qpos:]
		r[0], r[1], r[2] = x, y, z
		copy(r[3:7], quat[:])
		z += 0.01
		return nil
	})
}

// initEpisode places the body (escape: on a new terrain) at its lowest contact-free
// height; fetch also throws the ball.
func (q *quadruped) initEpisode(p *Physics) error {
	switch q.kind {
	case quadrupedEscape:
		q.newTerrain(p)
		fallthrough
	case quadrupedMove:
		var quat [4]float64
		randomUnitVector(p, quat[:])
		return q.findNonContactingHeight(p, quat, 0, 0)
	}
	azimuth := p.Uniform(0, 2*math.Pi)
	quat := [4]float64{math.Cos(azimuth / 2), 0, 0, math.Sin(azimuth / 2)}
	spawn := 0.9 * p.ModelRow("geom_size", q.floor, 3)[0]
	x, y := p.Uniform(-spawn, spawn), p.Uniform(-spawn, spawn)
	if err := q.findNonContactingHeight(p, quat, x, y); err != nil {
		return err
	}
	b := p.D.Qpos[q.ballRoot.Qpos:]
	b[0], b[1], b[2] = p.Uniform(-spawn, spawn), p.Uniform(-spawn, spawn), 2
	v := p.D.Qvel[q.ballRoot.Qvel:]
	v[0], v[1] = 5*p.Normal(), 5*p.Normal()
	return nil
}

// upright returns the suite's _upright_reward for a deviation angle in degrees.
func (q *quadruped) upright(p *Physics, deviationDeg float64) float64 {
	dev := math.Cos(deviationDeg * math.Pi / 180)
	return Tolerance(bodyZAxisZ(p, q.torso), dev, math.Inf(1), 1+dev, Linear, 0)
}

// reward is upright times the task's term: moving forward, escaping the bowl, or
// reaching the ball and bringing it to the target.
func (q *quadruped) reward(p *Physics) float64 {
	switch q.kind {
	case quadrupedMove:
		move := Tolerance(p.SensorData(q.velocimeter)[0], q.speed, math.Inf(1), q.speed, Linear, 0.5)
		return q.upright(p, 0) * move
	case quadrupedEscape:
		size := p.M.Float64s("hfield_size")[0]
		escape := Tolerance(norm(vec3(p.SiteXpos, q.workspace)...), size, math.Inf(1), size, Linear, 0)
		return q.upright(p, 20) * escape
	}
	arena := p.ModelRow("geom_size", q.floor, 3)[0] * math.Sqrt2
	workspaceRadius := p.ModelRow("site_size", q.workspace, 3)[0]
	ballRadius := p.ModelRow("geom_size", q.ballGeom, 3)[0]
	targetRadius := p.ModelRow("site_size", q.target, 3)[0]
	ball, w, t := vec3(p.Xpos, q.ball), vec3(p.SiteXpos, q.workspace), vec3(p.SiteXpos, q.target)
	reach := Tolerance(math.Hypot(w[0]-ball[0], w[1]-ball[1]), 0, workspaceRadius+ballRadius, arena, Linear, 0)
	fetch := Tolerance(math.Hypot(t[0]-ball[0], t[1]-ball[1]), 0, targetRadius, arena, Linear, 0)
	return q.upright(p, 0) * reach * (0.5 + 0.5*fetch)
}

// sensorsSize is the number of sensordata values of the sensors.
func sensorsSize(s []Sensor) int {
	n := 0
	for _, x := range s {
		n += x.Dim
	}
	return n
}

// layout is the common entries, and escape's origin and rangefinder or fetch's
// ball_state and target_position.
func (q *quadruped) layout(p *Physics) []envpool.ObsField {
	l := []envpool.ObsField{
		field("egocentric_state", 2*len(q.hinges)+len(q.act)), field("torso_velocity", 3), scalar("torso_upright"),
		field("imu", sensorsSize(q.imu)), field("force_torque", sensorsSize(q.forceTorque)),
	}
	switch q.kind {
	case quadrupedEscape:
		l = append(l, field("origin", 3), field("rangefinder", sensorsSize(q.rangefinders)))
	case quadrupedFetch:
		l = append(l, field("ball_state", 9), field("target_position", 3))
	}
	return l
}

// putInTorsoFrame writes a world vector expressed in the torso's frame.
func (q *quadruped) putInTorsoFrame(p *Physics, o []float32, v [3]float64) []float32 {
	r := vecInFrame(v, mat3(p.Xmat, q.torso))
	return put(o, r[:]...)
}

// observe writes the entries in the suite's order.
func (q *quadruped) observe(p *Physics, o []float32) {
	for _, j := range q.hinges {
		o = put(o, p.D.Qpos[j.Qpos])
	}
	for _, j := range q.hinges {
		o = put(o, p.D.Qvel[j.Qvel])
	}
	o = put(o, q.act...)
	o = put(o, p.SensorData(q.velocimeter)...)
	o = put(o, bodyZAxisZ(p, q.torso))
	for _, s := range q.imu {
		o = put(o, p.SensorData(s)...)
	}
	for _, s := range q.forceTorque {
		for _, v := range p.SensorData(s) {
			o = put(o, math.Asinh(v))
		}
	}
	torso := vec3(p.Xpos, q.torso)
	switch q.kind {
	case quadrupedEscape:
		o = q.putInTorsoFrame(p, o, [3]float64{-torso[0], -torso[1], -torso[2]})
		for _, s := range q.rangefinders {
			for _, v := range p.SensorData(s) {
				if v == -1 {
					o = put(o, 1)
				} else {
					o = put(o, math.Tanh(v))
				}
			}
		}
	case quadrupedFetch:
		bv, tv := p.D.Qvel[q.ballRoot.Qvel:], p.D.Qvel[q.root.Qvel:]
		o = q.putInTorsoFrame(p, o, vecSub3(vec3(p.Xpos, q.ball), torso))
		o = q.putInTorsoFrame(p, o, vecSub3(bv[:3], tv[:3]))
		o = q.putInTorsoFrame(p, o, [3]float64{bv[3], bv[4], bv[5]})
		q.putInTorsoFrame(p, o, vecSub3(vec3(p.SiteXpos, q.target), torso))
	}
}

// splineZoom resizes an n x n grid to m x m as scipy's ndimage.zoom does by default
// (cubic B-spline interpolation after the spline prefilter with mirror boundaries,
// corners aligned: output index i samples input coordinate i (n-1)/(m-1); a coordinate
// past the last sample by rounding yields 0, as scipy's constant mode does).
func splineZoom(in []float64, n, m int) []float64 {
	c := append([]float64(nil), in...)
	for i := range n {
		bsplinePrefilter(c[i*n:], 1, n) // along each row
	}
	for j := range n {
		bsplinePrefilter(c[j:], n, n) // along each column
	}
	step := float64(n-1) / float64(m-1)
	type tap struct {
		idx [4]int
		w   [4]float64
		out bool
	}
	taps := make([]tap, m)
	for i := range taps {
		x := float64(i) * step
		if x > float64(n-1) {
			taps[i].out = true
			continue
		}
		f := math.Floor(x)
		t := x - f
		taps[i].w = [4]float64{(1 - t) * (1 - t) * (1 - t) / 6, (4 - 6*t*t + 3*t*t*t) / 6, (1 + 3*t + 3*t*t - 3*t*t*t) / 6, t * t * t / 6}
		for k := range 4 {
			taps[i].idx[k] = mirrorIndex(int(f)-1+k, n)
		}
	}
	out := make([]float64, m*m)
	for i, r := range taps {
		for j, col := range taps {
			if r.out || col.out {
				continue
			}
			s := 0.0
			for a := range 4 {
				row := c[r.idx[a]*n:]
				for b := range 4 {
					s += r.w[a] * col.w[b] * row[col.idx[b]]
				}
			}
			out[i*m+j] = s
		}
	}
	return out
}

// mirrorIndex reflects an index about the ends of 0..n-1 without repeating them
// (-1 -> 1, n -> n-2).
func mirrorIndex(i, n int) int {
	if n == 1 {
		return 0
	}
	period := 2 * (n - 1)
	i %= period
	if i < 0 {
		i += period
	}
	if i >= n {
		i = period - i
	}
	return i
}

// bsplinePrefilter turns n samples (x[k*stride]) into cubic B-spline coefficients in
// place: the gain of the inverse filter, then its causal and anti-causal first-order
// recursions with the pole sqrt(3) - 2, started as for a mirror-symmetric extension.
func bsplinePrefilter(x []float64, stride, n int) {
	if n < 2 {
		return
	}
	c := make([]float64, n)
	z := math.Sqrt(3) - 2
	gain := (1 - z) * (1 - 1/z)
	for k := range c {
		c[k] = gain * x[k*stride]
	}
	zn := math.Pow(z, float64(n-1))
	sum := c[0] + zn*c[n-1]
	zk := z
	for k := 1; k < n-1; k++ {
		sum += zk * (c[k] + zn*c[n-1-k])
		zk *= z
	}
	c[0] = sum / (1 - zn*zn)
	for k := 1; k < n; k++ {
		c[k] += z * c[k-1]
	}
	c[n-1] = (z*c[n-2] + c[n-1]) * z / (z*z - 1)
	for k := n - 2; k >= 0; k-- {
		c[k] = z * (c[k+1] - c[k])
	}
	for k, v := range c {
		x[k*stride] = v
	}
}
