package ppo

import (
	"encoding"
	"fmt"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/envpool"
)

// SnapshotEnvs returns every env's saved state, or ErrNoEnvState when an env cannot
// save it. The pool must be idle (nothing in flight).
func SnapshotEnvs(p *envpool.Pool) ([][]byte, error) {
	out := make([][]byte, p.NumEnvs())
	for i := range out {
		m, ok := p.Env(i).(encoding.BinaryMarshaler)
		if !ok {
			return nil, agent.ErrNoEnvState
		}
		b, err := m.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("ppo: save env %d: %w", i, err)
		}
		out[i] = b
	}
	return out, nil
}

// RestoreEnvs loads states saved by SnapshotEnvs into an idle pool's envs and tells the
// pool they hold episodes in progress, so that the next step continues them.
func RestoreEnvs(p *envpool.Pool, states [][]byte) error {
	if len(states) != p.NumEnvs() {
		return fmt.Errorf("ppo: checkpoint holds %d env states but the pool has %d envs; resume with the run's own env.num_envs", len(states), p.NumEnvs())
	}
	for i, s := range states {
		u, ok := p.Env(i).(encoding.BinaryUnmarshaler)
		if !ok {
			return agent.ErrNoEnvState
		}
		if err := u.UnmarshalBinary(s); err != nil {
			return fmt.Errorf("ppo: restore env %d: %w", i, err)
		}
		// The env holds an episode in progress: its next step continues it rather than
		// starting it as a fresh env's first step would.
		if err := p.Resumed(i); err != nil {
			return fmt.Errorf("ppo: restore env %d: %w", i, err)
		}
	}
	return nil
}
