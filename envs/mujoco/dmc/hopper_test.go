package dmc

import (
	"math"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// TestHopperSpec: frame skip 4 (0.02 s of 0.005 s steps), four actuators, and the
// observation's entries in the suite's order.
func TestHopperSpec(t *testing.T) {
	for _, id := range []string{"HopperStand-v1", "HopperHop-v1"} {
		e, spec := makeEnv(t, id, nil, 0)
		checkTiming(t, e, spec, 4, 0.005, 20)
		if spec.ActionSpace.Size() != 4 {
			t.Errorf("%s: %d actions, want 4", id, spec.ActionSpace.Size())
		}
		checkLayout(t, spec, "position:6", "velocity:7", "touch:2")
	}
}

// TestHopperObservation: position is qpos without rootx, velocity qvel, touch the
// log1p of the toe and heel touch sensors, which read something once the hopper lands.
func TestHopperObservation(t *testing.T) {
	e, spec := makeEnv(t, "HopperHop-v1", nil, 4)
	p := e.Physics()
	touched := false
	rollout(t, e, spec, 150, 150, 2, nil, func(obs []float32) {
		checkEntry(t, spec, obs, "position", p.D.Qpos[1:]...)
		checkEntry(t, spec, obs, "velocity", p.D.Qvel...)
		touch := sensorValues(t, p, "touch_toe", "touch_heel")
		checkEntry(t, spec, obs, "touch", mapped(math.Log1p, touch)...)
		touched = touched || touch[0] > 0 || touch[1] > 0
	})
	if !touched {
		t.Errorf("the touch sensors never read anything in 150 steps")
	}
}

// TestHopperReset: rootx and rootz stay 0, rooty is in [-pi, pi], the limited joints
// lie in their ranges, velocities are zero.
func TestHopperReset(t *testing.T) {
	e, _ := makeEnv(t, "HopperStand-v1", nil, 9)
	p := e.Physics()
	ranges := map[string][2]float64{"waist": {-30, 30}, "hip": {-170, 10}, "knee": {5, 150}, "ankle": {-45, 45}}
	rooty := mustJoint(t, p, "rooty")
	spread := 0.0
	for range 100 {
		e.Reset()
		q := p.D.Qpos
		if q[mustJoint(t, p, "rootx").Qpos] != 0 || q[mustJoint(t, p, "rootz").Qpos] != 0 {
			t.Fatalf("root slides moved: %v", q[:2])
		}
		if math.Abs(q[rooty.Qpos]) > math.Pi {
			t.Fatalf("rooty %g outside [-pi, pi]", q[rooty.Qpos])
		}
		spread = max(spread, math.Abs(q[rooty.Qpos]))
		for name, r := range ranges {
			if v := q[mustJoint(t, p, name).Qpos] * 180 / math.Pi; v < r[0]-1e-9 || v > r[1]+1e-9 {
				t.Fatalf("%s = %g degrees, outside %v", name, v, r)
			}
		}
		for i, v := range p.D.Qvel {
			if v != 0 {
				t.Fatalf("qvel[%d] = %g after reset", i, v)
			}
		}
	}
	if spread < 2.5 {
		t.Errorf("rooty never beyond %g of 0 in 100 resets", spread)
	}
}

// TestHopperReward: standing is a hard band on the torso-over-foot height (xipos),
// times the small-control term (stand) or the linear hop-speed term (hop).
func TestHopperReward(t *testing.T) {
	stand, _ := makeEnv(t, "HopperStand-v1", nil, 0)
	hop, _ := makeEnv(t, "HopperHop-v1", nil, 0)
	for _, s := range []struct {
		pitch, knee, vx float64
		ctrl            []float64
	}{
		{0, 0.2, 0, []float64{0, 0, 0, 0}},
		{0, 0.2, 1.5, []float64{0.5, -1, 0.2, 2}},
		{0.3, 1.2, 2.5, []float64{-0.3, 0.1, 0.9, -0.2}},
		{math.Pi / 2, 0.2, 1.2, []float64{0, 0, 0, 0}},
		{math.Pi, 0.2, 0.8, []float64{1, 1, 1, 1}},
		{0, 2.6, 3, []float64{0.7, 0, 0, 0}},
	} {
		for _, e := range []*Env{stand, hop} {
			p := e.Physics()
			q := make([]float64, p.M.NQ)
			q[mustJoint(t, p, "rooty").Qpos], q[mustJoint(t, p, "knee").Qpos] = s.pitch, s.knee
			v := make([]float64, p.M.NV)
			v[mustJoint(t, p, "rootx").Qvel] = s.vx
			got := rewardAt(t, e, q, v, s.ctrl)
			height := p.D.Xipos[3*mustID(t, p, mujoco.ObjBody, "torso")+2] - p.D.Xipos[3*mustID(t, p, mujoco.ObjBody, "foot")+2]
			standing := 0.0
			if height >= 0.6 && height <= 2 {
				standing = 1
			}
			want := standing * smallControlByHand(s.ctrl...)
			if e == hop {
				want = standing * linearTol(s.vx, 2, math.Inf(1), 1, 0.5)
			}
			checkNear(t, e.t.spec.TaskID+" reward", got, want)
		}
	}
}
