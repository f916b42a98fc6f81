package envpool

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// reachEnv is a countEnv with a sparse goal reward: 0 within 0.5 of the goal on both
// axes, else -1 (Fetch's rule with a square in place of a ball).
type reachEnv struct{ countEnv }

func (reachEnv) ComputeReward(achieved, desired []float32) float32 {
	for k := range achieved {
		if d := achieved[k] - desired[k]; d > 0.5 || d < -0.5 {
			return -1
		}
	}
	return 0
}

func TestPoolGoalReward(t *testing.T) {
	spec := countSpec()
	spec.ObsLayout = []ObsField{{Name: GoalAchieved, Offset: 0, Size: 2}, {Name: GoalDesired, Offset: 2, Size: 2}}
	p, err := New(spec, func(i int, seed int64) (Env, error) {
		return &reachEnv{countEnv{seed: seed, rng: rand.New(rand.NewPCG(uint64(seed), 1))}}, nil
	}, Options{NumEnvs: 2, NumThreads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, c := range []struct {
		a, d []float32
		want float32
	}{
		{[]float32{1, 2}, []float32{1.4, 1.6}, 0},
		{[]float32{1, 2}, []float32{1.6, 2}, -1},
		{[]float32{0, 0}, []float32{0, -0.6}, -1},
	} {
		r, err := p.GoalReward(1, c.a, c.d)
		if err != nil || r != c.want {
			t.Fatalf("GoalReward(%v, %v) = %v, %v; want %v", c.a, c.d, r, err, c.want)
		}
	}
	for _, c := range []struct {
		i    int
		a, d []float32
		want string
	}{
		{2, []float32{0, 0}, []float32{0, 0}, "out of range"},
		{0, []float32{0}, []float32{0, 0}, "want 2 each"},
	} {
		if _, err := p.GoalReward(c.i, c.a, c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("GoalReward(%d, %v, %v): %v; want an error saying %q", c.i, c.a, c.d, err, c.want)
		}
	}

	q := newCountPool(t, Options{NumEnvs: 1, NumThreads: 1})
	defer q.Close()
	if _, err := q.GoalReward(0, nil, nil); err == nil || !strings.Contains(err.Error(), "not goal-conditioned") {
		t.Fatalf("GoalReward on a task without goals: %v; want not goal-conditioned", err)
	}
}
