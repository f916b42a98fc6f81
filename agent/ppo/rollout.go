package ppo

import (
	"fmt"

	"github.com/rlpool/rlpool/agent"
)

// Rollout stores the transitions of one rollout in the order actions were taken. Each
// slot is one env's step: the observation it acted on, the action, its log-probability
// and value, and (once the env's result comes back) the reward and episode-end flags.
//
// Slots of one env are not contiguous in async mode, where batches mix envs in the
// order they finish; GAE follows each env's slots in order.
type Rollout struct {
	ObsDim, ActWidth int
	N                int // slots in use
	Obs              []float32
	ObsU8            []uint8 // pixel observations instead of Obs (NewRolloutU8)
	Act              []float32
	LogP, Value      []float32
	Reward           []float32
	FinalValue       []float32
	Terminated       []bool
	Truncated        []bool
	Complete         []bool // the env's result for the slot has arrived
	EnvID            []int32
	Adv, Ret         []float32
	// Temperature is the sampling temperature the actions were drawn at
	// (ppo.temperature): LogP is log softmax(logits / Temperature).
	Temperature float64

	byEnv [][]int // scratch: slot indices per env
	steps []Step
}

// NewRollout allocates room for capacity slots.
func NewRollout(capacity, obsDim, actWidth, numEnvs int) *Rollout {
	return &Rollout{
		ObsDim: obsDim, ActWidth: actWidth,
		Obs: make([]float32, capacity*obsDim), Act: make([]float32, capacity*actWidth),
		LogP: make([]float32, capacity), Value: make([]float32, capacity),
		Reward: make([]float32, capacity), FinalValue: make([]float32, capacity),
		Terminated: make([]bool, capacity), Truncated: make([]bool, capacity),
		Complete: make([]bool, capacity), EnvID: make([]int32, capacity),
		Adv: make([]float32, capacity), Ret: make([]float32, capacity),
		byEnv: make([][]int, numEnvs),
	}
}

// Cap is the number of slots.
func (r *Rollout) Cap() int { return len(r.LogP) }

// Clear empties the storage for the next rollout.
func (r *Rollout) Clear() { r.N = 0 }

// Add takes the next slot for env and returns its index.
func (r *Rollout) Add(env int32) (int, error) {
	if r.N >= r.Cap() {
		return 0, fmt.Errorf("agent: rollout full (%d slots)", r.Cap())
	}
	i := r.N
	r.N++
	r.EnvID[i] = env
	r.Complete[i] = false
	r.Terminated[i], r.Truncated[i] = false, false
	r.Reward[i], r.FinalValue[i] = 0, 0
	return i, nil
}

// ObsRow and ActRow return slot i's observation and action.
func (r *Rollout) ObsRow(i int) []float32 { return r.Obs[i*r.ObsDim : (i+1)*r.ObsDim] }

// ActRow returns slot i's action.
func (r *Rollout) ActRow(i int) []float32 { return r.Act[i*r.ActWidth : (i+1)*r.ActWidth] }

// ComputeGAE fills Adv and Ret for every slot. lastValues[e] is V of env e's current
// (not yet acted on) observation, the bootstrap after its last slot. Every slot must be
// complete.
func (r *Rollout) ComputeGAE(lastValues []float32, gamma, lambda float64, bootstrapTruncated bool) error {
	for e := range r.byEnv {
		r.byEnv[e] = r.byEnv[e][:0]
	}
	for i := range r.N {
		if !r.Complete[i] {
			return fmt.Errorf("agent: rollout slot %d (env %d) has no result yet", i, r.EnvID[i])
		}
		r.byEnv[r.EnvID[i]] = append(r.byEnv[r.EnvID[i]], i)
	}
	var adv, ret []float32
	for e, idx := range r.byEnv {
		if len(idx) == 0 {
			continue
		}
		r.steps = r.steps[:0]
		for _, i := range idx {
			r.steps = append(r.steps, Step{Reward: r.Reward[i], Value: r.Value[i],
				Terminated: r.Terminated[i], Truncated: r.Truncated[i], FinalValue: r.FinalValue[i]})
		}
		adv, ret = grow(adv, len(idx)), grow(ret, len(idx))
		GAE(r.steps, lastValues[e], gamma, lambda, bootstrapTruncated, adv, ret)
		for k, i := range idx {
			r.Adv[i], r.Ret[i] = adv[k], ret[k]
		}
	}
	return nil
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// ExplainedVariance returns 1 - Var(returns - values) / Var(returns) over the slots:
// 1 is a perfect value function, 0 no better than a constant, NaN when the returns do
// not vary.
func (r *Rollout) ExplainedVariance() float64 {
	return agent.ExplainedVariance(r.Ret[:r.N], r.Value[:r.N])
}
