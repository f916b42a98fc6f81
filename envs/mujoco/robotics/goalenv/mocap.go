package goalenv

import (
	"fmt"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// Mocap bodies move an end effector (the Fetch gripper) through weld constraints: an
// action shifts the mocap body from the pose of the body it is welded to, and the weld
// pulls that body after it during the step.

// mjEQ_WELD and mjBIAS_NONE are MuJoCo's numbers for a weld constraint and for an
// actuator without a bias term (a motor rather than a position servo).
const (
	eqWeld   = 1
	biasNone = 0
)

// ResetMocapWelds makes every weld constraint of the model hold its two bodies at the
// same pose (Gymnasium-Robotics' reset_mocap_welds: the weld's first seven data values
// set to 0, 0, 0, 0, 0, 0, 1, which in MuJoCo 2.2.2's layout are a zero anchor, a zero
// relative position and the identity rotation's first value), then runs a forward
// pass. It edits the model, so only the env's own copy.
func (s *Sim) ResetMocapWelds() error {
	if s.M.Size("nmocap") == 0 {
		return nil
	}
	types, data := s.M.Int32s("eq_type"), s.M.Float64s("eq_data")
	cols := len(data) / max(len(types), 1)
	for i, t := range types {
		if t == eqWeld {
			copy(data[i*cols:i*cols+7], []float64{0, 0, 0, 0, 0, 0, 1})
		}
	}
	return s.D.Forward()
}

// resetMocapToBodies puts each welded mocap body at the pose of the body it is welded
// to (reset_mocap2body_xpos), so that an action moves the effector from where it is.
func (s *Sim) resetMocapToBodies() error {
	types, obj1, obj2 := s.M.Int32s("eq_type"), s.M.Int32s("eq_obj1id"), s.M.Int32s("eq_obj2id")
	mocapID := s.M.Int32s("body_mocapid")
	for i, t := range types {
		if t != eqWeld {
			continue
		}
		mocap, body := mocapID[obj1[i]], obj2[i]
		if mocap == -1 {
			mocap, body = mocapID[obj2[i]], obj1[i]
		}
		if mocap == -1 {
			return fmt.Errorf("goalenv: model %s: weld %d joins no mocap body", s.M.Name(), i)
		}
		copy(s.MocapPos[3*mocap:3*mocap+3], s.Xpos[3*body:3*body+3])
		copy(s.MocapQuat[4*mocap:4*mocap+4], s.Xquat[4*body:4*body+4])
	}
	return nil
}

// MocapAction moves each mocap body by its seven action values (a position change
// and a quaternion change, added to the welded body's pose as Gymnasium-Robotics'
// mocap_set_action adds them; MuJoCo normalises the quaternion), and sets the
// actuators' controls from the values after them (ctrl_set_action): a motor takes its
// value, a position servo the current position of its joint plus the value. action
// holds 7 x nmocap values, then one per actuator.
func (s *Sim) MocapAction(action []float64) error {
	nmocap := s.M.Size("nmocap")
	if len(action) < 7*nmocap+s.M.NU {
		return fmt.Errorf("goalenv: model %s: mocap action of %d values, want %d", s.M.Name(), len(action), 7*nmocap+s.M.NU)
	}
	bias, trn, qadr := s.M.Int32s("actuator_biastype"), s.M.Int32s("actuator_trnid"), s.M.Int32s("jnt_qposadr")
	for i := range s.M.NU {
		v := action[7*nmocap+i]
		if bias[i] != biasNone {
			v += s.D.Qpos[qadr[trn[2*i]]]
		}
		s.D.Ctrl[i] = v
	}
	if nmocap == 0 {
		return nil
	}
	if err := s.resetMocapToBodies(); err != nil {
		return err
	}
	for m := range nmocap {
		a := action[7*m : 7*m+7]
		for k := range 3 {
			s.MocapPos[3*m+k] += a[k]
		}
		for k := range 4 {
			s.MocapQuat[4*m+k] += a[3+k]
		}
	}
	return nil
}

// SetMocapPose sets the named mocap body's position and quaternion.
func (s *Sim) SetMocapPose(body string, pos [3]float64, quat [4]float64) error {
	id, err := s.M.ID(mujoco.ObjBody, body)
	if err != nil {
		return err
	}
	m := int(s.M.Int32s("body_mocapid")[id])
	if m < 0 {
		return fmt.Errorf("goalenv: model %s: body %s is not a mocap body", s.M.Name(), body)
	}
	copy(s.MocapPos[3*m:3*m+3], pos[:])
	copy(s.MocapQuat[4*m:4*m+4], quat[:])
	return nil
}
