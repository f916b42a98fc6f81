package config

import (
	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/impala"
	"github.com/rlpool/rlpool/agent/ppo"
)

// Algorithms lists the learners a config can name in run.algo, each with its own
// section. A new learner is its own package and one line here.
var Algorithms = []agent.Algorithm{
	ppo.Algorithm,
	impala.Algorithm,
}
