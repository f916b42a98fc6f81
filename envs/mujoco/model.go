package mujoco

import (
	"fmt"
	"runtime"
	"sort"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/rlpool/rlpool/clib"
)

// Model is a compiled MuJoCo model (an mjModel). It is read-only after loading, so one
// Model is shared by every env of a task; each env has its own Data.
type Model struct {
	p    unsafe.Pointer
	name string

	// NQ, NV, NU, NBody and NSite are mjModel's sizes: position coordinates, degrees of
	// freedom, actuators, bodies (world included) and sites.
	NQ, NV, NU, NBody, NSite int
	// Timestep is opt.timestep, the length of one mj_step.
	Timestep float64
	// CtrlRange holds the actuators' (low, high) pairs, nu x 2.
	CtrlRange []float64
	// BodyMass holds the bodies' masses, world (0) included.
	BodyMass []float64
	// Qpos0 is the reference configuration mj_resetData restores.
	Qpos0 []float64
}

// LoadModelXML compiles an MJCF document held in memory. name is the file name the
// document is given inside MuJoCo's virtual file system (used in MuJoCo's messages);
// the document must not include other files. No temporary file is written.
func LoadModelXML(name string, xml []byte) (*Model, error) {
	return LoadModelFiles(name, map[string][]byte{name: xml})
}

// LoadModelFiles compiles the MJCF document files[name], which may include the other
// files (as <include file="./common/x.xml"/>; MuJoCo's virtual file system knows files
// by their base names, so the keys of files are base names). No temporary file is
// written.
func LoadModelFiles(name string, files map[string][]byte) (*Model, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	if len(files[name]) == 0 {
		return nil, fmt.Errorf("mujoco: model %s is empty", name)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		if len(n) >= mjMAXVFSNAME {
			return nil, fmt.Errorf("mujoco: file name %q is too long for MuJoCo's file system", n)
		}
		names = append(names, n)
	}
	sort.Strings(names)
	// mjVFS is a plain C struct of about 2 MB; Go memory is fine for it (it is not moved),
	// while the file buffers inside it are MuJoCo's own mallocs, freed by mj_deleteVFS.
	vfs := make([]byte, sizeofMjVFS)
	vp := unsafe.Pointer(&vfs[0])
	cname := cString(name)
	errBuf := make([]byte, 1000)
	var mp uintptr
	var vfsErr error
	err := guard(func() {
		purego.SyscallN(lib.defaultVFS, uintptr(vp))
		defer purego.SyscallN(lib.deleteVFS, uintptr(vp))
		for _, n := range names {
			data := files[n]
			cn := cString(n)
			r, _, _ := purego.SyscallN(lib.makeEmptyFileVFS, uintptr(vp), uintptr(unsafe.Pointer(&cn[0])), uintptr(len(data)))
			idx, _, _ := purego.SyscallN(lib.findFileVFS, uintptr(vp), uintptr(unsafe.Pointer(&cn[0])))
			runtime.KeepAlive(cn)
			if i := int(int32(idx)); r == 0 && i >= 0 {
				buf := *(*unsafe.Pointer)(unsafe.Add(vp, offVFS_filedata+i*8))
				copy(unsafe.Slice((*byte)(buf), len(data)), data)
				continue
			}
			vfsErr = fmt.Errorf("mujoco: cannot add %s to MuJoCo's file system (code %d; a repeated base name, or more than its file limit)", n, int32(r))
			return
		}
		mp, _, _ = purego.SyscallN(lib.loadXML, uintptr(unsafe.Pointer(&cname[0])), uintptr(vp),
			uintptr(unsafe.Pointer(&errBuf[0])), uintptr(len(errBuf)))
	})
	if vfsErr != nil {
		return nil, vfsErr
	}
	runtime.KeepAlive(vfs)
	runtime.KeepAlive(cname)
	runtime.KeepAlive(errBuf)
	if err != nil {
		return nil, fmt.Errorf("mujoco: loading model %s: %w", name, err)
	}
	if mp == 0 {
		msg := clib.GoString(uintptr(unsafe.Pointer(&errBuf[0])))
		if msg == "" {
			msg = "MuJoCo returned no model and no message"
		}
		return nil, fmt.Errorf("mujoco: model %s does not compile: %s", name, msg)
	}
	m := &Model{p: ptrAt(mp), name: name}
	m.NQ, m.NV, m.NU = m.int(offM_nq), m.int(offM_nv), m.int(offM_nu)
	m.NBody, m.NSite = m.int(offM_nbody), m.int(offM_nsite)
	m.Timestep = *(*float64)(unsafe.Add(m.p, offM_opt_timestep))
	m.CtrlRange = m.float64s(offM_actuator_ctrlrange, m.NU*2)
	m.BodyMass = m.float64s(offM_body_mass, m.NBody)
	m.Qpos0 = m.float64s(offM_qpos0, m.NQ)
	return m, nil
}

// Name is the file name the model was loaded under.
func (m *Model) Name() string { return m.name }

