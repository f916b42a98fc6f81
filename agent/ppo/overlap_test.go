package ppo

import (
	"math"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

func overlapSetup(space envpool.Space) testSetup {
	s := walkSetup(space, 0)
	s.PPO.Overlap = true
	return s
}

// weights copies a policy's weights.
func weights(ps []model.Param) [][]float32 {
	w := make([][]float32, len(ps))
	for i, p := range ps {
		w[i] = slices.Clone(p.F32())
	}
	return w
}

func sameWeights(ps []model.Param, w [][]float32) bool {
	for i, p := range ps {
		if !slices.Equal(p.F32(), w[i]) {
			return false
		}
	}
	return true
}

// Under ppo.overlap each rollout is sampled by the weights from before the update that
// runs beside its collection: after an Iterate the acting copy holds the weights the
// policy had when it began, the policy has moved on, and the log-probabilities stored
// in the rollout waiting for the next update are those of the old weights (computed
// here by the training graph with the old weights put back), not the new.
func TestOverlapLagsOneUpdate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		space envpool.Space
	}{
		{"categorical", envpool.DiscreteSpace(3)},
		{"gaussian", envpool.BoxSpace([]float32{0}, []float32{1})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := startTrainer(t, overlapSetup(tc.space))
			for it := 1; it <= 3; it++ {
				before := weights(tr.params)
				if _, _, err := tr.Iterate(); err != nil {
					t.Fatal(err)
				}
				// The first Iterate collects the rollout it learns from and the next one.
				if want := int64(64 * (it + 1)); tr.EnvSteps() != want {
					t.Fatalf("Iterate %d: %d env steps, want %d", it, tr.EnvSteps(), want)
				}
				if !sameWeights(tr.actor.Params(), before) {
					t.Fatalf("Iterate %d: the acting copy is not the weights from before the update", it)
				}
				if sameWeights(tr.params, before) {
					t.Fatalf("Iterate %d: the update left the weights as they were", it)
				}
				after := weights(tr.params)
				if d := logProbGap(t, tr, before); d > 1e-5 {
					t.Errorf("Iterate %d: the waiting rollout's log-probs differ from the old weights' by %g", it, d)
				}
				if d := logProbGap(t, tr, after); d < 1e-4 {
					t.Errorf("Iterate %d: the waiting rollout's log-probs match the new weights (gap %g)", it, d)
				}
				for i, p := range tr.params { // put the updated weights back
					copy(p.F32(), after[i])
				}
			}
		})
	}
}

// logProbGap runs the training graph with weights w on the first minibatch's worth of
// the rollout waiting for its update and returns the largest difference between its
// log-probabilities and those stored when the actions were sampled.
func logProbGap(t *testing.T, tr *Trainer, w [][]float32) float64 {
	t.Helper()
	for i, p := range tr.params {
		copy(p.F32(), w[i])
	}
	r, l := tr.other, tr.train
	loadFirstSlots(tr, r)
	if err := tr.trainM.RunAll(); err != nil {
		t.Fatal(err)
	}
	defer tr.trainM.Reset()
	gap := 0.0
	for k, lp := range l.logpOut.Data().([]float32) {
		gap = math.Max(gap, math.Abs(float64(lp-r.LogP[k])))
	}
	return gap
}

// Two overlapped runs with the same seed (one env thread, sync) are the same run: the
// update and the collection beside it share no state, whatever their interleaving.
func TestOverlapRepeatable(t *testing.T) {
	run := func() ([]float64, []float64) {
		tr := startTrainer(t, overlapSetup(envpool.BoxSpace([]float32{0}, []float32{1})))
		var rets, stats []float64
		for range 6 {
			eps, st, err := tr.Iterate()
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range eps {
				rets = append(rets, e.Return)
			}
			for _, s := range st {
				stats = append(stats, s.Value)
			}
		}
		for _, v := range weights(tr.params)[0] {
			stats = append(stats, float64(v))
		}
		return rets, stats
	}
	r1, s1 := run()
	r2, s2 := run()
	if len(r1) < 20 || !slices.Equal(r1, r2) {
		t.Errorf("episode returns differ (%d and %d episodes)", len(r1), len(r2))
	}
	if !slices.Equal(s1, s2) {
		t.Error("update statistics or weights differ")
	}
}

// A checkpoint of an overlapped run does not hold the rollout waiting for its update:
// the resumed trainer collects one before its first update, and goes on.
func TestOverlapResume(t *testing.T) {
	s := overlapSetup(envpool.DiscreteSpace(3))
	tr := startTrainer(t, s)
	for range 2 {
		if _, _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	c, err := tr.Save()
	if err != nil {
		t.Fatal(err)
	}
	re := resumeTrainer(t, s, c)
	if re.EnvSteps() != 192 {
		t.Fatalf("resumed at %d env steps, want 192", re.EnvSteps())
	}
	if !sameWeights(re.params, weights(tr.params)) {
		t.Fatal("resumed weights differ from the saved ones")
	}
	for it := 1; it <= 2; it++ {
		if _, _, err := re.Iterate(); err != nil {
			t.Fatal(err)
		}
		if want := int64(192 + 64*(it+1)); re.EnvSteps() != want {
			t.Fatalf("Iterate %d after resume: %d env steps, want %d", it, re.EnvSteps(), want)
		}
	}
}

// Phases times collecting and learning in turn, and reports nothing under ppo.overlap,
// where the two run at once.
func TestPhases(t *testing.T) {
	tr := startTrainer(t, walkSetup(envpool.DiscreteSpace(3), 0))
	for range 2 {
		if _, _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	ph := tr.Phases()
	if len(ph) != 2 || ph[0].Name != "collect" || ph[1].Name != "learn" || ph[0].Wall <= 0 || ph[1].Wall <= 0 {
		t.Fatalf("phases %+v, want collect and learn with their wall times", ph)
	}
	ov := startTrainer(t, overlapSetup(envpool.DiscreteSpace(3)))
	if _, _, err := ov.Iterate(); err != nil {
		t.Fatal(err)
	}
	if ph := ov.Phases(); ph != nil {
		t.Fatalf("overlapped phases %+v, want none", ph)
	}
}
