package agent

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// Episode is one finished episode as learners report it: the env step count of the
// run when it ended, its undiscounted return from the env's raw rewards (before any
// normalisation or clipping), its length in env steps, and, for tasks that flag
// success in their info, 1 when it succeeded, else 0 (SuccessColumn says when); NaN
// for tasks without a flag.
type Episode struct {
	EnvStep int64
	EnvID   int
	Return  float64
	Length  int
	Success float64
}

// SuccessKeys are the info keys by which tasks flag a successful state, in the order
// SuccessColumn looks for them.
var SuccessKeys = []string{"success", "is_success"}

// SuccessColumn returns the info column of the task's success flag, or -1 when it has
// none, and whether the flag of the episode's last step decides. Tasks judge episodes
// two ways, and the key says which: with "success" (MetaWorld, PointMaze, Adroit) an
// episode succeeds when the flag is set at any of its steps, as MetaWorld's
// evaluations count it; with Gymnasium-Robotics' GoalEnv key "is_success" (Fetch, the
// Shadow hand) only the last step counts, as hindsight-replay papers report it, since
// a random arm passes near a nearby goal by chance.
func SuccessColumn(spec *envpool.Spec) (col int, last bool) {
	for _, k := range SuccessKeys {
		if i := spec.InfoIndex(k); i >= 0 {
			return i, k == "is_success"
		}
	}
	return -1, false
}

// SuccessTracker follows each env's episode success flag for a learner: Step after
// each env step with the step's info row, then Take when the episode ends.
type SuccessTracker struct {
	col  int
	last bool // the last step decides (SuccessColumn)
	seen []bool
}

// NewSuccessTracker returns a tracker for numEnvs envs of the task.
func NewSuccessTracker(spec *envpool.Spec, numEnvs int) SuccessTracker {
	col, last := SuccessColumn(spec)
	return SuccessTracker{col: col, last: last, seen: make([]bool, numEnvs)}
}

// Step notes env e's info row of the step just taken.
func (s *SuccessTracker) Step(e int, info []float32) {
	if s.col < 0 {
		return
	}
	if ok := info[s.col] > 0; ok || s.last {
		s.seen[e] = ok
	}
}

// Take returns env e's episode success (1 or 0; NaN when the task has no flag) and
// starts its next episode.
func (s *SuccessTracker) Take(e int) float64 {
	if s.col < 0 {
		return math.NaN()
	}
	ok := s.seen[e]
	s.seen[e] = false
	if ok {
		return 1
	}
	return 0
}

// Stat is one named number a learner reports per update (a loss, the KL, the learning
// rate); the names are the learner's metrics.csv columns.
type Stat struct {
	Name  string
	Value float64
}

// State returns the envs' running-episode flags (1 where success was seen), for a
// checkpoint.
func (s *SuccessTracker) State() []float64 {
	f := make([]float64, len(s.seen))
	for i, v := range s.seen {
		if v {
			f[i] = 1
		}
	}
	return f
}

// Restore sets the flags State saved; nil (a checkpoint from before success was
// tracked) clears them.
func (s *SuccessTracker) Restore(f []float64) {
	for i := range s.seen {
		s.seen[i] = i < len(f) && f[i] > 0
	}
}