func (m *Model) int(off uintptr) int { return int(*(*int32)(unsafe.Add(m.p, off))) }

// float64s returns a view of an mjtNum array of mjModel.
func (m *Model) float64s(off uintptr, n int) []float64 {
	p := *(*unsafe.Pointer)(unsafe.Add(m.p, off))
	if n == 0 || p == nil {
		return nil
	}
	return unsafe.Slice((*float64)(p), n)
}

// Object types of Model.ID, and opt.disableflags' actuation bit and joint types, as
// MuJoCo numbers them.
const (
	ObjBody     = mjOBJ_BODY
	ObjXBody    = mjOBJ_XBODY
	ObjJoint    = mjOBJ_JOINT
	ObjGeom     = mjOBJ_GEOM
	ObjSite     = mjOBJ_SITE
	ObjCamera   = mjOBJ_CAMERA
	ObjActuator = mjOBJ_ACTUATOR
	ObjTendon   = mjOBJ_TENDON
	ObjSensor   = mjOBJ_SENSOR

	DisableActuation = mjDSBL_ACTUATION

	JointFree  = mjJNT_FREE
	JointBall  = mjJNT_BALL
	JointSlide = mjJNT_SLIDE
	JointHinge = mjJNT_HINGE

	IntegratorEuler = mjINT_EULER
	IntegratorRK4   = mjINT_RK4
)

// Integrator returns opt.integrator (IntegratorEuler or IntegratorRK4).
func (m *Model) Integrator() int { return m.int(offM_opt_integrator) }

// ID returns the id of the named object of a type (mjOBJ_BODY, mjOBJ_SITE, ...), or an
// error naming the model when it has none.
func (m *Model) ID(objType int, name string) (int, error) {
	c := cString(name)
	r, _, _ := purego.SyscallN(lib.name2id, uintptr(m.p), uintptr(objType), uintptr(unsafe.Pointer(&c[0])))
	runtime.KeepAlive(c)
	id := int(int32(r))
	if id < 0 {
		return -1, fmt.Errorf("mujoco: model %s has no object named %q (type %d)", m.name, name, objType)
	}
	return id, nil
}

// Copy returns an independent copy of the model (mj_copyModel), for an env that edits
// its model (geom sizes, target positions, disable flags) without touching the shared one.
func (m *Model) Copy() (*Model, error) {
	var mp uintptr
	if err := guard(func() { mp, _, _ = purego.SyscallN(lib.copyModel, 0, uintptr(m.p)) }); err != nil {
		return nil, fmt.Errorf("mujoco: copying model %s: %w", m.name, err)
	}
	if mp == 0 {
		return nil, fmt.Errorf("mujoco: mj_copyModel of %s returned nothing (out of memory?)", m.name)
	}
	c := *m
	c.p = ptrAt(mp)
	c.CtrlRange = c.float64s(offM_actuator_ctrlrange, c.NU*2)
	c.BodyMass = c.float64s(offM_body_mass, c.NBody)
	c.Qpos0 = c.float64s(offM_qpos0, c.NQ)
	return &c, nil
}

// Gravity returns opt.gravity, the gravitational acceleration (m/s^2, world frame),
// which tasks read to weigh a body or to throw an object to a height (the dog's ball).
func (m *Model) Gravity() [3]float64 {
	return *(*[3]float64)(unsafe.Add(m.p, offM_opt_gravity))
}

// DisableFlags returns opt.disableflags (a mask of mjDSBL_* bits).
func (m *Model) DisableFlags() int { return m.int(offM_opt_disableflags) }

// SetDisableFlags sets opt.disableflags. Only on a model no other goroutine steps with
// (a Copy).
func (m *Model) SetDisableFlags(f int) {
	*(*int32)(unsafe.Add(m.p, offM_opt_disableflags)) = int32(f)
}

// Close frees the mjModel. Only call it once no Data made from the model is in use.
func (m *Model) Close() error {
	if m.p != nil {
		purego.SyscallN(lib.deleteModel, uintptr(m.p))
		m.p = nil
	}
	return nil
}

// Data is one simulation state (an mjData) of a Model. Its field views point into
// MuJoCo's memory and stay valid until Close.
type Data struct {
	m *Model
	p unsafe.Pointer

	// Views of the mjData arrays of the same names (qpos, qvel, ctrl, xpos, xipos,
	// site_xpos, cinert, cvel, qfrc_actuator, qfrc_constraint, cfrc_ext, ten_length,
	// ten_velocity), row-major.
	// After mj_step the kinematic ones are one evaluation behind qpos
	// (docs/design/mujoco.md, What every v4 task shares).
	Qpos, Qvel, Ctrl             []float64
	Xpos, Xipos, SiteXpos        []float64
	Cinert, Cvel                 []float64
	QfrcActuator, QfrcConstraint []float64
	CfrcExt                      []float64
	TenLength, TenVelocity       []float64      // tendons' lengths and velocities
	warning                      unsafe.Pointer // mjWarningStat[mjNWARNING]
}

