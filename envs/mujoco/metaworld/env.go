package metaworld

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// The Sawyer arm's controls, as MetaWorld's SawyerXYZEnv drives it.
const (
	// actionScale is the hand's displacement per unit of action (action_scale): the
	// mocap body moves at most a centimetre per axis per step.
	actionScale = 0.01
	// handResetSteps is how many control steps a reset holds the mocap at the task's
	// initial hand position with the gripper open (_reset_hand), so the arm settles.
	handResetSteps = 50
	// objQpos is the first qpos (and qvel) index after the arm's seven joints and the
	// gripper's two: where most models keep their object's joint.
	objQpos = 9
)

// obsLen is the observation's length: the current 18 values (hand position, gripper
// opening, two objects' position and quaternion), the previous step's 18, the goal.
const (
	frameLen = 18
	obsLen   = 2*frameLen + 3
)

// stepInfo is what a task's reward reports: the reward and the info values EnvPool
// gives (success, near_object, grasp_success, grasp_reward, in_place_reward,
// obj_to_target; unscaled_reward is the reward).
type stepInfo struct {
	reward, success, near, graspSuccess, graspReward, inPlace, objToTarget float64
}

// Env is one MetaWorld task instance: its own copy of the task's model (resets move
// bodies and sites of the model), its mjData and its random generator. It implements
// envpool.Env, io.Closer and envpool.Renderer.
type Env struct {
	t   *task
	def *taskDef
	m   *mujoco.Model
	d   *mujoco.Data
	rng *rand.Rand

	ids     map[nameKey]int // resolved names, -1 for absent ones
	missing []string        // names a task asked for that the model lacks

	// Views of the mjData and (own) mjModel arrays the tasks read and write.
	xpos, xquat, geomXpos, geomXmat   []float64
	siteXpos, siteXmat                []float64
	mocapPos, mocapQuat, efcForce     []float64
	bodyPosM, sitePosM, eqData, qpos0 []float64
	qposAdr, siteBody                 []int32
	mocap                             int // the mocap body's mocap index

	elapsed int
	// The episode's positions: the goal (target_pos), the main object's initial
	// position, the hand's (tcp_center) after the hand reset, and the pads' when the
	// env was made, which the grasping rewards measure against.
	target, objInit, initTCP, initLeftPad, initRightPad vec3
	// Task-specific initial positions and distances some rewards use.
	handleInit, windowHandleInit, leverInit, pegHeadInit, stickInit vec3
	objToTargetInit, maxDist                                        float64
	randVec                                                         randVec

	cur, prev [frameLen]float64 // this step's and the previous step's 18 values
	info      stepInfo
	states    *mujoco.FrameStack[float32] // stacked observations (frame_stack > 1)

	fault    int
	faultMsg string
	frames   mujoco.Frames // Render's renderer
}

// nameKey is a MuJoCo object type and name.
type nameKey struct {
	typ  int
	name string
}

