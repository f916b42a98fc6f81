package dmc

import (
	"fmt"
	"math"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// fishJointNames are the fish's tail and fin joints, in the suite's order.
var fishJointNames = []string{"tail1", "tail_twist", "tail2", "finright_roll", "finright_pitch", "finleft_roll", "finleft_pitch"}

// TestFishSpec: frame skip 10 (0.04 s of 0.004 s steps), five actuators and the
// observation entries in the suite's order.
func TestFishSpec(t *testing.T) {
	e, spec := makeEnv(t, "FishUpright-v1", nil, 0)
	checkTiming(t, e, spec, 10, 0.004, 40)
	if spec.ActionSpace.Size() != 5 {
		t.Errorf("%d actions, want 5", spec.ActionSpace.Size())
	}
	checkLayout(t, spec, "joint_angles:7", "upright:1", "velocity:13")
	_, spec = makeEnv(t, "FishSwim-v1", nil, 0)
	checkLayout(t, spec, "joint_angles:7", "upright:1", "target:3", "velocity:13")
}

// TestFishObservation: the joint angles by name, the torso's zz, the target in the
// mouth geom's frame (R^T (target - mouth), of the world distance's length) and qvel.
func TestFishObservation(t *testing.T) {
	for _, id := range []string{"FishUpright-v1", "FishSwim-v1"} {
		e, spec := makeEnv(t, id, nil, 8)
		p := e.Physics()
		torso := mustID(t, p, mujoco.ObjBody, "torso")
		mouth, target := mustID(t, p, mujoco.ObjGeom, "mouth"), mustID(t, p, mujoco.ObjGeom, "target")
		rollout(t, e, spec, 10, 5, 4, nil, func(obs []float32) {
			var angles []float64
			for _, name := range fishJointNames {
				angles = append(angles, p.D.Qpos[mustJoint(t, p, name).Qpos])
			}
			checkEntry(t, spec, obs, "joint_angles", angles...)
			checkEntry(t, spec, obs, "upright", p.D.Float64s("xmat")[9*torso+8])
			checkEntry(t, spec, obs, "velocity", p.D.Qvel...)
			if id != "FishSwim-v1" {
				return
			}
			gx, gm := p.D.Float64s("geom_xpos"), p.D.Float64s("geom_xmat")
			r := gm[9*mouth : 9*mouth+9]
			var w [3]float64
			for k := range 3 {
				w[k] = gx[3*target+k] - gx[3*mouth+k]
			}
			local := inFrame(r, w[:]...)
			checkNear(t, "mouth-target distance", norm(local...), norm(w[:]...))
			checkEntry(t, spec, obs, "target", local...)
		})
	}
}

// TestFishReset: the root keeps its position with a unit orientation whose entries
// take both signs, the seven joints lie in [-0.2, 0.2], and the target moves within
// its box (swim) or is hidden (upright).
func TestFishReset(t *testing.T) {
	for _, id := range []string{"FishUpright-v1", "FishSwim-v1"} {
		e, _ := makeEnv(t, id, nil, 17)
		p := e.Physics()
		target := mustID(t, p, mujoco.ObjGeom, "target")
		negative := 0
		for range 100 {
			e.Reset()
			q := p.D.Qpos
			if q[0] != 0 || q[1] != 0 || q[2] != 0.1 {
				t.Fatalf("%s: root position %v", id, q[:3])
			}
			checkNear(t, "root quaternion norm", norm(q[3:7]...), 1)
			if q[3] < 0 {
				negative++
			}
			for _, name := range fishJointNames {
				if v := q[mustJoint(t, p, name).Qpos]; math.Abs(v) > 0.2 {
					t.Fatalf("%s: %s = %g outside [-0.2, 0.2]", id, name, v)
				}
			}
			g := p.M.Float64s("geom_pos")[3*target : 3*target+3]
			alpha := p.M.Float32s("geom_rgba")[4*target+3]
			if id == "FishUpright-v1" {
				if alpha != 0 || g[0] != 0 || g[1] != 0.4 || g[2] != 0.1 {
					t.Fatalf("%s: target at %v with alpha %g, want hidden at its model place", id, g, alpha)
				}
			} else if math.Abs(g[0]) > 0.4 || math.Abs(g[1]) > 0.4 || g[2] < 0.1 || g[2] > 0.3 || alpha == 0 {
				t.Fatalf("%s: target at %v (alpha %g)", id, g, alpha)
			}
		}
		if negative < 25 || negative > 75 {
			t.Errorf("%s: the quaternion's w was negative %d times in 100", id, negative)
		}
	}
}

// TestFishReward: upright = 0.1^((1 - cos tilt)^2) for a tilt about x; swim = (7 *
// in_target + (1 + cos tilt) / 2) / 8 with in_target gaussian in the mouth-target
// distance beyond 0.045, margin 0.09.
func TestFishReward(t *testing.T) {
	up, _ := makeEnv(t, "FishUpright-v1", nil, 0)
	swim, _ := makeEnv(t, "FishSwim-v1", nil, 0)
	target := mustID(t, swim.Physics(), mujoco.ObjGeom, "target")
	for _, s := range []struct{ tilt, tx, ty, tz float64 }{
		{0, 0, 0.0745, 0.1}, {0.4, 0, 0.1, 0.12}, {1.3, 0.2, -0.3, 0.25}, {math.Pi, -0.1, 0.2, 0.1}, {2.2, 0.05, 0.05, 0.15},
	} {
		for _, e := range []*Env{up, swim} {
			p := e.Physics()
			g := p.M.Float64s("geom_pos")[3*target : 3*target+3]
			g[0], g[1], g[2] = s.tx, s.ty, s.tz
			q := append([]float64(nil), p.M.Qpos0...)
			q[3], q[4], q[5], q[6] = math.Cos(s.tilt/2), math.Sin(s.tilt/2), 0, 0
			got := rewardAt(t, e, q, nil, nil)
			c := math.Cos(s.tilt)
			want := gaussianTol(c, 1, 1, 1)
			if e == swim {
				// The mouth's centre is 0.0745 along the torso's y axis from its origin.
				my, mz := 0.0745*c, 0.1+0.0745*math.Sin(s.tilt)
				dist := math.Sqrt(s.tx*s.tx + (s.ty-my)*(s.ty-my) + (s.tz-mz)*(s.tz-mz))
				want = (7*gaussianTol(dist, 0, 0.045, 0.09) + (1+c)/2) / 8
			}
			checkNear(t, fmt.Sprintf("%s reward at tilt %g", e.t.spec.TaskID, s.tilt), got, want)
		}
	}
}
