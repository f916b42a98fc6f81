package ppo

import "testing"

// A hand-computed GAE case with a terminal and a truncation in the middle of one env's
// steps; gamma = lambda = 0.5 keeps the arithmetic exact.
func TestGAEHandComputed(t *testing.T) {
	steps := []Step{
		{Reward: 1, Value: 1},
		{Reward: 3, Value: 2, Terminated: true},
		{Reward: 1, Value: 1, Truncated: true, FinalValue: 4},
		{Reward: 0, Value: 2},
	}
	// Backwards, with lastValue 4:
	//   t3: delta = 0 + 0.5*4 - 2 = 0              A = 0
	//   t2: truncated, delta = 1 + 0.5*4 - 1 = 2  A = 2     (recursion cut)
	//   t1: terminal,  delta = 3 - 2 = 1          A = 1     (recursion cut)
	//   t0: delta = 1 + 0.5*2 - 1 = 1             A = 1 + 0.25*1 = 1.25
	cases := []struct {
		bootstrap bool
		adv, ret  []float32
	}{
		{true, []float32{1.25, 1, 2, 0}, []float32{2.25, 3, 3, 2}},
		// Without truncation bootstrapping t2's target is its reward alone: delta = 0.
		{false, []float32{1.25, 1, 0, 0}, []float32{2.25, 3, 1, 2}},
	}
	for _, c := range cases {
		adv, ret := make([]float32, 4), make([]float32, 4)
		GAE(steps, 4, 0.5, 0.5, c.bootstrap, adv, ret)
		for i := range adv {
			if adv[i] != c.adv[i] || ret[i] != c.ret[i] {
				t.Errorf("bootstrap=%v: step %d: adv %v ret %v, want %v %v", c.bootstrap, i, adv[i], ret[i], c.adv[i], c.ret[i])
			}
		}
	}
}

// Slots of two envs interleaved (as async batches deliver them) give each env the GAE
// of its own sequence.
func TestRolloutGAEFollowsEachEnv(t *testing.T) {
	r := NewRollout(6, 1, 1, 2)
	order := []int32{1, 0, 0, 1, 1, 0}
	rewards := []float32{1, 2, 3, 4, 5, 6}
	for i, e := range order {
		s, err := r.Add(e)
		if err != nil {
			t.Fatal(err)
		}
		r.Reward[s], r.Value[s], r.Complete[s] = rewards[i], float32(i), true
	}
	if err := r.ComputeGAE([]float32{10, 20}, 0.9, 0.8, true); err != nil {
		t.Fatal(err)
	}
	for e, idx := range [][]int{{1, 2, 5}, {0, 3, 4}} {
		var steps []Step
		for _, i := range idx {
			steps = append(steps, Step{Reward: rewards[i], Value: float32(i)})
		}
		adv, ret := make([]float32, 3), make([]float32, 3)
		GAE(steps, []float32{10, 20}[e], 0.9, 0.8, true, adv, ret)
		for k, i := range idx {
			if r.Adv[i] != adv[k] || r.Ret[i] != ret[k] {
				t.Errorf("env %d slot %d: adv %v ret %v, want %v %v", e, i, r.Adv[i], r.Ret[i], adv[k], ret[k])
			}
		}
	}
	r.Complete[3] = false
	if err := r.ComputeGAE([]float32{10, 20}, 0.9, 0.8, true); err == nil {
		t.Error("GAE over an incomplete slot: no error")
	}
}