// NewData makes an mjData for m (about 3.3 MB for Ant, most of it MuJoCo's stack).
func NewData(m *Model) (*Data, error) {
	var dp uintptr
	if err := guard(func() { dp, _, _ = purego.SyscallN(lib.makeData, uintptr(m.p)) }); err != nil {
		return nil, fmt.Errorf("mujoco: making data for %s: %w", m.name, err)
	}
	if dp == 0 {
		return nil, fmt.Errorf("mujoco: mj_makeData for %s returned nothing (out of memory?)", m.name)
	}
	d := &Data{m: m, p: ptrAt(dp)}
	d.Qpos = d.float64s(offD_qpos, m.NQ)
	d.Qvel = d.float64s(offD_qvel, m.NV)
	d.Ctrl = d.float64s(offD_ctrl, m.NU)
	d.Xpos = d.float64s(offD_xpos, m.NBody*3)
	d.Xipos = d.float64s(offD_xipos, m.NBody*3)
	d.SiteXpos = d.float64s(offD_site_xpos, m.NSite*3)
	d.Cinert = d.float64s(offD_cinert, m.NBody*10)
	d.Cvel = d.float64s(offD_cvel, m.NBody*6)
	d.QfrcActuator = d.float64s(offD_qfrc_actuator, m.NV)
	d.QfrcConstraint = d.float64s(offD_qfrc_constraint, m.NV)
	d.CfrcExt = d.float64s(offD_cfrc_ext, m.NBody*6)
	d.TenLength, d.TenVelocity = d.Float64s("ten_length"), d.Float64s("ten_velocity")
	d.warning = unsafe.Add(d.p, offD_warning)
	return d, nil
}

func (d *Data) float64s(off uintptr, n int) []float64 {
	p := *(*unsafe.Pointer)(unsafe.Add(d.p, off))
	if n == 0 || p == nil {
		return nil
	}
	return unsafe.Slice((*float64)(p), n)
}

// The exported calls turn a MuJoCo error into an error; the lower-case ones, used on the
// env's hot path, leave the handler's panic to the env's own recover.

// Reset is mj_resetData: qpos0, zero velocities, controls, time, warnings and stack.
func (d *Data) Reset() error { return guard(d.reset) }

// Step is mj_step.
func (d *Data) Step() error { return guard(d.step) }

// Forward is mj_forward.
func (d *Data) Forward() error { return guard(d.forward) }

// RNEPostConstraint is mj_rnePostConstraint, which fills cacc, cfrc_int and cfrc_ext.
func (d *Data) RNEPostConstraint() error { return guard(d.rnePostConstraint) }

func (d *Data) reset()   { purego.SyscallN(lib.resetData, uintptr(d.m.p), uintptr(d.p)) }
func (d *Data) step()    { purego.SyscallN(lib.step, uintptr(d.m.p), uintptr(d.p)) }
func (d *Data) forward() { purego.SyscallN(lib.forward, uintptr(d.m.p), uintptr(d.p)) }
func (d *Data) rnePostConstraint() {
	purego.SyscallN(lib.rnePostConstraint, uintptr(d.m.p), uintptr(d.p))
}

// Step1 is mj_step1: the position- and velocity-dependent half of a step (kinematics,
// collisions, sensors up to velocity), the state the control suite observes.
func (d *Data) Step1() error {
	return guard(func() { purego.SyscallN(lib.step1, uintptr(d.m.p), uintptr(d.p)) })
}

// Step2 is mj_step2: actuation, acceleration and integration, finishing a step that
// mj_step1 began.
func (d *Data) Step2() error {
	return guard(func() { purego.SyscallN(lib.step2, uintptr(d.m.p), uintptr(d.p)) })
}

// Time is the simulation time.
func (d *Data) Time() float64 { return *(*float64)(unsafe.Add(d.p, offD_time)) }

// SetTime sets the simulation time.
func (d *Data) SetTime(t float64) { *(*float64)(unsafe.Add(d.p, offD_time)) = t }

// Unstable reports MuJoCo's bad-value warnings (bad qpos, qvel, qacc or ctrl, after
// which MuJoCo resets the simulation by itself) since the last reset, with a message.
func (d *Data) Unstable() (string, bool) {
	for _, w := range [...]int{mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC, mjWARN_BADCTRL} {
		if d.WarningCount(w) > 0 {
			return fmt.Sprintf("MuJoCo found a bad value (%s) and reset the simulation", warningName(w)), true
		}
	}
	return "", false
}

// WarningCount is how many times warning w (mjWARN_*) was raised since the last reset.
func (d *Data) WarningCount(w int) int {
	return int(*(*int32)(unsafe.Add(d.warning, w*sizeofMjWarningStat+offWarningStat_number)))
}

// Close frees the mjData.
func (d *Data) Close() error {
	if d.p != nil {
		purego.SyscallN(lib.deleteData, uintptr(d.p))
		d.p = nil
	}
	return nil
}
