package dmc

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/mujocotest"
)

// cartpoleIDs are the cartpole tasks with their numbers of poles.
var cartpoleIDs = map[string]int{
	"CartpoleBalance-v1": 1, "CartpoleBalanceSparse-v1": 1, "CartpoleSwingup-v1": 1,
	"CartpoleSwingupSparse-v1": 1, "CartpoleTwoPoles-v1": 2, "CartpoleThreePoles-v1": 3,
}

// TestCartpoleModels: the suite's extra poles make nq = nv = 1 + n, n + 2 bodies and
// one actuator; pole i hangs 1 m above pole i-1 with hinge_i; the floor sits at
// 1 - n - 0.05 and the cameras at y = -1 - 2n and -2n.
func TestCartpoleModels(t *testing.T) {
	mujocotest.RequireMuJoCo(t)
	for _, n := range []int{1, 2, 3, 5} {
		xml, err := cartpoleXML(n)
		if err != nil {
			t.Fatal(err)
		}
		m, err := LoadModel("cartpole", xml)
		if err != nil {
			t.Fatalf("%d poles: %v", n, err)
		}
		defer m.Close()
		if m.NQ != 1+n || m.NV != 1+n || m.NU != 1 || m.NBody != 2+n {
			t.Errorf("%d poles: nq %d nv %d nu %d nbody %d", n, m.NQ, m.NV, m.NU, m.NBody)
		}
		parent := m.Int32s("body_parentid")
		bodyPos := m.Float64s("body_pos")
		for i := 1; i <= n; i++ {
			b, err := m.ID(mujoco.ObjBody, fmt.Sprintf("pole_%d", i))
			if err != nil || b != i+1 || int(parent[b]) != i {
				t.Fatalf("%d poles: pole_%d is body %d (parent %d), %v", n, i, b, parent[b], err)
			}
			if _, err := m.ID(mujoco.ObjJoint, fmt.Sprintf("hinge_%d", i)); err != nil {
				t.Fatalf("%d poles: %v", n, err)
			}
			if _, err := m.ID(mujoco.ObjGeom, fmt.Sprintf("pole_%d", i)); err != nil {
				t.Fatalf("%d poles: %v", n, err)
			}
			wantZ := 1.0 // the first pole sits on the cart's origin
			if i == 1 {
				wantZ = 0
			}
			if bodyPos[3*b+2] != wantZ {
				t.Errorf("%d poles: pole_%d sits %g above its parent, want %g", n, i, bodyPos[3*b+2], wantZ)
			}
		}
		floor, _ := m.ID(mujoco.ObjGeom, "floor")
		if z := m.Float64s("geom_pos")[3*floor+2]; math.Abs(z-(1-float64(n)-0.05)) > 1e-12 {
			t.Errorf("%d poles: floor at z %g", n, z)
		}
		cams := m.Float64s("cam_pos")
		if n > 1 && (cams[1] != float64(-1-2*n) || cams[4] != float64(-2*n)) {
			t.Errorf("%d poles: cameras at y %g and %g", n, cams[1], cams[4])
		}
	}
}

// TestCartpoleOptions: three_poles takes the suite's num_poles and sparse; bad values
// are errors naming the option.
func TestCartpoleOptions(t *testing.T) {
	e, spec := makeEnv(t, "CartpoleThreePoles-v1", map[string]any{"num_poles": 5, "sparse": 1}, 0)
	checkLayout(t, spec, "position:11", "velocity:6")
	if c := e.logic.(*cartpole); !c.sparse || !c.swingUp {
		t.Errorf("num_poles 5, sparse 1: sparse %v, swing up %v", c.sparse, c.swingUp)
	}
	for _, opts := range []map[string]any{{"num_poles": 0}, {"num_poles": 2.5}, {"sparse": 2}, {"sparse": true}} {
		_, _, err := envs.MakeEnv("CartpoleThreePoles-v1", opts, 0)
		for k := range opts {
			if err == nil || !strings.Contains(err.Error(), k) {
				t.Errorf("options %v: %v, want an error naming %s", opts, err, k)
			}
		}
	}
}

// cartpoleWantObs is the observation of a state: the cart's x, per pole the cosine and
// sine of its absolute angle (the sum of the hinges up to it), then qvel.
func cartpoleWantObs(qpos, qvel []float64) []float64 {
	want := []float64{qpos[0]}
	angle := 0.0
	for _, q := range qpos[1:] {
		angle += q
		want = append(want, math.Cos(angle), math.Sin(angle))
	}
	return append(want, qvel...)
}

// TestCartpoleObservation: one 0.01 s step per action; position is the cart's x and
// each pole's (cos, sin), velocity qvel, after resets and random steps.
func TestCartpoleObservation(t *testing.T) {
	for id, n := range cartpoleIDs {
		e, spec := makeEnv(t, id, nil, 2)
		checkTiming(t, e, spec, 1, 0.01, 10)
		checkLayout(t, spec, fmt.Sprintf("position:%d", 1+2*n), fmt.Sprintf("velocity:%d", 1+n))
		p := e.Physics()
		rollout(t, e, spec, 60, 20, 9, nil, func(obs []float32) {
			checkObs(t, spec, obs, cartpoleWantObs(p.D.Qpos, p.D.Qvel))
		})
	}
}

