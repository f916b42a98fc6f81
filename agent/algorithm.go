package agent

import (
	"fmt"

	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// Learner is what the run loop drives: one Iterate is one rollout and update (PPO) or
// one learner step (IMPALA).
type Learner interface {
	// Iterate collects experience and updates the agent, returning the episodes that
	// finished and the update's statistics (in the Algorithm's StatNames order).
	Iterate() ([]Episode, []Stat, error)
	// EnvSteps is the number of env steps taken so far.
	EnvSteps() int64
	// Save returns the learner's complete state between Iterate calls.
	Save() (*Checkpoint, error)
	// Load restores a saved state; note says when the run cannot continue exactly.
	Load(c *Checkpoint) (note string, err error)
	// Close releases the env pools.
	Close() error
}

// Setup is what every learner is built from besides its own config section: the task,
// the [env] pool options, the [net] section, the run seed and the step budget.
type Setup struct {
	Spec    envpool.Spec
	Factory envpool.Factory
	// Pool holds num_envs, batch_size, num_threads, affinity and MaxEpisodeSteps (0:
	// the spec's limit; < 0: none); NewPool sets the seed and the auto-reset mode.
	Pool       envpool.Options
	Net        model.NetConfig
	Seed       int64
	TotalSteps int64
}

// Trained is a policy restored from a checkpoint for evaluation, with the observation
// normalisation it was trained with (nil when none).
type Trained struct {
	Policy  *model.Policy
	ObsRMS  *RunningMeanStd
	ObsClip float64 // clip of normalised observations; 0 for none
	// Temperature is the categorical policy's sampling temperature at the checkpoint
	// (PPO's ppo.temperature schedule): sampled actions come from softmax(logits / T).
	// 0 or 1: the logits as they are.
	Temperature float64
}

// Algorithm describes one learner to the application: configs, the run loop and
// `train eval` know a learner only through it. A learner package exports one, and the
// application lists it once (internal/config's Algorithms). Config values are pointers
// to the learner's own section struct, whose toml, range, oneof and help tags are the
// section's schema.
type Algorithm struct {
	// Name is run.algo's value, the config section's name ([ppo]) and the Algo of the
	// learner's checkpoints.
	Name string
	// NewConfig returns a pointer to the section's defaults.
	NewConfig func() any
	// Check reports settings of the section that are fine alone but not together, or
	// not with the pool (e.g. minibatches that do not divide the rollout).
	Check func(cfg any, pool envpool.Options) error
	// CheckSpec reports settings that do not fit a task's spaces, before a run
	// directory is made.
	CheckSpec func(cfg any, net model.NetConfig, spec *envpool.Spec) error
	// New builds the learner, its pools and graphs.
	New func(s Setup, cfg any) (Learner, error)
	// StatNames names the statistics Iterate returns, in order.
	StatNames []string
	// Policy restores the acting policy of one of the learner's checkpoints.
	Policy func(cfg any, net model.NetConfig, spec *envpool.Spec, c *Checkpoint) (*Trained, error)
}

// AlgorithmOf is an Algorithm written with the learner's own section type C: a learner
// package fills it in and calls Erase, so that no learner writes type assertions.
type AlgorithmOf[C any] struct {
	Name      string
	Defaults  func() C
	Check     func(cfg *C, pool envpool.Options) error                                               // nil: nothing to check
	CheckSpec func(cfg *C, net model.NetConfig, spec *envpool.Spec) error                            // nil: fits every task
	New       func(s Setup, cfg *C) (Learner, error)                                                 // required
	StatNames []string                                                                               // Iterate's statistics
	Policy    func(cfg *C, net model.NetConfig, spec *envpool.Spec, c *Checkpoint) (*Trained, error) // required
}

// Erase returns the Algorithm the application registers: each function checks that it
// was handed a *C and calls the typed one.
func (a AlgorithmOf[C]) Erase() Algorithm {
	section := func(cfg any) (*C, error) {
		c, ok := cfg.(*C)
		if !ok {
			var want *C
			return nil, fmt.Errorf("agent: learner %s got a config section of type %T, want %T", a.Name, cfg, want)
		}
		return c, nil
	}
	return Algorithm{
		Name:      a.Name,
		NewConfig: func() any { c := a.Defaults(); return &c },
		Check: func(cfg any, pool envpool.Options) error {
			c, err := section(cfg)
			if err != nil || a.Check == nil {
				return err
			}
			return a.Check(c, pool)
		},
		CheckSpec: func(cfg any, net model.NetConfig, spec *envpool.Spec) error {
			c, err := section(cfg)
			if err != nil || a.CheckSpec == nil {
				return err
			}
			return a.CheckSpec(c, net, spec)
		},
		New: func(s Setup, cfg any) (Learner, error) {
			c, err := section(cfg)
			if err != nil {
				return nil, err
			}
			return a.New(s, c)
		},
		StatNames: a.StatNames,
		Policy: func(cfg any, net model.NetConfig, spec *envpool.Spec, ck *Checkpoint) (*Trained, error) {
			c, err := section(cfg)
			if err != nil {
				return nil, err
			}
			return a.Policy(c, net, spec, ck)
		},
	}
}
