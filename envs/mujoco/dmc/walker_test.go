package dmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// walkerIDs are the walker tasks.
var walkerIDs = []string{"WalkerStand-v1", "WalkerWalk-v1", "WalkerRun-v1"}

// TestWalkerSpec: frame skip 10 (0.025 s of 0.0025 s steps), six actuators in [-1, 1],
// and the observation's entries in the suite's order.
func TestWalkerSpec(t *testing.T) {
	for _, id := range walkerIDs {
		e, spec := makeEnv(t, id, nil, 0)
		checkTiming(t, e, spec, 10, 0.0025, 25)
		if spec.ActionSpace.Size() != 6 || spec.ActionSpace.Low[0] != -1 || spec.ActionSpace.High[5] != 1 {
			t.Errorf("%s: action space %+v", id, spec.ActionSpace)
		}
		checkLayout(t, spec, "orientations:14", "height:1", "velocity:9")
	}
}

// TestWalkerObservation: after resets and steps, orientations are the xx and xz
// entries of bodies 1..7's xmat, height the torso's z and velocity qvel.
func TestWalkerObservation(t *testing.T) {
	e, spec := makeEnv(t, "WalkerWalk-v1", nil, 7)
	p := e.Physics()
	torso := mustID(t, p, mujoco.ObjBody, "torso")
	rollout(t, e, spec, 20, 10, 1, nil, func(obs []float32) {
		xmat, xpos := p.D.Float64s("xmat"), p.D.Float64s("xpos")
		var orient []float64
		for b := 1; b < 8; b++ {
			orient = append(orient, xmat[9*b], xmat[9*b+2])
		}
		checkEntry(t, spec, obs, "orientations", orient...)
		checkEntry(t, spec, obs, "height", xpos[3*torso+2])
		checkEntry(t, spec, obs, "velocity", p.D.Qvel...)
	})
}

// TestWalkerReset: the root's slides stay at 0, the root hinge is uniform in
// [-pi, pi], the other joints are uniform within their ranges, velocities are zero,
// and the torso starts at 1.3 m.
func TestWalkerReset(t *testing.T) {
	e, _ := makeEnv(t, "WalkerStand-v1", nil, 11)
	p := e.Physics()
	torso := mustID(t, p, mujoco.ObjBody, "torso")
	rootz, rootx, rooty := mustJoint(t, p, "rootz"), mustJoint(t, p, "rootx"), mustJoint(t, p, "rooty")
	ranges := map[string][2]float64{
		"right_hip": {-20, 100}, "right_knee": {-150, 0}, "right_ankle": {-45, 45},
		"left_hip": {-20, 100}, "left_knee": {-150, 0}, "left_ankle": {-45, 45},
	}
	lows, highs := map[string]float64{}, map[string]float64{}
	neg, pos := 0, 0
	for range 200 {
		e.Reset()
		q := p.D.Qpos
		if q[rootz.Qpos] != 0 || q[rootx.Qpos] != 0 {
			t.Fatalf("root slides moved: %v", q[:2])
		}
		if math.Abs(q[rooty.Qpos]) > math.Pi {
			t.Fatalf("rooty %g outside [-pi, pi]", q[rooty.Qpos])
		}
		if q[rooty.Qpos] < -math.Pi/2 {
			neg++
		}
		if q[rooty.Qpos] > math.Pi/2 {
			pos++
		}
		for name, r := range ranges {
			v := q[mustJoint(t, p, name).Qpos] * 180 / math.Pi
			if v < r[0]-1e-9 || v > r[1]+1e-9 {
				t.Fatalf("%s = %g degrees, outside %v", name, v, r)
			}
			if _, ok := lows[name]; !ok || v < lows[name] {
				lows[name] = v
			}
			if _, ok := highs[name]; !ok || v > highs[name] {
				highs[name] = v
			}
		}
		for i, v := range p.D.Qvel {
			if v != 0 {
				t.Fatalf("qvel[%d] = %g after reset", i, v)
			}
		}
		checkNear(t, "torso height", p.D.Float64s("xpos")[3*torso+2], 1.3)
	}
	if neg < 20 || pos < 20 {
		t.Errorf("rooty not spread over [-pi, pi]: %d below -pi/2, %d above pi/2 of 200", neg, pos)
	}
	for name, r := range ranges {
		if span := r[1] - r[0]; lows[name] > r[0]+0.1*span || highs[name] < r[1]-0.1*span {
			t.Errorf("%s drawn in [%g, %g], want spread over %v", name, lows[name], highs[name], r)
		}
	}
}

// TestWalkerReward: the reward at set states against the suite's formula written
// out: standing = 0.1^(d^2) below 1.2 m (d in margins of 0.6), upright = (1 + cos
// pitch) / 2, move linear with 0.5 at half the speed below it.
func TestWalkerReward(t *testing.T) {
	for _, c := range []struct {
		id    string
		speed float64
	}{{"WalkerStand-v1", 0}, {"WalkerWalk-v1", 1}, {"WalkerRun-v1", 8}} {
		e, _ := makeEnv(t, c.id, nil, 0)
		for _, s := range []struct{ dz, pitch, vx float64 }{
			{0, 0, 0}, {-0.5, 0, 0.3}, {-0.1, 0.4, 0.7}, {0.2, -1.2, 5}, {-0.9, 2.5, 9}, {0, 0, 1}, {-1.2, math.Pi, 4.5},
		} {
			// qpos: rootz, rootx, rooty, then the legs at 0; qvel: rootx's velocity.
			got := rewardAt(t, e, []float64{s.dz, 0, s.pitch}, []float64{0, s.vx}, nil)
			height := 1.3 + s.dz
			stand := (3*gaussianTol(height, 1.2, math.Inf(1), 0.6) + (1+math.Cos(s.pitch))/2) / 4
			want := stand
			if c.speed > 0 {
				move := linearTol(s.vx, c.speed, math.Inf(1), c.speed/2, 0.5)
				want = stand * (5*move + 1) / 6
			}
			checkNear(t, c.id+" reward", got, want)
		}
	}
}

// TestWalkerStepReward: the reward a step returns is the formula of the state after it.
func TestWalkerStepReward(t *testing.T) {
	e, spec := makeEnv(t, "WalkerRun-v1", nil, 3)
	p := e.Physics()
	torso := mustID(t, p, mujoco.ObjBody, "torso")
	e.Reset()
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		r := e.Step(randomAction(rng, spec))
		height, zz := p.D.Float64s("xpos")[3*torso+2], p.D.Float64s("xmat")[9*torso+8]
		vx := sensorValues(t, p, "torso_subtreelinvel")[0]
		stand := (3*gaussianTol(height, 1.2, math.Inf(1), 0.6) + (1+zz)/2) / 4
		want := stand * (5*linearTol(vx, 8, math.Inf(1), 4, 0.5) + 1) / 6
		checkNear(t, "reward", float64(r.Reward), float64(float32(want)))
	}
}