// TestCartpoleReset: balance starts the cart in [-0.1, 0.1] and the hinges in
// [-0.034, 0.034]; swing-up starts at 0.01·N(0, 1), the first hinge at pi + 0.01·N(0, 1)
// and the others at 0.1·N(0, 1); all velocities are 0.01·N(0, 1).
func TestCartpoleReset(t *testing.T) {
	const resets = 400
	for _, id := range []string{"CartpoleBalance-v1", "CartpoleThreePoles-v1"} {
		e, _ := makeEnv(t, id, nil, 12)
		p := e.Physics()
		cols := make([][]float64, p.M.NQ+p.M.NV)
		for range resets {
			e.Reset()
			for i, v := range append(append([]float64(nil), p.D.Qpos...), p.D.Qvel...) {
				cols[i] = append(cols[i], v)
			}
		}
		// The sample deviation of 400 draws is within 10% of the true one with a
		// comfortable margin; a uniform on [-a, a] has deviation a/sqrt(3).
		want := []struct{ mean, std float64 }{{0, 0.1 / math.Sqrt(3)}, {0, 0.034 / math.Sqrt(3)}, {0, 0.01}, {0, 0.01}}
		if id == "CartpoleThreePoles-v1" {
			want = []struct{ mean, std float64 }{{0, 0.01}, {math.Pi, 0.01}, {0, 0.1}, {0, 0.1}, {0, 0.01}, {0, 0.01}, {0, 0.01}, {0, 0.01}}
		}
		if len(cols) != len(want) {
			t.Fatalf("%s: %d state values, want %d", id, len(cols), len(want))
		}
		for i, c := range cols {
			m, s := meanStd(c)
			if math.Abs(m-want[i].mean) > 4*want[i].std/math.Sqrt(resets) || math.Abs(s/want[i].std-1) > 0.15 {
				t.Errorf("%s: state value %d: mean %g std %g, want %g and %g", id, i, m, s, want[i].mean, want[i].std)
			}
		}
		if id == "CartpoleBalance-v1" {
			for i, lim := range []float64{0.1, 0.034} {
				for _, v := range cols[i] {
					checkInRange(t, "balance reset", v, -lim, lim)
				}
			}
		}
	}
}

// TestCartpoleReward: the smooth reward is upright · small control · small velocity ·
// centered written out from the tolerance formulas; the sparse one is 1 only with the
// cart in [-0.25, 0.25] and every pole's cosine at least 0.995.
func TestCartpoleReward(t *testing.T) {
	smooth := func(qpos, qvel []float64, u float64) float64 {
		upright, angle := 0.0, 0.0
		slowest := 1.0
		for i, q := range qpos[1:] {
			angle += q
			upright += (math.Cos(angle) + 1) / 2
			slowest = min(slowest, gaussianTol(qvel[i+1], 0, 0, 5))
		}
		upright /= float64(len(qpos) - 1)
		centered := (1 + gaussianTol(qpos[0], 0, 0, 2)) / 2
		return upright * smallControlByHand(u) * (1 + slowest) / 2 * centered
	}
	dense := []string{"CartpoleBalance-v1", "CartpoleSwingup-v1", "CartpoleTwoPoles-v1", "CartpoleThreePoles-v1"}
	for _, id := range dense {
		e, _ := makeEnv(t, id, nil, 0)
		n := cartpoleIDs[id]
		for _, c := range []struct {
			qpos, qvel []float64
			u          float64
		}{
			{[]float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 0},
			{[]float64{0.5, 0.3, -0.2, 0.1}, []float64{0.1, 2, -1, 3}, 0.4},
			{[]float64{-1.2, math.Pi, 0.5, -0.7}, []float64{-3, -0.5, 6, 1}, -1.3},
			{[]float64{0.2, -0.4, 0.3, 0.2}, []float64{4, 0.5, -0.2, 0.1}, 0.9}, // the cart's speed does not count
		} {
			want := smooth(c.qpos[:1+n], c.qvel[:1+n], c.u)
			checkNear(t, id+" reward", rewardAt(t, e, c.qpos[:1+n], c.qvel[:1+n], []float64{c.u}), want)
		}
	}
	for _, id := range []string{"CartpoleBalanceSparse-v1", "CartpoleSwingupSparse-v1"} {
		e, _ := makeEnv(t, id, nil, 0)
		for _, c := range []struct{ x, angle, want float64 }{
			{0, 0, 1}, {0.24, 0.05, 1}, {-0.24, -0.099, 1}, {0.26, 0, 0}, {0, 0.11, 0}, {-0.3, 0.2, 0}, {0, math.Pi, 0},
		} {
			checkNear(t, id+" reward", rewardAt(t, e, []float64{c.x, c.angle}, []float64{5, 5}, []float64{1}), c.want)
		}
	}
	e, _ := makeEnv(t, "CartpoleThreePoles-v1", map[string]any{"sparse": 1}, 0)
	checkNear(t, "three poles sparse, all upright", rewardAt(t, e, []float64{0.1, 0.05, -0.05, 0.02}, nil, nil), 1)
	checkNear(t, "three poles sparse, top pole tilted", rewardAt(t, e, []float64{0.1, 0.05, 0, 0.1}, nil, nil), 0)
}
