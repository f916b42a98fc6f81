package envpool

// Obs is where an environment writes one observation: a row of the batch's observation
// array, of the spec's dtype. Exactly one of the two slices is set.
type Obs struct {
	F32 []float32
	U8  []uint8
}

// StepResult is what one env step reports besides its observation.
type StepResult struct {
	Reward     float32
	Terminated bool // the episode reached a terminal state of the MDP
	Truncated  bool // the env itself cut the episode short (e.g. a physics error); the pool adds the time limit
}

// Env is one environment instance. The pool calls it from one worker goroutine at a time,
// in the order Reset, then Step any number of times, with Observe after each Reset and
// Step. Stepping and observing are separate so that the pool can claim an output row only
// once the step is done (the first envs to finish fill a batch) and the env writes its
// observation straight into that row.
//
// An env draws all its randomness from a generator seeded at construction, so that its
// trajectory depends only on its seed and the actions it is given.
type Env interface {
	// Reset starts a new episode.
	Reset()
	// Step advances the episode by one env step with the given action: one element for
	// discrete spaces (an integer value), ActionSpace.Size() elements for boxes.
	Step(action []float32) StepResult
	// Observe writes the current observation into obs and the family's info columns
	// (Spec.InfoKeys order, Spec.InfoLens columns each) into info.
	Observe(obs Obs, info []float32)
}

// Factory builds env number index of a pool with its seed (the pool's seed plus index).
type Factory func(index int, seed int64) (Env, error)
