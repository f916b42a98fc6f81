package train

import (
	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/impala"
	"github.com/rlpool/rlpool/agent/ppo"
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/internal/config"
)

// Learner is what the run loop drives: one Iterate is one rollout and update.
type Learner interface {
	// Iterate collects experience and updates the agent, returning the episodes that
	// finished and the update's statistics (StatNames order).
	Iterate() ([]agent.Episode, []agent.Stat, error)
	// EnvSteps is the number of env steps taken so far.
	EnvSteps() int64
	// Save returns the learner's complete state between Iterate calls.
	Save() (*agent.Checkpoint, error)
	// Load restores a saved state; note says when the run cannot continue exactly.
	Load(c *agent.Checkpoint) (note string, err error)
	// Close releases the env pool.
	Close() error
}

// learnerMaker builds a learner for a config and task and names its statistics.
type learnerMaker func(cfg *config.Config, spec envpool.Spec, f envpool.Factory) (Learner, []string, error)

// learners maps run.algo to its learner.
var learners = map[string]learnerMaker{
	ppo.Algo: func(cfg *config.Config, spec envpool.Spec, f envpool.Factory) (Learner, []string, error) {
		t, err := ppo.New(ppo.Setup{
			Spec:    spec,
			Factory: f,
			Pool:    cfg.Env.PoolOptions(),
			Net:     cfg.Net, PPO: cfg.PPO, Seed: cfg.Run.Seed, TotalSteps: cfg.Run.TotalSteps,
		})
		if err != nil {
			return nil, nil, err
		}
		return t, ppo.StatNames(), nil
	},
	impala.Algo: func(cfg *config.Config, spec envpool.Spec, f envpool.Factory) (Learner, []string, error) {
		l, err := impala.New(impala.Setup{
			Spec:    spec,
			Factory: f,
			Pool:    cfg.Env.PoolOptions(),
			Net:     cfg.Net, IMPALA: cfg.IMPALA, Seed: cfg.Run.Seed, TotalSteps: cfg.Run.TotalSteps,
		})
		if err != nil {
			return nil, nil, err
		}
		return l, impala.StatNames(), nil
	},
}
