package mujoco

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
)

// The v5 tasks are Gymnasium 1.x's revisions of the eleven tasks (docs/design/mujoco.md,
// The v5 tasks). Each is its v4 behaviour with the v5 switch on: the v4 types hold both
// rule sets, each task's configure function (register.go) lists how it differs from
// v4, and this file holds what the v5 rules share. Every v5 task:
//   - takes xml_file, frame_skip and default_camera_config (options.v5Common);
//   - steps as v4 does: ctrl = action, frame_skip mj_step calls, one
//     mj_rnePostConstraint, and reads kinematics as mj_step leaves them (stale);
//   - resets as v4 does, and where Gymnasium returns reset info, reports the state
//     columns of its step info after the reset too.
//
// Gymnasium v5 asks for MuJoCo >= 2.3.3; the package runs it on 2.2.2. Nothing v5 reads
// is missing there, mj_rnePostConstraint and the RK4 step compute cfrc_ext and the stale
// kinematics for these models as every later release (to 3.12) does, and the task
// models compile unchanged. What differs is handled where it arises: a model file 2.2.2
// cannot compile (modelFileHint), a full contact buffer (v5Switch.simulate), the
// orthographic camera field (parseCamera), and the contact geometry of Pusher-v5
// (documented at configurePusherV5).

// v5Switch is embedded in every behaviour. v5 selects Gymnasium v5's rules; camera is
// a v5 task's default_camera_config, kept for renderers (it changes no dynamics).
type v5Switch struct {
	v5     bool
	camera Camera
}

func (s *v5Switch) defaultCamera() Camera { return s.camera }

// simulate runs Env.simulate and, for v5, checks that MuJoCo 2.2.2 kept every contact
// and constraint row. 2.2.2 has fixed-size buffers (nconmax contacts, njmax rows; 100
// and 500 unless the model's <size> element sets them) and drops what does not fit with
// only a warning, where the MuJoCo releases v5 is written for (2.3.0 and later) size them
// per step. The task models stay far below; a model given by xml_file may not, and
// then the episode ends as truncated with the error info column set.
func (s *v5Switch) simulate(e *Env, a []float32) {
	e.simulate(a)
	if s.v5 && e.fault == FaultNone && e.d.WarningCount(mjWARN_CONTACTFULL)+e.d.WarningCount(mjWARN_CNSTRFULL) > 0 {
		e.setFault(FaultMuJoCo, "MuJoCo 2.2.2 ran out of room for contacts (nconmax) or constraints (njmax) and dropped some; "+
			"raise them in the model file with <size nconmax=\"...\" njmax=\"...\"/>")
	}
}

// healthyBonus is the healthy reward of Ant, Hopper, Walker2d and Humanoid. v4 pays it
// on every step while terminate_when_unhealthy is set, the terminating step included;
// v5 pays it only while the body is healthy.
func (s *v5Switch) healthyBonus(reward float64, healthy, terminate bool) float64 {
	if healthy || (terminate && !s.v5) {
		return reward
	}
	return 0
}

// firstBody is the first body whose rows the Ant and humanoid observations carry: v5
// leaves out the world body, whose cinert, cvel and cfrc_ext are always zero.
func (s *v5Switch) firstBody() int { return boolInt(s.v5) }

// rootDofs is how many leading qfrc_actuator values the humanoid observations skip: v5
// leaves out the free root joint's six, which no actuator drives.
func (s *v5Switch) rootDofs() int { return 6 * boolInt(s.v5) }

// atReset reports whether e holds the state its last reset left (time 0, no fault).
// The v5 tasks that return reset info write it from observe then: it is the first of
// their step info columns (positions, heights, tendons), read after the mj_forward of
// Env.Reset, which the tendon values need.
func atReset(e *Env) bool { return e.d.Time() == 0 && e.fault == FaultNone }

// putPlanarPosition writes x_position, y_position and distance_from_origin from qpos
// (Ant, Swimmer) and returns how many columns it wrote.
func putPlanarPosition(e *Env, info []float64) int {
	x, y := e.d.Qpos[0], e.d.Qpos[1]
	info[0], info[1], info[2] = x, y, math.Sqrt(x*x+y*y)
	return 3
}

// heightChange is qpos[i] minus its reset reference qpos0[i]: v5's
// z_distance_from_origin.
func heightChange(e *Env, i int) float64 { return e.d.Qpos[i] - e.m.Qpos0[i] }

// tendons returns views of mjData's ten_length and ten_velocity, which the humanoid v5
// tasks report as info.
func tendons(e *Env) (length, velocity []float64) {
	return e.d.TenLength, e.d.TenVelocity
}

// putTendons writes the tendon lengths, then their velocities, and returns the count.
func putTendons(e *Env, info []float64) int {
	l, v := tendons(e)
	copy(info, l)
	copy(info[len(l):], v)
	return len(l) + len(v)
}

// tendonKeys names the tendon info columns: tendon_length_0, ..., tendon_velocity_0, ...
func tendonKeys(m *Model) []string {
	n := m.int(offM_ntendon)
	keys := make([]string, 0, 2*n)
	for _, name := range []string{"tendon_length_", "tendon_velocity_"} {
		for i := range n {
			keys = append(keys, name+strconv.Itoa(i))
		}
	}
	return keys
}

// clippedSquares is sum(clip(v, lo, hi)^2), the contact costs' measure.
func clippedSquares(v []float64, r [2]float64) float64 {
	s := 0.0
	for _, f := range v {
		c := min(max(f, r[0]), r[1])
		s += c * c
	}
	return s
}

// clip limits x to [r[0], r[1]] as NumPy's clip does for a scalar.
func clip(x float64, r [2]float64) float64 { return min(max(x, r[0]), r[1]) }

// bodyRef is v5's main_body: a body named, or numbered when name is empty.
type bodyRef struct {
	name string
	id   int
}

func (r bodyRef) resolve(m *Model) (int, error) {
	if r.name != "" {
		id, err := m.ID(mjOBJ_BODY, r.name)
		if err != nil {
			return -1, fmt.Errorf("option main_body = %q: %w", r.name, err)
		}
		return id, nil
	}
	if r.id < 0 || r.id >= m.NBody {
		return -1, fmt.Errorf("option main_body = %d: model %s has bodies 0 to %d", r.id, m.Name(), m.NBody-1)
	}
	return r.id, nil
}

// needSizes checks that a model (the task's own, or one given by xml_file) has the
// coordinates and sites the task's rules index.
func needSizes(m *Model, task string, nq, nv, nsite int) error {
	if m.NQ < nq || m.NV < nv || m.NSite < nsite {
		return fmt.Errorf("mujoco: %s needs a model with at least %d qpos, %d qvel and %d sites; %s has %d, %d and %d",
			task, nq, nv, nsite, m.Name(), m.NQ, m.NV, m.NSite)
	}
	return nil
}

// modelFileHint adds to the compile error of a model given by xml_file what MuJoCo
// 2.2.2 needs of it; a file that cannot be read keeps its own error. Gymnasium v5 is
// written for MuJoCo >= 2.3.3, so model files made for it may use what 2.2.2 does not
// know.
func modelFileHint(err error, file, asset string) error {
	var unread *fs.PathError
	if file == asset || errors.As(err, &unread) {
		return err
	}
	return fmt.Errorf("%w (xml_file must be MJCF that MuJoCo 2.2.2 compiles: it refuses elements and attributes of later releases, and a file written for MuJoCo 3, whose autolimits default is true, needs limited=\"true\" beside each range or <compiler autolimits=\"true\"/>)", err)
}
