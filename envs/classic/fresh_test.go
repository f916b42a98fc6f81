package classic

import (
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// TestFreshCartPoleIsSeeded steps CartPole pools that were never reset: the first
// step is a reset row whose observation is the seeded start that Reset gives an
// identically seeded pool, and pools with different seeds start differently.
func TestFreshCartPoleIsSeeded(t *testing.T) {
	pool := func(seed int64) *envpool.Pool {
		p, err := envs.Make("CartPole-v1", envs.Options{Options: envpool.Options{NumEnvs: 3, NumThreads: 1, Seed: seed}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	first := func(p *envpool.Pool) []float32 {
		b, err := p.Step([]float32{1, 1, 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Size {
			if !b.First[i] || b.Reward[i] != 0 || b.ElapsedStep[i] != 0 || b.Done(i) {
				t.Fatalf("first step of env %d: first %v reward %v elapsed %d; want a reset row", i, b.First[i], b.Reward[i], b.ElapsedStep[i])
			}
		}
		return slices.Clone(b.ObsF32)
	}
	b, err := pool(0).Reset()
	if err != nil {
		t.Fatal(err)
	}
	got0, got1 := first(pool(0)), first(pool(1))
	if !slices.Equal(got0, b.ObsF32) {
		t.Errorf("seed 0: first step %v, Reset %v", got0, b.ObsF32)
	}
	if slices.Equal(got0, got1) {
		t.Errorf("seeds 0 and 1 start alike: %v", got0)
	}
	// Env i is seeded seed+i: env 1 of seed 0 starts as env 0 of seed 1.
	if !slices.Equal(got0[4:8], got1[0:4]) {
		t.Errorf("env 1 of seed 0 starts at %v, env 0 of seed 1 at %v; want the same (seed 1)", got0[4:8], got1[0:4])
	}
}
