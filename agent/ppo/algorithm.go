package ppo

import (
	"fmt"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/envpool"
)

// Algorithm describes PPO to the application: its [ppo] section, checks, constructor,
// statistics and evaluation policy.
var Algorithm = agent.Algorithm{
	Name:      Algo,
	NewConfig: func() any { c := DefaultConfig(); return &c },
	Check: func(cfg any, pool envpool.Options) error {
		c, err := agent.SectionOf[Config](Algo, cfg)
		if err != nil {
			return err
		}
		return c.Check(pool.NumEnvs)
	},
	CheckSpec: func(cfg any, net agent.NetConfig, spec *envpool.Spec) error {
		c, err := agent.SectionOf[Config](Algo, cfg)
		if err != nil {
			return err
		}
		return CheckSpec(*c, net, spec)
	},
	New: func(s agent.Setup, cfg any) (agent.Learner, error) {
		c, err := agent.SectionOf[Config](Algo, cfg)
		if err != nil {
			return nil, err
		}
		return New(s, *c)
	},
	StatNames: StatNames(),
	Policy:    trainedPolicy,
}

// trainedPolicy restores the policy of a PPO checkpoint, with the observation
// statistics when the run normalised observations.
func trainedPolicy(cfg any, net agent.NetConfig, spec *envpool.Spec, c *agent.Checkpoint) (*agent.Trained, error) {
	pc, err := agent.SectionOf[Config](Algo, cfg)
	if err != nil {
		return nil, err
	}
	p, err := newPolicy(spec, net, *pc)
	if err != nil {
		return nil, err
	}
	if err := c.GetParams("", p.Params()); err != nil {
		return nil, err
	}
	tr := &agent.Trained{Policy: p}
	if pc.NormObs {
		tr.ObsRMS, tr.ObsClip = agent.NewRunningMeanStd(p.ObsDim), pc.ObsClip
		if err := c.GetRMS("obs_rms", tr.ObsRMS); err != nil {
			return nil, fmt.Errorf("ppo: %w", err)
		}
	}
	return tr, nil
}