// newEnv makes one env of a task with its own model copy and data.
func newEnv(t *task, seed int64) (*Env, error) {
	m, d, err := t.model.CopyWithData()
	if err != nil {
		return nil, err
	}
	e := &Env{t: t, def: t.def, m: m, d: d, ids: map[nameKey]int{},
		rng:  rand.New(rand.NewPCG(uint64(seed), 0x6d77)), // "mw"
		xpos: d.Xpos, xquat: d.Float64s("xquat"), geomXpos: d.Float64s("geom_xpos"), geomXmat: d.Float64s("geom_xmat"),
		siteXpos: d.SiteXpos, siteXmat: d.Float64s("site_xmat"),
		mocapPos: d.Float64s("mocap_pos"), mocapQuat: d.Float64s("mocap_quat"), efcForce: d.Float64s("efc_force"),
		bodyPosM: m.Float64s("body_pos"), sitePosM: m.Float64s("site_pos"), eqData: m.Float64s("eq_data"),
		qpos0: m.Qpos0, qposAdr: m.Int32s("jnt_qposadr"), siteBody: m.Int32s("site_bodyid"),
	}
	if t.stack > 1 {
		e.states = mujoco.NewFrameStack[float32](t.stack, obsLen)
	}
	mocapBody := e.id(mujoco.ObjBody, "mocap")
	if mocapBody < 0 || m.Size("nmocap") == 0 {
		e.Close()
		return nil, fmt.Errorf("metaworld: %s: model %s has no mocap body", t.spec.TaskID, def(t).xml)
	}
	e.mocap = int(m.Int32s("body_mocapid")[mocapBody])
	// The welds that drag the hand after the mocap body hold no offset (reset_mocap_welds):
	// anchor and relative position 0, the identity rotation, torque scale 5.
	types := m.Int32s("eq_type")
	for i, ty := range types {
		if ty == mjEqWeld {
			copy(e.eqData[i*11:(i+1)*11], []float64{0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 5})
		}
	}
	if err := d.Forward(); err != nil {
		e.Close()
		return nil, err
	}
	e.initLeftPad, e.initRightPad = e.bodyPos("leftpad"), e.bodyPos("rightpad")
	e.target, e.objInit = t.def.goalInit, t.def.objInit
	return e, nil
}

// mjEqWeld is MuJoCo's mjEQ_WELD equality type.
const mjEqWeld = 1

func def(t *task) *taskDef { return t.def }

// id resolves a name once per env; an absent name is recorded (a test checks that no
// task asks for one) and reads as -1.
func (e *Env) id(typ int, name string) int {
	k := nameKey{typ, name}
	if id, ok := e.ids[k]; ok {
		return id
	}
	id, err := e.m.ID(typ, name)
	if err != nil {
		id = -1
		e.missing = append(e.missing, name)
	}
	e.ids[k] = id
	return id
}

func row3(a []float64, id int) vec3 {
	if id < 0 {
		return vec3{}
	}
	return vec3(a[3*id : 3*id+3])
}

// bodyPos, sitePos and geomPos are an object's world position (xpos, site_xpos,
// geom_xpos); zeros for an absent name.
func (e *Env) bodyPos(name string) vec3 { return row3(e.xpos, e.id(mujoco.ObjBody, name)) }
func (e *Env) sitePos(name string) vec3 { return row3(e.siteXpos, e.id(mujoco.ObjSite, name)) }
func (e *Env) geomPos(name string) vec3 { return row3(e.geomXpos, e.id(mujoco.ObjGeom, name)) }

// bodyQuat is a body's orientation quaternion (w, x, y, z); zeros for an absent name.
func (e *Env) bodyQuat(name string) [4]float64 {
	id := e.id(mujoco.ObjBody, name)
	if id < 0 {
		return [4]float64{}
	}
	return [4]float64(e.xquat[4*id : 4*id+4])
}

// bodyQuatXYZW is bodyQuat in (x, y, z, w) order, as soccer and the stick tasks
// observe it (scipy's order).
func (e *Env) bodyQuatXYZW(name string) [4]float64 {
	q := e.bodyQuat(name)
	return [4]float64{q[1], q[2], q[3], q[0]}
}

// geomQuat and siteQuat are the orientation of a geom or a site, from its rotation
// matrix, in (x, y, z, w) order, as the sources observe them.
func (e *Env) geomQuat(name string) [4]float64 {
	return matQuatXYZW(e.geomXmat, e.id(mujoco.ObjGeom, name))
}
func (e *Env) siteQuat(name string) [4]float64 {
	return matQuatXYZW(e.siteXmat, e.id(mujoco.ObjSite, name))
}

