package agent

import (
	"fmt"

	"github.com/rlpool/rlpool/envpool"
)

// CheckPool reports pool options a learner cannot use, naming the config keys: the
// engine's own checks (envpool.Options.Resolve), and a batch size that divides the
// number of envs, so that every env is in the same number of batches per rollout.
func CheckPool(o envpool.Options) error {
	r, err := o.Resolve(nil)
	if err != nil {
		return err
	}
	if r.NumEnvs%r.BatchSize != 0 {
		return fmt.Errorf("env.batch_size = %d must divide env.num_envs = %d", r.BatchSize, r.NumEnvs)
	}
	return nil
}

// NewPool builds a learner's pool number index: the options checked by CheckPool,
// seeded with PoolSeed(seed, index), in SameStep auto-reset mode (every row is a real
// transition; the terminal observation is in FinalObs), and with the episode time
// limit (o.MaxEpisodeSteps; 0 takes the spec's, negative none) applied by TimeLimit
// around each env rather than by the pool, so that the step count is part of the env's
// saved state and a resumed run truncates where an uninterrupted one would.
func NewPool(spec envpool.Spec, f envpool.Factory, o envpool.Options, seed int64, index int) (*envpool.Pool, error) {
	if err := CheckPool(o); err != nil {
		return nil, err
	}
	limit := o.MaxEpisodeSteps
	if limit == 0 {
		limit = spec.MaxEpisodeSteps
	}
	o.MaxEpisodeSteps = -1
	o.AutoReset = envpool.SameStep
	o.Seed = PoolSeed(seed, index)
	return envpool.New(spec, TimeLimit(f, limit), o)
}
