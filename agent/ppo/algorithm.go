package ppo

import (
	"fmt"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// Algorithm describes PPO to the application: its [ppo] section, checks, constructor,
// statistics and evaluation policy.
var Algorithm = agent.AlgorithmOf[Config]{
	Name:      Algo,
	Defaults:  DefaultConfig,
	Check:     func(c *Config, pool envpool.Options) error { return c.Check(pool.NumEnvs) },
	CheckSpec: func(c *Config, net model.NetConfig, spec *envpool.Spec) error { return CheckSpec(*c, net, spec) },
	New:       func(s agent.Setup, c *Config) (agent.Learner, error) { return New(s, *c) },
	StatNames: StatNames(),
	Policy:    trainedPolicy,
}.Erase()

// trainedPolicy restores the policy of a PPO checkpoint, with the observation
// statistics when the run normalised observations and the sampling temperature the
// run had reached.
func trainedPolicy(pc *Config, net model.NetConfig, spec *envpool.Spec, c *agent.Checkpoint) (*agent.Trained, error) {
	p, err := newPolicy(spec, net, *pc)
	if err != nil {
		return nil, err
	}
	if err := c.GetParams("", p.Params()); err != nil {
		return nil, err
	}
	tr := &agent.Trained{Policy: p, Temperature: pc.TemperatureAt(c.EnvSteps)}
	if pc.NormObs {
		tr.ObsRMS, tr.ObsClip = agent.NewRunningMeanStd(p.ObsDim), pc.ObsClip
		if err := c.GetRMS("obs_rms", tr.ObsRMS); err != nil {
			return nil, fmt.Errorf("ppo: %w", err)
		}
	}
	return tr, nil
}
