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
	for i, w := range l.net.weights() {
		c.F32[l.net.names[i]] = append([]float32(nil), w...)
	}
	os := l.opt.SaveState()
	if l.pendingOpt != nil { // loaded and not yet restored into the solver
		os = *l.pendingOpt
	}
	c.I64["optim.steps"] = []int64{int64(os.Steps)}
	for i := range os.S1 {
		c.F64[fmt.Sprintf("optim.s1.%s", l.net.names[i])] = os.S1[i]
		c.F64[fmt.Sprintf("optim.s2.%s", l.net.names[i])] = os.S2[i]
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
	for i, w := range l.net.weights() {
		v, ok := c.F32[l.net.names[i]]
		if !ok || len(v) != len(w) {
			return "", fmt.Errorf("impala: checkpoint has no usable %s (%d values, want %d); it was written for a different network", l.net.names[i], len(v), len(w))
		}
		copy(w, v)
	}
	var os optim.State
	if s := c.I64["optim.steps"]; len(s) == 1 {
		os.Steps = int(s[0])
	}
	for _, name := range l.net.names {
		s1, ok1 := c.F64["optim.s1."+name]
		s2, ok2 := c.F64["optim.s2."+name]
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
