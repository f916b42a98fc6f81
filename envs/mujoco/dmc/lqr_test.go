package dmc

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// TestLqrModels: the generated chain has n bodies (each 0.25 along x from its parent,
// the first also 0.1 up) with a slide joint each, k unbounded
// motors on the first joints and n-1 tendons; each env draws its own stiffness in
// [15, 25] (damping 0); the observation is qpos and qvel.
func TestLqrModels(t *testing.T) {
	for _, c := range []struct {
		id   string
		n, k int
	}{{"LqrLqr21-v1", 2, 1}, {"LqrLqr62-v1", 6, 2}} {
		e, spec := makeEnv(t, c.id, nil, 0)
		other, _ := makeEnv(t, c.id, nil, 1)
		m := e.Physics().M
		if m.NQ != c.n || m.NV != c.n || m.NU != c.k || m.NBody != c.n+1 || m.Size("ntendon") != c.n-1 {
			t.Errorf("%s: nq %d nv %d nu %d nbody %d ntendon %d, want %d %d %d %d %d", c.id, m.NQ, m.NV, m.NU, m.NBody, m.Size("ntendon"), c.n, c.n, c.k, c.n+1, c.n-1)
		}
		bodyPos := m.Float64s("body_pos")
		for b := 1; b <= c.n; b++ {
			want := []float64{0.25, 0, 0}
			if b == 1 {
				want[2] = 0.1
			}
			if got := bodyPos[3*b : 3*b+3]; !slices.Equal(got, want) {
				t.Errorf("%s: body_%d at %v, want %v", c.id, b-1, got, want)
			}
		}
		types := m.Int32s("jnt_type")
		for j := range c.n {
			if types[j] != mujoco.JointSlide {
				t.Errorf("%s: joint %d has type %d, want a slide", c.id, j, types[j])
			}
		}
		for a := range c.k {
			if id := mustID(t, e.Physics(), mujoco.ObjActuator, fmt.Sprintf("motor_%d", a)); m.Int32s("actuator_trnid")[2*id] != int32(mustID(t, e.Physics(), mujoco.ObjJoint, fmt.Sprintf("joint_%d", a))) {
				t.Errorf("%s: motor_%d does not drive joint_%d", c.id, a, a)
			}
		}
		for _, low := range spec.ActionSpace.Low {
			if !math.IsInf(float64(low), -1) {
				t.Errorf("%s: action bounds %v, want unbounded", c.id, spec.ActionSpace.Low)
			}
		}
		s0, s1 := m.Float64s("jnt_stiffness"), other.Physics().M.Float64s("jnt_stiffness")
		for j := range c.n {
			if s0[j] < 15 || s0[j] > 25 || s0[j] == s1[j] || s0[j] == 20 {
				t.Errorf("%s: stiffness %v (seed 0) and %v (seed 1), want distinct draws in [15, 25]", c.id, s0, s1)
			}
		}
		if slices.ContainsFunc(m.Float64s("dof_damping"), func(d float64) bool { return d != 0 }) {
			t.Errorf("%s: damping %v, want 0", c.id, m.Float64s("dof_damping"))
		}
		checkTiming(t, e, spec, 1, 0.03, 30)
		checkLayout(t, spec, fmt.Sprintf("position:%d", c.n), fmt.Sprintf("velocity:%d", c.n))
	}
}

// TestLqrReset: the start is qpos of norm sqrt(2) in a random direction at rest, and
// the observation shows qpos and qvel.
func TestLqrReset(t *testing.T) {
	e, spec := makeEnv(t, "LqrLqr62-v1", nil, 3)
	p := e.Physics()
	var firsts []float64
	for range 10 {
		e.Reset()
		if n := norm(p.D.Qpos...); !near(n, math.Sqrt2, 1e-12) {
			t.Fatalf("|qpos| = %g, want sqrt 2", n)
		}
		if slices.ContainsFunc(p.D.Qvel, func(v float64) bool { return v != 0 }) {
			t.Fatalf("qvel %v at reset", p.D.Qvel)
		}
		obs, _ := observe(t, e, spec)
		checkEntry(t, spec, obs, "position", p.D.Qpos...)
		checkEntry(t, spec, obs, "velocity", p.D.Qvel...)
		firsts = append(firsts, p.D.Qpos[0])
	}
	if slices.Min(firsts) > 0 || slices.Max(firsts) < 0 {
		t.Errorf("qpos[0] over resets %v: one sign only", firsts)
	}
}

// TestLqrRewardAndTermination: 1 - (|q|^2/2 + 0.1 |u|^2/2) by hand, negative for large
// states; an episode ends (discount 0) once the state's norm is below 1e-6.
func TestLqrRewardAndTermination(t *testing.T) {
	e, spec := makeEnv(t, "LqrLqr62-v1", nil, 3)
	e.Reset()
	p := e.Physics()
	q := []float64{0.1, -0.2, 0.3, 0, 0.5, -1}
	copy(p.D.Qpos, q)
	p.D.Ctrl[0], p.D.Ctrl[1] = 2, -3
	want := 1 - (0.5*(0.01+0.04+0.09+0.25+1) + 0.1*0.5*(4+9))
	if r := e.logic.reward(p); !near(r, want, 1e-12) {
		t.Errorf("reward %g, want %g", r, want)
	}
	p.D.Qpos[5] = 3
	if r := e.logic.reward(p); r >= 0 {
		t.Errorf("reward %g at |q| > 3, want negative", r)
	}
	for _, c := range []struct {
		pos, vel float64
		want     bool
	}{{0, 0, true}, {3e-7, 3e-7, true}, {1e-6, 0, false}, {0, 2e-6, false}} {
		clear(p.D.Qpos)
		clear(p.D.Qvel)
		p.D.Qpos[2], p.D.Qvel[4] = c.pos, c.vel
		if got := e.logic.terminal(p); got != c.want {
			t.Errorf("qpos %g qvel %g: terminal %v, want %v", c.pos, c.vel, got, c.want)
		}
	}
	// At rest at the origin with no control the state stays there: the step ends the
	// episode with discount 0.
	clear(p.D.Qpos)
	clear(p.D.Qvel)
	forward(t, p)
	r := e.Step(make([]float32, spec.ActionSpace.Size()))
	_, info := observe(t, e, spec)
	if !r.Terminated || r.Reward != 1 || info[0] != 0 || info[1] != StepLast {
		t.Errorf("step at the origin: %+v, info %v; want terminated with reward 1 and discount 0", r, info)
	}
}
