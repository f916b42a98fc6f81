package play

import (
	"maps"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/internal/config"
)

// ppoNature reports whether a PPO run's policy is the Nature CNN (ppo.network
// nature_cnn, or auto on image observations).
func ppoNature(cfg *config.Config, spec *envpool.Spec) bool {
	net, err := agent.ResolveNetwork("ppo.network", cfg.PPO.Network, spec)
	return err == nil && net == agent.NetworkNatureCNN
}

// loadPPONature builds the Nature CNN policy of a PPO checkpoint. PPO's CNN policy
// (agent.NewCNNPolicy) names the torso as IMPALA does and its linear actor
// "actor.w0" (512 x A) and "actor.b0" (A values), which loadNature reads under IMPALA's
// head names.
func loadPPONature(c *agent.Checkpoint, spec envpool.Spec) (*cnnNet, error) {
	alias := *c
	alias.F32 = maps.Clone(c.F32)
	alias.F32[policyWeight], alias.F32[policyBias] = c.F32["actor.w0"], c.F32["actor.b0"]
	return loadNature(&alias, spec)
}
