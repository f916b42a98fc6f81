package sweep

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rlpool/rlpool/internal/inspect"
	"github.com/rlpool/rlpool/internal/rundir"
)

// LocalExecutor runs each trial as a child train process of the sweep, at most
// spec.Parallel at a time, with the CPUs shared out between them (sweep.executor =
// "local").
type LocalExecutor struct {
	// Grace is how long a trial may take to stop after SIGINT before it is killed;
	// 0 means 2 minutes.
	Grace time.Duration
}

// Name is "local".
func (*LocalExecutor) Name() string { return ExecLocal }

func (ex *LocalExecutor) setup(*sweeper) error {
	if ex.Grace <= 0 {
		ex.Grace = 2 * time.Minute
	}
	return nil
}

// run starts the trials spec.Parallel at a time and waits for them; a cancelled ctx
// interrupts the running ones (each writes a checkpoint) and starts no more.
func (ex *LocalExecutor) run(ctx context.Context, sw *sweeper, todo []Trial) error {
	sem := make(chan struct{}, sw.spec.Parallel)
	var wg sync.WaitGroup
	errs := make(chan error, len(todo))
dispatch:
	for _, t := range todo {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			break dispatch
		}
		if ctx.Err() != nil {
			<-sem
			break
		}
		wg.Add(1)
		go func(t Trial) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := ex.runTrial(ctx, sw, t); err != nil {
				errs <- err
			}
		}(t)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	if ctx.Err() != nil {
		fmt.Fprintf(sw.opts.Stdout, "sweep %s: interrupted with %d of %d trials done; run the same command again to continue\n", sw.spec.Name, sw.done, sw.total)
		return ctx.Err()
	}
	return nil
}

// runTrial runs one trial's process to its end and records it. It returns an error
// only when the sweep itself cannot go on (sweep.csv unwritable).
func (ex *LocalExecutor) runTrial(ctx context.Context, sw *sweeper, t Trial) error {
	logPath := filepath.Join(sw.folder, LogsDir, t.ID+".log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	defer logf.Close()
	// A trial whose process finished after the sweep itself died has its run but no
	// row yet: record it without training again.
	if dir := sw.findRunDir(t.ID); dir != "" {
		if r, err := inspect.Load(dir); err == nil && r.Status == rundir.StatusFinished {
			return sw.record(t, Record{Status: StatusFinished, Wall: r.WallSeconds}, "found finished, not rerun")
		}
	}
	args := sw.args(t)
	fmt.Fprintf(logf, "# %s %s\n", sw.opts.Exe, strings.Join(args, " "))
	cmd := exec.Command(sw.opts.Exe, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(sw.threads)), sw.opts.Env...)
	// Its own process group: a Ctrl-C at the terminal reaches the sweep only, which
	// passes exactly one SIGINT on (a second one would make train quit without a
	// checkpoint).
	// Pdeathsig: if the sweep dies, its trials are interrupted (they checkpoint and
	// stop) instead of running on unwatched.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGINT}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sw.record(t, Record{Status: StatusFailed}, fmt.Sprintf("cannot start %s: %v", sw.opts.Exe, err))
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	stopReason := ""
	var killAt <-chan time.Time
	stop := func(reason string) {
		if stopReason != "" {
			return
		}
		stopReason = reason
		cmd.Process.Signal(os.Interrupt)
		killAt = time.After(ex.Grace)
	}
	var deadline <-chan time.Time
	if sw.spec.BudgetSeconds > 0 {
		deadline = time.After(time.Duration(sw.spec.BudgetSeconds * float64(time.Second)))
	}
	tick := time.NewTicker(sw.opts.Poll)
	defer tick.Stop()
	var prunedAt int64
	var waitErr error
	cancelled := ctx.Done()
loop:
	for {
		select {
		case waitErr = <-exited:
			break loop
		case <-cancelled:
			cancelled = nil // a closed channel stays ready: handle it once
			stop("interrupted")
		case <-deadline:
			stop(StatusTimeout)
		case <-killAt:
			cmd.Process.Kill()
		case <-tick.C:
			if sw.spec.Prune != nil && stopReason == "" {
				if c := sw.checkPrune(t); c > 0 {
					prunedAt = c
					stop(StatusPruned)
				}
			}
		}
	}
	wall := time.Since(start).Seconds()
	// A stop that came as the trial was finishing anyway leaves a finished run: the
	// trial ran its whole budget.
	finished := stopReason != "" && waitErr == nil && sw.finishedRun(t.ID)
	if stopReason == "interrupted" && !finished {
		return nil // not done: the resumed sweep continues it
	}
	rec := Record{Status: StatusFinished, Wall: wall, State: "exit 0", Log: filepath.Join(LogsDir, t.ID+".log")}
	if cmd.ProcessState != nil {
		rec.State = strings.TrimPrefix(cmd.ProcessState.String(), "exit status ")
		if cmd.ProcessState.Exited() {
			rec.State = "exit " + rec.State
		}
	}
	note := ""
	switch {
	case stopReason == StatusPruned: // judged at its checkpoint, however far it ran on
		rec.Status, rec.PrunedAt = stopReason, prunedAt
	case finished:
	case stopReason != "":
		rec.Status = stopReason
	case waitErr != nil:
		rec.Status = StatusFailed
		note = fmt.Sprintf("%v; see %s", waitErr, logPath)
	}
	return sw.record(t, rec, note)
}

// finishedRun reports whether the trial's run directory says it finished.
func (sw *sweeper) finishedRun(id string) bool {
	dir := sw.findRunDir(id)
	if dir == "" {
		return false
	}
	r, err := inspect.Load(dir)
	return err == nil && r.Status == rundir.StatusFinished
}
