package ppo

// NewRolloutU8 allocates room for capacity slots whose observations are uint8 pixels
// of obsDim elements, kept in ObsU8 as the env produced them (Obs stays empty):
// converting frames to float32 per step would cost a pass over each observation and
// four times the memory, and the Nature CNN reads uint8 directly.
func NewRolloutU8(capacity, obsDim, actWidth, numEnvs int) *Rollout {
	r := NewRollout(capacity, 0, actWidth, numEnvs)
	r.ObsDim = obsDim
	r.ObsU8 = make([]uint8, capacity*obsDim)
	return r
}

// ObsRowU8 returns slot i's pixel observation (a rollout made by NewRolloutU8).
func (r *Rollout) ObsRowU8(i int) []uint8 { return r.ObsU8[i*r.ObsDim : (i+1)*r.ObsDim] }
