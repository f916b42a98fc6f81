package dmc

// Test helpers of the acrobot, pendulum, cartpole, point_mass, reacher and ball_in_cup
// tests (helper file "a"); their names end in A to keep clear of the other domains'
// helpers. They also use nearB, setStateB and gaussianTolB of helper file "b".

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

// suiteTimingA fails unless a task takes frameSkip physics steps of timestep seconds
// per action, so that its 1000 steps span the suite's time limit.
func suiteTimingA(t *testing.T, e *Env, spec envpool.Spec, frameSkip int, timestep, timeLimit float64) {
	t.Helper()
	if spec.FrameSkip != frameSkip || e.Physics().M.Timestep != timestep {
		t.Errorf("%s: frame skip %d of %g s, want %d of %g s", spec.TaskID, spec.FrameSkip, e.Physics().M.Timestep, frameSkip, timestep)
	}
	if got := float64(spec.MaxEpisodeSteps*spec.FrameSkip) * e.Physics().M.Timestep; math.Abs(got-timeLimit) > 1e-9 {
		t.Errorf("%s: episodes last %g s, want the suite's %g s", spec.TaskID, got, timeLimit)
	}
}

// layoutOfA fails unless the spec's observation entries are named and sized as want
// ("name:size" in order).
func layoutOfA(t *testing.T, spec envpool.Spec, want ...string) {
	t.Helper()
	var got []string
	for _, f := range spec.ObsLayout {
		got = append(got, fmt.Sprintf("%s:%d", f.Name, f.Size))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s: observation layout %v, want %v", spec.TaskID, got, want)
	}
}

// wantObsA fails unless the whole observation equals want, entry by entry in float32
// (to 1e-6).
func wantObsA(t *testing.T, spec envpool.Spec, obs []float32, want []float64) {
	t.Helper()
	if len(obs) != len(want) {
		t.Fatalf("%s: observation of %d values, want %d", spec.TaskID, len(obs), len(want))
	}
	for i, w := range want {
		if math.Abs(float64(obs[i])-w) > 1e-6 {
			t.Fatalf("%s: observation[%d] (%s) = %v, want %v", spec.TaskID, i, entryAt(spec, i), obs[i], w)
		}
	}
}

// rewardAtA sets a state (see setStateB) and returns the task's reward of it.
func rewardAtA(t *testing.T, e *Env, qpos, qvel, ctrl []float64) float64 {
	t.Helper()
	setStateB(t, e.Physics(), qpos, qvel, ctrl)
	return e.logic.reward(e.Physics())
}

// inRangeA fails unless lo <= x <= hi.
func inRangeA(t *testing.T, what string, x, lo, hi float64) {
	t.Helper()
	if !(x >= lo && x <= hi) {
		t.Fatalf("%s = %g, outside [%g, %g]", what, x, lo, hi)
	}
}

// meanStdA returns the mean and the standard deviation of xs.
func meanStdA(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

// rolloutA observes an env n times: it resets it every resetEvery observations and
// takes random actions (from a generator seeded with seed) in between, calling
// afterReset (when not nil) right after each reset and check with every observation.
func rolloutA(t *testing.T, e *Env, spec envpool.Spec, n, resetEvery int, seed uint64, afterReset func(), check func(obs []float32)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for i := range n {
		if i%resetEvery == 0 {
			e.Reset()
			if afterReset != nil {
				afterReset()
			}
		} else {
			e.Step(randomAction(rng, spec))
		}
		obs, _ := observe(t, e, spec)
		check(obs)
	}
}
