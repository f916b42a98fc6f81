package impala

import (
	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// Algorithm describes IMPALA to the application: its [impala] section, checks,
// constructor, statistics and evaluation policy.
var Algorithm = agent.AlgorithmOf[Config]{
	Name:      Algo,
	Defaults:  DefaultConfig,
	CheckSpec: func(_ *Config, net model.NetConfig, spec *envpool.Spec) error { return CheckSpec(net, spec) },
	New:       func(s agent.Setup, c *Config) (agent.Learner, error) { return New(s, *c) },
	StatNames: StatNames(),
	Policy:    trainedPolicy,
}.Erase()

// trainedPolicy restores the acting policy of an IMPALA checkpoint (the categorical
// head of the [net] MLPs or of the Nature CNN), including checkpoints that name the
// Nature CNN's heads the older way (legacyNames).
func trainedPolicy(_ *Config, net model.NetConfig, spec *envpool.Spec, c *agent.Checkpoint) (*agent.Trained, error) {
	n, err := newNet(spec, net, 0)
	if err != nil {
		return nil, err
	}
	upgradeNames(c)
	if err := c.GetParams("", n.params); err != nil {
		return nil, err
	}
	return &agent.Trained{Policy: n.policy}, nil
}