// matQuatXYZW converts row id of a 3x3 rotation matrix array into a unit quaternion
// (x, y, z, w) as MuJoCo's mju_mat2Quat computes it; zeros for an absent id.
func matQuatXYZW(a []float64, id int) [4]float64 {
	if id < 0 {
		return [4]float64{}
	}
	m := a[9*id : 9*id+9]
	var w, x, y, z float64
	switch tr := m[0] + m[4] + m[8]; {
	case tr > 0:
		w = 0.5 * math.Sqrt(1+tr)
		x = (m[7] - m[5]) / (4 * w)
		y = (m[2] - m[6]) / (4 * w)
		z = (m[3] - m[1]) / (4 * w)
	case m[0] > m[4] && m[0] > m[8]:
		x = 0.5 * math.Sqrt(1+m[0]-m[4]-m[8])
		w = (m[7] - m[5]) / (4 * x)
		y = (m[1] + m[3]) / (4 * x)
		z = (m[2] + m[6]) / (4 * x)
	case m[4] > m[8]:
		y = 0.5 * math.Sqrt(1+m[4]-m[0]-m[8])
		w = (m[2] - m[6]) / (4 * y)
		x = (m[1] + m[3]) / (4 * y)
		z = (m[5] + m[7]) / (4 * y)
	default:
		z = 0.5 * math.Sqrt(1+m[8]-m[0]-m[4])
		w = (m[3] - m[1]) / (4 * z)
		x = (m[2] + m[6]) / (4 * z)
		y = (m[5] + m[7]) / (4 * z)
	}
	n := math.Sqrt(w*w + x*x + y*y + z*z)
	return [4]float64{x / n, y / n, z / n, w / n}
}

// setBodyPos moves a body of the env's own model (the sources' model.body_pos
// writes).
func (e *Env) setBodyPos(name string, p vec3) {
	if id := e.id(mujoco.ObjBody, name); id >= 0 {
		copy(e.bodyPosM[3*id:3*id+3], p[:])
	}
}

// setSitePos puts a site at the world position p, when the site hangs from the world
// body (so that the goal markers show the goal). Written into the model position of a
// site of another body, a world position would be another point, and the goals that
// resets read back from such sites (basketball's, shelf-place's, hammer's) would drift
// from episode to episode; those sites stay on their bodies (docs/design/metaworld.md,
// Goal sites).
func (e *Env) setSitePos(name string, p vec3) {
	if id := e.id(mujoco.ObjSite, name); id >= 0 && e.siteBody[id] == 0 {
		copy(e.sitePosM[3*id:3*id+3], p[:])
	}
}

// siteModelPos and bodyModelPos read a site's or a body's position in its parent
// frame from the model.
func (e *Env) siteModelPos(name string) vec3 { return row3(e.sitePosM, e.id(mujoco.ObjSite, name)) }
func (e *Env) bodyModelPos(name string) vec3 { return row3(e.bodyPosM, e.id(mujoco.ObjBody, name)) }

// jointQpos is a joint's first qpos value; 0 for an absent joint.
func (e *Env) jointQpos(name string) float64 {
	id := e.id(mujoco.ObjJoint, name)
	if id < 0 {
		return 0
	}
	return e.d.Qpos[e.qposAdr[id]]
}

// setJointQpos sets a joint's first qpos value.
func (e *Env) setJointQpos(name string, v float64) {
	if id := e.id(mujoco.ObjJoint, name); id >= 0 {
		e.d.Qpos[e.qposAdr[id]] = v
	}
}

// tcp is the tool centre point, midway between the fingertips' sites (tcp_center).
func (e *Env) tcp() vec3 {
	r, l := e.sitePos("rightEndEffector"), e.sitePos("leftEndEffector")
	return vec3{(r[0] + l[0]) / 2, (r[1] + l[1]) / 2, (r[2] + l[2]) / 2}
}

// setQpos writes values from qpos index start (at most three, and not past nq), zeroes
// six velocities from the same index and runs a forward pass: the sources'
// _set_obj_xyz. With one value and broadcast, all three positions take it, as numpy
// broadcasts a scalar into qpos[9:12].
func (e *Env) setQpos(start int, broadcast bool, vals ...float64) {
	q, v := e.d.Qpos, e.d.Qvel
	end := min(len(q), start+3)
	for i := start; i < end; i++ {
		k := i - start
		switch {
		case broadcast:
			q[i] = vals[0]
		case k < len(vals):
			q[i] = vals[k]
		}
	}
	for i := start; i < min(len(v), start+6); i++ {
		v[i] = 0
	}
	e.forward()
}

