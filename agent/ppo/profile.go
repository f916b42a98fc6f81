package ppo

import (
	"context"
	"runtime/pprof"
)

// inPhase runs f with the pprof label phase=name on this goroutine and every goroutine
// it starts (Gorgonia's machine and agent/nn's kernel workers), so that a CPU profile
// of a run (train -cpuprofile) splits into acting ("collect": policy inference and
// rollout bookkeeping), learning ("learn") and, unlabelled, the pool's env workers:
// go tool pprof -tagfocus phase=learn FILE.
func inPhase(name string, f func() error) error {
	var err error
	pprof.Do(context.Background(), pprof.Labels("phase", name), func(context.Context) { err = f() })
	return err
}
