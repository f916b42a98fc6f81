package ppo

import (
	"math"

	"github.com/rlpool/rlpool/agent"
)

// RewardScaler divides rewards by the running standard deviation of each env's
// discounted return, as Gymnasium's NormalizeReward wrapper (used by CleanRL's
// continuous-control PPO) does, and then clips them.
type RewardScaler struct {
	Gamma   float64
	Clip    float64   // <= 0 disables clipping
	Returns []float64 // per env discounted return so far
	RMS     *agent.RunningMeanStd
	batch   []float64
}

// NewRewardScaler returns a scaler for numEnvs envs.
func NewRewardScaler(numEnvs int, gamma, clip float64) *RewardScaler {
	return &RewardScaler{Gamma: gamma, Clip: clip, Returns: make([]float64, numEnvs), RMS: agent.NewRunningMeanStd(1)}
}

// Scale updates the return statistics with one batch of rows (env ids, raw rewards,
// episode-end flags) and overwrites rewards with the scaled, clipped values.
func (s *RewardScaler) Scale(envIDs []int32, rewards []float32, done []bool) {
	s.batch = s.batch[:0]
	for i, e := range envIDs {
		s.Returns[e] = s.Returns[e]*s.Gamma + float64(rewards[i])
		s.batch = append(s.batch, s.Returns[e])
	}
	s.RMS.UpdateScalars(s.batch)
	std := math.Sqrt(s.RMS.Var[0] + 1e-8)
	for i, e := range envIDs {
		r := float64(rewards[i]) / std
		if s.Clip > 0 {
			r = math.Max(-s.Clip, math.Min(s.Clip, r))
		}
		rewards[i] = float32(r)
		if done[i] {
			s.Returns[e] = 0
		}
	}
}
