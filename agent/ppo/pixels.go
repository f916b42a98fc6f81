package ppo

import (
	"fmt"

	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// Pixel observations and Atari episodes.
//
// With network = nature_cnn (or auto on a task with uint8 C x H x W observations) or
// small_cnn the policy is model.NewCNNPolicy's CNN, and observations stay uint8 from the pool
// to the network: each env's current observation, the rollout (Rollout.ObsU8,
// a quarter of the float32 size: 16 envs x 128 steps of 4x84x84 frames take 58 MB)
// and both graphs' inputs. The first convolution scales the pixels by 1/255 inside its
// GEMMs. Running observation normalisation does not apply to pixels.
//
// The head follows the action space as it does on the MLPs: categorical logits for
// Discrete actions (Atari), or for a Box (the control suite's rendered frames) the
// means of a diagonal Gaussian with the MLP policy's state-independent log std. The
// rest of PPO cannot tell the two torsos apart: sampling, the log-probabilities and
// entropy of the loss, and clipping actions to the box on their way to the env are
// the same code for both.
//
// Episodes are logged as games with raw scores (item 14): when the task has the
// "reward" info column (the unclipped reward) returns sum it instead of the reward the
// learner sees, and when it has "terminated" (the game is over) an episode that ended
// by a life lost under episodic_life is not logged: the game's return and length run
// on over its lives. Tasks without those columns log every episode from the rewards.

// newPolicy builds the policy network a config asks for on a spec (net.network).
func newPolicy(spec *envpool.Spec, net model.NetConfig, cfg Config) (*model.Policy, error) {
	if err := CheckSpec(cfg, net, spec); err != nil {
		return nil, err
	}
	return model.New(net, spec)
}

// CheckSpec reports whether a PPO config fits a task's spaces (network, head,
// observation normalisation); configs call it before a run directory is made.
func CheckSpec(cfg Config, net model.NetConfig, spec *envpool.Spec) error {
	network, err := model.ResolveNetwork(net.Network, spec)
	if err != nil {
		return err
	}
	head, err := model.ResolveHead(net.Head, spec.ActionSpace)
	if err != nil {
		return err
	}
	if cfg.Temperature != 1 && cfg.Temperature != 0 && head != model.HeadCategorical {
		return fmt.Errorf("ppo.temperature = %g applies to a categorical policy only, and %s's head is %s: set it to 1", cfg.Temperature, spec.TaskID, head)
	}
	if model.CNNArch(network) != nil && cfg.NormObs {
		return fmt.Errorf("ppo.norm_obs = true does not apply to net.network = %s (it scales pixels by 1/255): set it false", network)
	}
	return nil
}

// pixels reports whether observations are uint8 pixels (a CNN policy).
func (t *Trainer) pixels() bool { return t.policy.Torso != nil }

// initObs allocates the per-env observations and the rollout in the spec's dtype and
// finds the info columns of raw rewards and game ends.
func (t *Trainer) initObs(total int) {
	if t.pixels() {
		t.heldU8 = make([]uint8, t.numEnvs*t.obsDim)
	} else {
		t.held = make([]float32, t.numEnvs*t.obsDim)
	}
	t.store = t.newRollout(total)
	t.rawRewardCol, t.gameOverCol = t.spec.InfoIndex("reward"), t.spec.InfoIndex("terminated")
}

// newRollout allocates a rollout of total slots in the spec's dtype.
func (t *Trainer) newRollout(total int) *Rollout {
	if t.pixels() {
		return NewRolloutU8(total, t.obsDim, t.actWidth, t.numEnvs)
	}
	return NewRollout(total, t.obsDim, t.actWidth, t.numEnvs)
}

// hold records row i of b as env e's current observation.
func (t *Trainer) hold(e int, b *envpool.Batch, i int) {
	d := t.obsDim
	if t.heldU8 != nil {
		copy(t.heldU8[e*d:(e+1)*d], b.RowU8(i))
		return
	}
	copy(t.held[e*d:(e+1)*d], b.RowF32(i))
}

// updateObsStats folds a batch's observations into the running statistics (norm_obs).
func (t *Trainer) updateObsStats(b *envpool.Batch) {
	if t.cfg.NormObs && b.ObsF32 != nil {
		t.obsRMS.Update(b.ObsF32, b.Size)
	}
}

// inputHeld writes env e's current observation, as the policy sees it, into row k of
// the inference graph's input.
func (t *Trainer) inputHeld(k, e int) { t.inputRow(k, t.heldU8, t.held, e) }

// inputFinal writes row i's terminal observation (b.FinalObs), as the policy sees it,
// into row k of the inference graph's input.
func (t *Trainer) inputFinal(k int, b *envpool.Batch, i int) {
	t.inputRow(k, b.FinalObsU8, b.FinalObsF32, i)
}

// inputRow writes observation i, as the policy sees it, into row k of the inference
// graph's input: row i of the pixels u8 for a pixel policy, else row i of the values
// f32, normalized.
func (t *Trainer) inputRow(k int, u8 []uint8, f32 []float32, i int) {
	d := t.obsDim
	if t.heldU8 != nil {
		copy(t.acting.Obs.Data().([]uint8)[k*d:(k+1)*d], u8[i*d:(i+1)*d])
		return
	}
	in := t.acting.Obs.Data().([]float32)
	t.normalized(f32[i*d:(i+1)*d], in[k*d:(k+1)*d])
}

// clearInput zeroes the inference graph's input (rows not written stay defined).
func (t *Trainer) clearInput() {
	switch in := t.acting.Obs.Data().(type) {
	case []float32:
		clear(in)
	case []uint8:
		clear(in)
	}
}

// storeObs copies row k of the inference input (the observation slot's action was
// sampled from) into the rollout.
func (t *Trainer) storeObs(slot, k int) {
	d := t.obsDim
	if t.heldU8 != nil {
		copy(t.store.ObsRowU8(slot), t.acting.Obs.Data().([]uint8)[k*d:(k+1)*d])
		return
	}
	copy(t.store.ObsRow(slot), t.acting.Obs.Data().([]float32)[k*d:(k+1)*d])
}

// loadObs copies the observation of r's slot into row k of the training graph's
// input.
func (t *Trainer) loadObs(r *Rollout, k, slot int) {
	d := t.obsDim
	if t.heldU8 != nil {
		copy(t.train.obs.Data().([]uint8)[k*d:(k+1)*d], r.ObsRowU8(slot))
		return
	}
	copy(t.train.obs.Data().([]float32)[k*d:(k+1)*d], r.ObsRow(slot))
}

// rawReward is row i's reward for the episode log: the unclipped reward when the task
// reports it, else the reward.
func (t *Trainer) rawReward(b *envpool.Batch, i int) float64 {
	if t.rawRewardCol >= 0 {
		return float64(b.InfoRow(i)[t.rawRewardCol])
	}
	return float64(b.Reward[i])
}

// episodeOver reports whether row i, which ended an episode for the learner, also ends
// the logged one: not when only a life was lost (episodic_life) and the game goes on.
func (t *Trainer) episodeOver(b *envpool.Batch, i int) bool {
	if t.gameOverCol < 0 || b.Truncated[i] {
		return true
	}
	return b.InfoRow(i)[t.gameOverCol] != 0
}
