package ppo

import (
	"errors"

	"github.com/rlpool/rlpool/agent"
)

// iterateOverlapped is Iterate under ppo.overlap: the update on the rollout waiting in
// other runs on a goroutine of its own while the next rollout is collected into store
// by the acting pass on a copy of the weights taken before the update. The two share
// nothing they write: the update owns the policy's weights, the training graph, Adam
// and learnRNG; the collection owns the acting graph and its copy of the weights,
// the pool, the observation and reward statistics, rng and store. The first call (and
// the first after a Load) collects the waiting rollout first.
func (t *Trainer) iterateOverlapped(lr, clip float64) ([]agent.Stat, error) {
	if t.other.N == 0 { // no rollout waiting: a new trainer's first call
		t.syncActor()
		if err := t.rollout(); err != nil {
			return nil, err
		}
		t.store, t.other = t.other, t.store
	}
	t.syncActor()
	var stats []agent.Stat
	var learnErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		learnErr = inPhase("learn", func() (err error) {
			stats, err = t.learn(t.other, t.learnRNG, lr, clip)
			return err
		})
	}()
	collectErr := t.rollout()
	<-done
	if err := errors.Join(learnErr, collectErr); err != nil {
		return nil, err
	}
	t.store, t.other = t.other, t.store
	return stats, nil
}

// syncActor copies the policy's weights into the acting pass's copy; the next collect
// declares them fixed.
func (t *Trainer) syncActor() {
	for i, p := range t.actor.Params() {
		copy(p.F32(), t.params[i].F32())
	}
}
