package ppo

import (
	"errors"
	"fmt"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/optim"
)

// Algo is the learner name written into checkpoints and configs.
const Algo = "ppo"

// Save returns the trainer's complete state between two Iterate calls: weights, Adam
// moments, normalisation statistics, the sampling generator, counters, each env's
// running episode, and (when the envs can save their state) the envs themselves, so
// that Load continues the run exactly.
func (t *Trainer) Save() (*agent.Checkpoint, error) {
	c := agent.NewCheckpoint(Algo, t.spec.TaskID, t.envSteps)
	c.PutParams("", t.params)
	st := t.opt.SaveState()
	if t.optState != nil { // loaded from a checkpoint, not yet applied
		st = *t.optState
	}
	for i, p := range t.params {
		if st.S1 != nil {
			c.F64["adam.m."+p.Name] = st.S1[i]
			c.F64["adam.v."+p.Name] = st.S2[i]
		}
	}
	c.I64["adam.t"] = []int64{int64(st.Steps)}
	c.F64["adaptive_lr"] = []float64{t.lr}
	c.PutRMS("obs_rms", t.obsRMS)
	c.PutRMS("ret_rms", t.rew.RMS)
	c.F64["ret_rms.returns"] = append([]float64(nil), t.rew.Returns...)
	rng, err := t.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c.Bytes["rng"] = rng
	c.I64["counters"] = []int64{t.envSteps, int64(t.updates), b2i(t.started)}
	c.F64["episode.return"] = append([]float64(nil), t.epRet...)
	c.F64["episode.success"] = t.success.State()
	lens := make([]int64, len(t.epLen))
	for i, v := range t.epLen {
		lens[i] = int64(v)
	}
	c.I64["episode.length"] = lens
	c.F32["held_obs"] = append([]float32(nil), t.held...)
	c.Bytes["held_obs_u8"] = append([]byte(nil), t.heldU8...) // pixels (pixels.go)
	if t.started {
		states, err := SnapshotEnvs(t.pool)
		switch {
		case errors.Is(err, agent.ErrNoEnvState):
			// Resume will restart the episodes; Load says so.
		case err != nil:
			return nil, err
		default:
			c.Blobs["env_states"] = states
		}
	}
	return c, nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Load restores a state written by Save into a trainer built with the same settings.
// It returns a note when the run cannot continue exactly (the envs could not save
// their state, so their episodes restart).
func (t *Trainer) Load(c *agent.Checkpoint) (note string, err error) {
	if c.Algo != Algo {
		return "", fmt.Errorf("ppo: checkpoint was written by %q, not ppo", c.Algo)
	}
	if c.TaskID != t.spec.TaskID {
		return "", fmt.Errorf("ppo: checkpoint is for task %s, this run is %s", c.TaskID, t.spec.TaskID)
	}
	if err := c.GetParams("", t.params); err != nil {
		return "", err
	}
	if at := c.I64["adam.t"]; len(at) == 1 && at[0] > 0 {
		st := optim.State{Steps: int(at[0])}
		for _, p := range t.params {
			m, okm := c.F64["adam.m."+p.Name]
			v, okv := c.F64["adam.v."+p.Name]
			if !okm || !okv {
				return "", fmt.Errorf("ppo: checkpoint lacks Adam state for %s", p.Name)
			}
			st.S1, st.S2 = append(st.S1, m), append(st.S2, v)
		}
		// optim needs the gradients bound, which happens on the machine's first run:
		// learn applies the state then.
		t.optState = &st
	}
	if err := c.GetRMS("obs_rms", t.obsRMS); err != nil {
		return "", err
	}
	if err := c.GetRMS("ret_rms", t.rew.RMS); err != nil {
		return "", err
	}
	if r := c.F64["ret_rms.returns"]; len(r) == len(t.rew.Returns) {
		copy(t.rew.Returns, r)
	}
	if err := t.pcg.UnmarshalBinary(c.Bytes["rng"]); err != nil {
		return "", fmt.Errorf("ppo: checkpoint generator state: %w", err)
	}
	cnt := c.I64["counters"]
	if len(cnt) != 3 {
		return "", fmt.Errorf("ppo: checkpoint lacks its counters")
	}
	t.envSteps, t.updates = cnt[0], int(cnt[1])
	if lr := c.F64["adaptive_lr"]; len(lr) == 1 { // absent in checkpoints older than the schedule
		t.lr = lr[0]
	}
	states, ok := c.Blobs["env_states"]
	if !ok || cnt[2] == 0 {
		t.started = false
		return "the envs could not save their state: episodes restart on resume", nil
	}
	if err := RestoreEnvs(t.pool, states); err != nil {
		if errors.Is(err, agent.ErrNoEnvState) {
			t.started = false
			return "the envs cannot restore their state: episodes restart on resume", nil
		}
		return "", err
	}
	held, ret, lens := c.F32["held_obs"], c.F64["episode.return"], c.I64["episode.length"]
	heldU8 := c.Bytes["held_obs_u8"]
	if len(held) != len(t.held) || len(heldU8) != len(t.heldU8) || len(ret) != t.numEnvs || len(lens) != t.numEnvs {
		return "", fmt.Errorf("ppo: checkpoint env data does not match %d envs; resume with the run's own env.num_envs", t.numEnvs)
	}
	copy(t.held, held)
	copy(t.heldU8, heldU8)
	copy(t.epRet, ret)
	t.success.Restore(c.F64["episode.success"])
	for i, v := range lens {
		t.epLen[i] = int(v)
	}
	t.started = true
	return "", nil
}
