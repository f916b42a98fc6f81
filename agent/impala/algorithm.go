package impala

import (
	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/envpool"
)

// Algorithm describes IMPALA to the application: its [impala] section, checks,
// constructor, statistics and evaluation policy.
var Algorithm = agent.Algorithm{
	Name:      Algo,
	NewConfig: func() any { c := DefaultConfig(); return &c },
	Check:     func(any, envpool.Options) error { return nil },
	CheckSpec: func(cfg any, _ agent.NetConfig, spec *envpool.Spec) error {
		c, err := agent.SectionOf[Config](Algo, cfg)
		if err != nil {
			return err
		}
		return CheckSpec(c.Network, spec)
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

// trainedPolicy restores the acting policy of an IMPALA checkpoint (the categorical
// head of the [net] MLPs or of the Nature CNN), including checkpoints that name the
// Nature CNN's heads the older way (legacyNames).
func trainedPolicy(cfg any, net agent.NetConfig, spec *envpool.Spec, c *agent.Checkpoint) (*agent.Trained, error) {
	ic, err := agent.SectionOf[Config](Algo, cfg)
	if err != nil {
		return nil, err
	}
	n, err := newNet(spec, ic.Network, net, 0)
	if err != nil {
		return nil, err
	}
	upgradeNames(c)
	if err := c.GetParams("", n.params); err != nil {
		return nil, err
	}
	return &agent.Trained{Policy: n.policy}, nil
}
