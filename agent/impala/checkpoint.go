package impala

import (
	"fmt"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/optim"
)

// Save returns the learner's state between two Iterate calls: weights, optimiser state
// and counters. Unrolls in flight and env states are not saved: the actors run
// asynchronously, so a resumed run starts fresh episodes (Load says so).
func (l *Learner) Save() (*agent.Checkpoint, error) {
	steps := l.envSteps.Load() // the actors keep stepping: read the counter once
	c := agent.NewCheckpoint(Algo, l.setup.Spec.TaskID, steps)
	c.PutParams("", l.net.params)
	os := l.opt.SaveState()
	if l.pendingOpt != nil { // loaded and not yet restored into the solver
		os = *l.pendingOpt
	}
	c.I64["optim.steps"] = []int64{int64(os.Steps)}
	for i, p := range l.net.params[:len(os.S1)] {
		c.F64["optim.s1."+p.Name] = os.S1[i]
		c.F64["optim.s2."+p.Name] = os.S2[i]
	}
	c.I64["counters"] = []int64{steps, l.version}
	return c, nil
}

// Load restores a state written by Save before the first Iterate. The note says that
// episodes restart: actors are asynchronous, so a resumed run cannot be bit-identical.
func (l *Learner) Load(c *agent.Checkpoint) (string, error) {
	if l.started {
		return "", fmt.Errorf("impala: Load after the actors started")
	}
	upgradeNames(c)
	if err := c.GetParams("", l.net.params); err != nil {
		return "", fmt.Errorf("impala: %w", err)
	}
	var os optim.State
	if s := c.I64["optim.steps"]; len(s) == 1 {
		os.Steps = int(s[0])
	}
	for _, p := range l.net.params {
		s1, ok1 := c.F64["optim.s1."+p.Name]
		s2, ok2 := c.F64["optim.s2."+p.Name]
		if !ok1 || !ok2 {
			os.S1, os.S2 = nil, nil
			break
		}
		os.S1, os.S2 = append(os.S1, s1), append(os.S2, s2)
	}
	// The solver binds the gradients at its first step: restore its state then.
	l.pendingOpt = &os
	cn := c.I64["counters"]
	if len(cn) != 2 {
		return "", fmt.Errorf("impala: checkpoint has no counters")
	}
	l.envSteps.Store(cn[0])
	l.version = cn[1]
	l.snaps.publish(l.net.weights(), l.version)
	return "IMPALA resumes with fresh episodes and empty unrolls (its actors are asynchronous, so the run is not bit-identical to an uninterrupted one)", nil
}

// legacyNames maps the head weights' names in checkpoints of builds that gave IMPALA's
// Nature CNN heads their own names to the names model.NewCNNPolicy gives them now.
var legacyNames = map[string]string{
	"policy_w": "actor.w0", "policy_b": "actor.b0",
	"value_w": "critic.w0", "value_b": "critic.b0",
}

// upgradeNames renames, in place, the weights and optimiser moments of a checkpoint
// written with legacyNames, so that such runs still resume and evaluate.
func upgradeNames(c *agent.Checkpoint) {
	for old, name := range legacyNames {
		if v, ok := c.F32[old]; ok {
			c.F32[name] = v
			delete(c.F32, old)
		}
		for _, prefix := range []string{"optim.s1.", "optim.s2."} {
			if v, ok := c.F64[prefix+old]; ok {
				c.F64[prefix+name] = v
				delete(c.F64, prefix+old)
			}
		}
	}
}