// setObjXYZ places the object whose free joint starts at qpos 9.
func (e *Env) setObjXYZ(p vec3) { e.setQpos(objQpos, false, p[:]...) }

// forward is mj_forward; a MuJoCo error becomes the episode's fault.
func (e *Env) forward() {
	if err := e.d.Forward(); err != nil {
		e.setFault(mujoco.FaultMuJoCo, err.Error())
	}
}

// simulate runs n physics steps; a MuJoCo error becomes the episode's fault.
func (e *Env) simulate(n int) {
	for range n {
		if e.fault != mujoco.FaultNone {
			return
		}
		if err := e.d.Step(); err != nil {
			e.setFault(mujoco.FaultMuJoCo, err.Error())
		}
	}
}

// setMocap puts the mocap body at p with the gripper pointing down (quaternion
// (1, 0, 1, 0), which MuJoCo normalises).
func (e *Env) setMocap(p vec3) {
	copy(e.mocapPos[3*e.mocap:3*e.mocap+3], p[:])
	copy(e.mocapQuat[4*e.mocap:4*e.mocap+4], []float64{1, 0, 1, 0})
}

// touching reports whether both gripper pads press on the task's main object: the sum
// of the normal forces of each pad's contacts with it is positive
// (touching_main_object).
func (e *Env) touching() bool {
	obj := e.id(mujoco.ObjGeom, e.def.mainGeom)
	lp, rp := e.id(mujoco.ObjGeom, "leftpad_geom"), e.id(mujoco.ObjGeom, "rightpad_geom")
	if obj < 0 || lp < 0 || rp < 0 {
		return false
	}
	var left, right float64
	for i := range e.d.NCon() {
		c := e.d.Contact(i)
		if c.EfcAddress < 0 || (c.Geom1 != obj && c.Geom2 != obj) {
			continue
		}
		f := e.efcForce[c.EfcAddress]
		if c.Geom1 == lp || c.Geom2 == lp {
			left += f
		}
		if c.Geom1 == rp || c.Geom2 == rp {
			right += f
		}
	}
	return left > 0 && right > 0
}

// frame computes the current 18 observation values: hand position, the fingers'
// opening (their distance over 0.1, clipped to [0, 1]), then the task's objects'
// positions and quaternions, padded with zeros to two objects.
func (e *Env) frame() [frameLen]float64 {
	var o [frameLen]float64
	hand := e.bodyPos("hand")
	copy(o[:3], hand[:])
	o[3] = clamp(dist(e.bodyPos("rightclaw"), e.bodyPos("leftclaw"))/0.1, 0, 1)
	objs := objectsBuf{o: o[4:]}
	e.def.objects(e, &objs)
	return o
}

// objectsBuf collects the observed objects' positions and quaternions.
type objectsBuf struct {
	o []float64
	n int
}

// put adds one object.
func (b *objectsBuf) put(p vec3, q [4]float64) {
	if b.n+7 > len(b.o) {
		return
	}
	b.n += copy(b.o[b.n:], p[:])
	b.n += copy(b.o[b.n:], q[:])
}

// objPos is the first observed object's position (the sources' _get_pos_objects()[:3]).
func (e *Env) objPos() vec3 {
	f := e.frame()
	return vec3(f[4:7])
}

// sampleRandVec draws the reset's random vector uniformly from the task's ranges.
func (e *Env) sampleRandVec() randVec {
	var r randVec
	d := e.def
	for i := range d.randDim {
		r[i] = d.randLow[i] + (d.randHigh[i]-d.randLow[i])*e.rng.Float64()
	}
	e.randVec = r
	return r
}

// randVec is a reset's random vector: the object's part, then the goal's.
type randVec [6]float64

// first and second split the random vector into the object's and the goal's parts.
func (r randVec) first() vec3  { return vec3(r[:3]) }
func (r randVec) second() vec3 { return vec3(r[3:]) }
