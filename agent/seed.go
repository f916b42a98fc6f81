package agent

import "math/rand/v2"

// A run has one seed (run.seed). Every source of randomness in a learner derives from
// it here, each with its own PCG stream, so that two uses never share draws and a
// change to one leaves the others as they were.
const (
	// StreamPPO is PPO's generator: weight init, then action sampling and minibatch
	// shuffles (its state is saved in checkpoints).
	StreamPPO uint64 = 0x5eed_0f_9e0
	// StreamInit initialises IMPALA's weights.
	StreamInit uint64 = 0x1a9a1a
	// StreamActor plus the actor's index is an IMPALA actor's sampling generator.
	StreamActor uint64 = 0xac7
	// StreamEval samples the actions of `train eval` (with its own -seed).
	StreamEval uint64 = 0xe7a1
	// StreamPPOLearn shuffles PPO's minibatches when ppo.overlap runs the update on a
	// goroutine of its own, beside the sampling of the next rollout.
	StreamPPOLearn uint64 = 0x5eed_0f_9e1
)

// NewPCG returns the generator of stream for a run seed.
func NewPCG(seed int64, stream uint64) *rand.PCG { return rand.NewPCG(uint64(seed), stream) }

// NewRand returns a rand.Rand over NewPCG(seed, stream).
func NewRand(seed int64, stream uint64) *rand.Rand { return rand.New(NewPCG(seed, stream)) }

// PoolSeed is the envpool seed of a learner's pool number index (env i of that pool is
// seeded PoolSeed + i). Seeds are spread apart so that run seed s+1's envs are not seed
// s's shifted by one, and pools of one run (IMPALA's actors) do not overlap below
// 100,000 envs each.
func PoolSeed(seed int64, index int) int64 { return seed*1_000_003 + int64(index)*100_000 }
