// Package goalenv is what Gymnasium-Robotics' goal-conditioned robot tasks (Fetch and
// the Shadow hand) share on rlpool's MuJoCo binding: a robot simulation with named
// joints and sites, mocap-driven end effectors, the robot's joint observation,
// quaternion and Euler-angle helpers, goal distances and rewards, and the env that
// lays a task's observation out as Gymnasium's dict of observation, achieved_goal and
// desired_goal and answers compute_reward (envpool.GoalRewarder).
package goalenv

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// Sim is one env's simulation as Gymnasium-Robotics' MujocoRobotEnv drives it: its own
// copy of the task's model (tasks move their goal markers in it), its data, frame_skip
// physics steps per env step, the state captured after the task's setup that every
// episode starts from, and the env's random generator.
type Sim struct {
	M         *mujoco.Model
	D         *mujoco.Data
	FrameSkip int
	Rng       *rand.Rand

	// Views of the mjData arrays the tasks read, row-major: site_xpos, site_xmat, xpos,
	// xquat, mocap_pos, mocap_quat and sensordata.
	SiteXpos, SiteXmat, Xpos, Xquat []float64
	MocapPos, MocapQuat, Sensordata []float64

	initTime           float64
	initQpos, initQvel []float64
	robotQpos          []int // qpos addresses of the robot's joints ("robot*"), in joint order
	robotQvel          []int // their qvel addresses
	jac                []float64
}

// Joint is a joint's place in qpos and qvel and its number of coordinates there.
type Joint struct {
	Qpos, Qvel, NQ, NV int
}

// NewSim copies the shared model (the copy is the env's own) and makes its data, with
// a generator seeded by the pool.
func NewSim(shared *mujoco.Model, frameSkip int, seed int64) (*Sim, error) {
	m, d, err := shared.CopyWithData()
	if err != nil {
		return nil, err
	}
	s := &Sim{
		M: m, D: d, FrameSkip: frameSkip,
		Rng:      rand.New(rand.NewPCG(uint64(seed), 0x676f616c)), // "goal"
		SiteXpos: d.Float64s("site_xpos"), SiteXmat: d.Float64s("site_xmat"),
		Xpos: d.Float64s("xpos"), Xquat: d.Float64s("xquat"),
		MocapPos: d.Float64s("mocap_pos"), MocapQuat: d.Float64s("mocap_quat"),
		Sensordata: d.Float64s("sensordata"),
		initQpos:   make([]float64, m.NQ), initQvel: make([]float64, m.NV),
		jac: make([]float64, 3*m.NV),
	}
	types, qadr, dadr := m.Int32s("jnt_type"), m.Int32s("jnt_qposadr"), m.Int32s("jnt_dofadr")
	for j := range m.Size("njnt") {
		if !strings.HasPrefix(Name(m, "name_jntadr", j), "robot") {
			continue
		}
		nq, nv := jointSizes(int(types[j]))
		for k := range nq {
			s.robotQpos = append(s.robotQpos, int(qadr[j])+k)
		}
		for k := range nv {
			s.robotQvel = append(s.robotQvel, int(dadr[j])+k)
		}
	}
	return s, nil
}

// Close frees the data and the model copy.
func (s *Sim) Close() error {
	s.D.Close()
	return s.M.Close()
}

// Name returns the name of object id from the model's name table, adrArray being the
// mjModel array of that object type's name addresses ("name_jntadr",
// "name_sensoradr", "name_actuatoradr", ...).
func Name(m *mujoco.Model, adrArray string, id int) string {
	names := m.Bytes("names")
	at := int(m.Int32s(adrArray)[id])
	end := at
	for end < len(names) && names[end] != 0 {
		end++
	}
	return string(names[at:end])
}

// jointSizes returns how many qpos and qvel values a joint of the type has.
func jointSizes(typ int) (nq, nv int) {
	switch typ {
	case mujoco.JointFree:
		return 7, 6
	case mujoco.JointBall:
		return 4, 3
	}
	return 1, 1
}

// Joint returns the named joint's addresses.
func (s *Sim) Joint(name string) (Joint, error) {
	id, err := s.M.ID(mujoco.ObjJoint, name)
	if err != nil {
		return Joint{}, err
	}
	nq, nv := jointSizes(int(s.M.Int32s("jnt_type")[id]))
	return Joint{Qpos: int(s.M.Int32s("jnt_qposadr")[id]), Qvel: int(s.M.Int32s("jnt_dofadr")[id]), NQ: nq, NV: nv}, nil
}

