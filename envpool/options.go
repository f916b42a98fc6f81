package envpool

import (
	"fmt"
	"runtime"
)

// AutoReset says what happens after a step that ends an episode.
type AutoReset int

const (
	// NextStep is EnvPool's and Gymnasium 1.x's default: the step that ends an episode
	// returns the terminal observation; the env's next step resets it, ignores its
	// action, and returns the first observation with reward 0 and ElapsedStep 0.
	NextStep AutoReset = iota
	// SameStep resets at once: the row carries the reward and flags of the final step,
	// the first observation of the next episode in Obs, and the terminal observation in
	// FinalObs.
	SameStep
)

// String returns the config spelling of the mode.
func (a AutoReset) String() string {
	switch a {
	case NextStep:
		return "next_step"
	case SameStep:
		return "same_step"
	}
	return fmt.Sprintf("AutoReset(%d)", int(a))
}

// ParseAutoReset reads "next_step" or "same_step".
func ParseAutoReset(s string) (AutoReset, error) {
	switch s {
	case "next_step", "":
		return NextStep, nil
	case "same_step":
		return SameStep, nil
	}
	return 0, fmt.Errorf("envpool: auto_reset %q: use next_step or same_step", s)
}

// Options configure a Pool. The zero value of every field but NumEnvs picks EnvPool's
// default. The toml, range and help tags let a config file's [env] section embed
// Options as they are (rlpool's internal/config reads them); Seed and AutoReset are
// the learner's to set, not the user's.
type Options struct {
	// NumEnvs is the number of env instances (required, > 0).
	NumEnvs int `toml:"num_envs" range:"[1,100000]" help:"env instances"`
	// BatchSize is the rows per Recv; 0 means NumEnvs (sync mode); less than NumEnvs is
	// async mode.
	BatchSize int `toml:"batch_size" range:"[0,100000]" help:"rows per batch; 0 = num_envs (sync mode), less is async mode"`
	// NumThreads is the number of worker goroutines; 0 means min(BatchSize, GOMAXPROCS).
	NumThreads int `toml:"num_threads" range:"[0,4096]" help:"pool worker goroutines; 0 = min(batch_size, cores)"`
	// Seed: env i is built with seed Seed+i.
	Seed int64 `toml:"-"`
	// MaxEpisodeSteps truncates episodes at this many steps; 0 takes the spec's limit,
	// a negative value disables the limit.
	MaxEpisodeSteps int `toml:"max_episode_steps" range:"[-1,1e9]" help:"time limit; 0 takes the task's, -1 disables it"`
	// ThreadAffinity pins worker i to core (ThreadAffinityOffset+i) mod NumCPU.
	ThreadAffinity       bool      `toml:"thread_affinity" help:"pin pool workers to cores"`
	ThreadAffinityOffset int       `toml:"thread_affinity_offset" range:"[0,4096]" help:"first core to pin to"`
	AutoReset            AutoReset `toml:"-"`
}

// Resolve returns the options with every default filled in (batch size, threads, the
// time limit from spec) or an error naming the option at fault. New calls it; callers
// that check options before building a pool (configs) call it with their task's spec,
// or nil to check everything but the time limit.
func (o Options) Resolve(spec *Spec) (Options, error) {
	if o.NumEnvs <= 0 {
		return o, fmt.Errorf("envpool: num_envs = %d: must be at least 1", o.NumEnvs)
	}
	if o.BatchSize == 0 {
		o.BatchSize = o.NumEnvs
	}
	if o.BatchSize < 0 || o.BatchSize > o.NumEnvs {
		return o, fmt.Errorf("envpool: batch_size = %d: must be between 1 and num_envs (%d)", o.BatchSize, o.NumEnvs)
	}
	if o.NumThreads == 0 {
		o.NumThreads = min(o.BatchSize, runtime.GOMAXPROCS(0))
	}
	if o.NumThreads < 0 {
		return o, fmt.Errorf("envpool: num_threads = %d: must be at least 1 (0 picks min(batch_size, cores))", o.NumThreads)
	}
	if o.ThreadAffinity && o.ThreadAffinityOffset < 0 {
		return o, fmt.Errorf("envpool: thread_affinity_offset = %d: must be >= 0", o.ThreadAffinityOffset)
	}
	switch {
	case o.MaxEpisodeSteps == 0 && spec != nil:
		o.MaxEpisodeSteps = spec.MaxEpisodeSteps
	case o.MaxEpisodeSteps < 0:
		o.MaxEpisodeSteps = 0
	}
	if o.AutoReset != NextStep && o.AutoReset != SameStep {
		return o, fmt.Errorf("envpool: auto_reset = %d: use NextStep or SameStep", int(o.AutoReset))
	}
	return o, nil
}
