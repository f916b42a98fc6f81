package toytext

import "github.com/rlpool/rlpool/envpool"

// nchainStates is the length of the chain.
const nchainStates = 5

func buildNChain(o discreteOptions) (task, error) {
	spec := envpool.Spec{ObsSpace: o.obsSpace(nchainStates), ActionSpace: envpool.DiscreteSpace(2)}
	return task{spec: spec, make: func(seed int64) envpool.Env {
		return &NChain{gen: newGen(seed), oneHot: o.OneHot}
	}}, nil
}

// NChain is EnvPool's NChain-v0 (gym's legacy task): walk forward along a chain of
// five states for a large reward at its end, or go back to the start for a small one.
type NChain struct {
	gen
	s      int
	oneHot bool
}

// Reset puts the walker at the start of the chain.
func (e *NChain) Reset() { e.s = 0 }

// Step takes action 0 forward or 1 back, swapped with probability 0.2: back returns
// to the start for 2, forward moves one state on for 0, or stays at the end for 10.
func (e *NChain) Step(act []float32) envpool.StepResult {
	a := action(act, 2)
	if e.rng.Float64() < 0.2 {
		a = 1 - a
	}
	switch {
	case a != 0:
		e.s = 0
		return envpool.StepResult{Reward: 2}
	case e.s < nchainStates-1:
		e.s++
		return envpool.StepResult{}
	}
	return envpool.StepResult{Reward: 10}
}

// Observe writes the walker's state.
func (e *NChain) Observe(obs envpool.Obs, _ []float32) {
	writeState(obs.F32, e.s, nchainStates, e.oneHot)
}