// Qpos returns a view of the joint's position coordinates.
func (s *Sim) Qpos(j Joint) []float64 { return s.D.Qpos[j.Qpos : j.Qpos+j.NQ] }

// Qvel returns a view of the joint's velocity coordinates.
func (s *Sim) Qvel(j Joint) []float64 { return s.D.Qvel[j.Qvel : j.Qvel+j.NV] }

// Site returns the id of the named site.
func (s *Sim) Site(name string) (int, error) { return s.M.ID(mujoco.ObjSite, name) }

// Body returns the id of the named body.
func (s *Sim) Body(name string) (int, error) { return s.M.ID(mujoco.ObjBody, name) }

// SitePos returns site id's world position from the last forward pass.
func (s *Sim) SitePos(id int) [3]float64 { return [3]float64(s.SiteXpos[3*id : 3*id+3]) }

// SiteMat returns site id's orientation matrix (row-major) from the last forward pass.
func (s *Sim) SiteMat(id int) [9]float64 { return [9]float64(s.SiteXmat[9*id : 9*id+9]) }

// SiteVel returns site id's linear velocity (angular: false) or angular velocity
// (angular: true) in the world frame, the site's Jacobian times qvel as
// Gymnasium-Robotics' get_site_xvelp and get_site_xvelr compute them.
func (s *Sim) SiteVel(id int, angular bool) ([3]float64, error) {
	var err error
	if angular {
		err = s.D.JacSite(nil, s.jac, id)
	} else {
		err = s.D.JacSite(s.jac, nil, id)
	}
	var v [3]float64
	nv := s.M.NV
	for r := range 3 {
		row := s.jac[r*nv : (r+1)*nv]
		for k, q := range s.D.Qvel {
			v[r] += row[k] * q
		}
	}
	return v, err
}

// RobotObs appends the positions and the velocities of the robot's joints (those whose
// names start with "robot", in the model's order), Gymnasium-Robotics'
// robot_get_obs, to qpos and qvel.
func (s *Sim) RobotObs(qpos, qvel []float64) ([]float64, []float64) {
	for _, a := range s.robotQpos {
		qpos = append(qpos, s.D.Qpos[a])
	}
	for _, a := range s.robotQvel {
		qvel = append(qvel, s.D.Qvel[a])
	}
	return qpos, qvel
}

// RobotSizes returns how many position and velocity values RobotObs gives.
func (s *Sim) RobotSizes() (nq, nv int) { return len(s.robotQpos), len(s.robotQvel) }

// Capture records the current time, qpos and qvel as the state every episode starts
// from (MujocoRobotEnv's initial_time, initial_qpos and initial_qvel, taken after the
// task's setup).
func (s *Sim) Capture() {
	s.initTime = s.D.Time()
	copy(s.initQpos, s.D.Qpos)
	copy(s.initQvel, s.D.Qvel)
}

// Restore is MujocoRobotEnv's _reset_sim: mj_resetData (which also clears warm starts,
// controls and the mocap bodies' poses), the captured time, qpos and qvel, and a
// forward pass.
func (s *Sim) Restore() error {
	if err := s.D.Reset(); err != nil {
		return err
	}
	s.D.SetTime(s.initTime)
	copy(s.D.Qpos, s.initQpos)
	copy(s.D.Qvel, s.initQvel)
	clear(s.D.Float64s("act"))
	return s.D.Forward()
}

// Simulate advances the simulation FrameSkip physics steps (one env step), and reports
// MuJoCo's errors and bad-value warnings as errors.
func (s *Sim) Simulate() error {
	for range s.FrameSkip {
		if err := s.D.Step(); err != nil {
			return err
		}
	}
	if msg, bad := s.D.Unstable(); bad {
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// Dt is the length of one env step in simulated seconds (frame_skip x timestep).
func (s *Sim) Dt() float64 { return float64(s.FrameSkip) * s.M.Timestep }

// Uniform draws from U(lo, hi) with the env's generator.
func (s *Sim) Uniform(lo, hi float64) float64 { return lo + (hi-lo)*s.Rng.Float64() }

// Normal draws from N(0, sd^2) with the env's generator.
func (s *Sim) Normal(sd float64) float64 { return sd * s.Rng.NormFloat64() }
