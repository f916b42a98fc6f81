package dmc

import (
	"fmt"
	"math"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// humanoidCase names what a humanoid domain's tests read: its torso body, the column
// of the torso's xmat row z that measures uprightness, its velocity sensor and its
// extremities, and its sizes.
type humanoidCase struct {
	stand, walk, run string // task ids
	frameSkip        int
	timestep         float64
	seconds          float64 // the suite's time limit
	torso            string
	uprightCol       int
	sensor           string
	extremities      []string
	nq, nv, nu       int
	rootZ            float64
}

// The two humanoid domains as their tests see them.
var (
	humanoidCase21 = humanoidCase{"HumanoidStand-v1", "HumanoidWalk-v1", "HumanoidRun-v1", 5, 0.005, 25, "torso", 2, "torso_subtreelinvel",
		[]string{"left_hand", "left_foot", "right_hand", "right_foot"}, 28, 27, 21, 1.5}
	humanoidCaseCMU = humanoidCase{"HumanoidCMUStand-v1", "HumanoidCMUWalk-v1", "HumanoidCMURun-v1", 10, 0.002, 20, "thorax", 1, "thorax_subtreelinvel",
		[]string{"lhand", "lfoot", "rhand", "rfoot"}, 63, 62, 56, 1}
)

// TestHumanoidSpec: frame skips, action sizes and the observation entries in the
// suite's order, the pure-state task's included.
func TestHumanoidSpec(t *testing.T) {
	for _, c := range []humanoidCase{humanoidCase21, humanoidCaseCMU} {
		for _, id := range []string{c.stand, c.walk, c.run} {
			e, spec := makeEnv(t, id, nil, 0)
			checkTiming(t, e, spec, c.frameSkip, c.timestep, c.seconds)
			if spec.ActionSpace.Size() != c.nu {
				t.Errorf("%s: %d actions, want %d", id, spec.ActionSpace.Size(), c.nu)
			}
			checkLayout(t, spec, fmt.Sprintf("joint_angles:%d", c.nq-7), "head_height:1", "extremities:12", "torso_vertical:3",
				"com_velocity:3", fmt.Sprintf("velocity:%d", c.nv))
		}
	}
	_, spec := makeEnv(t, "HumanoidRunPureState-v1", nil, 0)
	checkLayout(t, spec, "position:28", "velocity:27")
}

// TestHumanoidObservation: the features against the physics state, the extremities
// computed as R^T (x_limb - x_torso) and checked to keep the world distances.
func TestHumanoidObservation(t *testing.T) {
	for _, c := range []humanoidCase{humanoidCase21, humanoidCaseCMU} {
		e, spec := makeEnv(t, c.run, nil, 5)
		p := e.Physics()
		torso, head := mustID(t, p, mujoco.ObjBody, c.torso), mustID(t, p, mujoco.ObjBody, "head")
		rollout(t, e, spec, 12, 6, 7, nil, func(obs []float32) {
			xpos, xmat := p.D.Float64s("xpos"), p.D.Float64s("xmat")
			r := xmat[9*torso : 9*torso+9]
			var ext []float64
			for _, name := range c.extremities {
				b := mustID(t, p, mujoco.ObjBody, name)
				var w [3]float64
				for k := range 3 {
					w[k] = xpos[3*b+k] - xpos[3*torso+k]
				}
				local := inFrame(r, w[:]...)
				checkNear(t, name+" distance", norm(local...), norm(w[:]...))
				ext = append(ext, local...)
			}
			checkEntry(t, spec, obs, "joint_angles", p.D.Qpos[7:]...)
			checkEntry(t, spec, obs, "head_height", xpos[3*head+2])
			checkEntry(t, spec, obs, "extremities", ext...)
			checkEntry(t, spec, obs, "torso_vertical", r[6], r[7], r[8])
			checkEntry(t, spec, obs, "com_velocity", sensorValues(t, p, c.sensor)...)
			checkEntry(t, spec, obs, "velocity", p.D.Qvel...)
		})
	}
	e, spec := makeEnv(t, "HumanoidRunPureState-v1", nil, 5)
	e.Reset()
	e.Step(make([]float32, 21))
	obs, _ := observe(t, e, spec)
	checkEntry(t, spec, obs, "position", e.Physics().D.Qpos...)
	checkEntry(t, spec, obs, "velocity", e.Physics().D.Qvel...)
}

// TestHumanoidReset: a reset leaves no contact, the root at its model position with a
// unit (and varying) orientation, the limited joints within their ranges and zero
// velocities.
func TestHumanoidReset(t *testing.T) {
	for _, c := range []humanoidCase{humanoidCase21, humanoidCaseCMU} {
		e, _ := makeEnv(t, c.stand, nil, 13)
		p := e.Physics()
		limited, ranges, adr, types := p.M.Bytes("jnt_limited"), p.M.Float64s("jnt_range"), p.M.Int32s("jnt_qposadr"), p.M.Int32s("jnt_type")
		w0 := map[bool]int{}
		for range 20 {
			e.Reset()
			q := p.D.Qpos
			if p.D.NCon() != 0 {
				t.Fatalf("%s: %d contacts after reset", c.stand, p.D.NCon())
			}
			if q[0] != 0 || q[1] != 0 || q[2] != c.rootZ {
				t.Fatalf("%s: root position %v", c.stand, q[:3])
			}
			checkNear(t, "root quaternion norm", norm(q[3:7]...), 1)
			if min(q[3], q[4], q[5], q[6]) < 0 {
				t.Fatalf("%s: root quaternion %v has a negative entry (the suite draws it from rand(4))", c.stand, q[3:7])
			}
			w0[q[3] > 0.5]++
			for j := range limited {
				if limited[j] != 0 && int(types[j]) == mujoco.JointHinge {
					if v := q[adr[j]]; v < ranges[2*j] || v > ranges[2*j+1] {
						t.Fatalf("%s: joint %d = %g outside [%g, %g]", c.stand, j, v, ranges[2*j], ranges[2*j+1])
					}
				}
			}
			for i, v := range p.D.Qvel {
				if v != 0 {
					t.Fatalf("%s: qvel[%d] = %g after reset", c.stand, i, v)
				}
			}
		}
		if w0[true] == 0 || w0[false] == 0 {
			t.Errorf("%s: root orientation does not vary: %v", c.stand, w0)
		}
	}
}

// TestHumanoidReward: the rewards at set states (root height, a tilt about x, a
// horizontal velocity, controls) against the formulas written out.
func TestHumanoidReward(t *testing.T) {
	for _, c := range []humanoidCase{humanoidCase21, humanoidCaseCMU} {
		stand, _ := makeEnv(t, c.stand, nil, 0)
		walk, _ := makeEnv(t, c.walk, nil, 0)
		run, _ := makeEnv(t, c.run, nil, 0)
		speed := map[*Env]float64{walk: 1, run: 10}
		for _, s := range []struct {
			dz, tilt, vx, vy, u float64
		}{
			{0, 0, 0, 0, 0}, {-0.2, 0.3, 0.5, -0.4, 0.3}, {-0.5, 1.2, 4, 3, -0.6}, {0.1, 2.5, 12, 1, 1.5}, {-0.3, math.Pi, -7, 2, 0.9},
		} {
			for _, e := range []*Env{stand, walk, run} {
				p := e.Physics()
				q := append([]float64(nil), p.M.Qpos0...)
				q[2] += s.dz
				// Tilt the root about world x: q' = (cos, sin, 0, 0) * q0.
				cw, sw := math.Cos(s.tilt/2), math.Sin(s.tilt/2)
				a := [4]float64{q[3], q[4], q[5], q[6]}
				q[3], q[4], q[5], q[6] = cw*a[0]-sw*a[1], cw*a[1]+sw*a[0], cw*a[2]-sw*a[3], cw*a[3]+sw*a[2]
				v := make([]float64, p.M.NV)
				v[0], v[1] = s.vx, s.vy
				ctrl := make([]float64, p.M.NU)
				for i := range ctrl {
					ctrl[i] = s.u * float64(i%3-1) // -u, 0, u, ...
				}
				got := rewardAt(t, e, q, v, ctrl)
				xpos, xmat := p.D.Float64s("xpos"), p.D.Float64s("xmat")
				torso := mustID(t, p, mujoco.ObjBody, c.torso)
				vel := sensorValues(t, p, c.sensor)
				checkNear(t, "com velocity x", vel[0], s.vx)
				checkNear(t, "com velocity y", vel[1], s.vy)
				standing := gaussianTol(xpos[3*mustID(t, p, mujoco.ObjBody, "head")+2], 1.4, math.Inf(1), 0.35)
				upright := linearTol(xmat[9*torso+6+c.uprightCol], 0.9, math.Inf(1), 1.9, 0)
				small := smallControlByHand(ctrl...)
				var want float64
				if e == stand {
					want = small * standing * upright * (gaussianTol(s.vx, 0, 0, 2) + gaussianTol(s.vy, 0, 0, 2)) / 2
				} else {
					move := linearTol(math.Hypot(s.vx, s.vy), speed[e], math.Inf(1), speed[e], 0)
					want = small * standing * upright * (5*move + 1) / 6
				}
				checkNear(t, e.t.spec.TaskID+" reward", got, want)
			}
		}
	}
}
