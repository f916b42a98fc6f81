package sweep

import (
	"context"
	"fmt"
	"strings"
)

// Executors a sweep may run its trials with: the values of sweep.executor.
const (
	ExecLocal = "local"
	ExecSlurm = "slurm"
)

// An Executor runs a sweep's trials and follows them to their end. The sweep itself
// (its folder, sweep.csv, the plan, pruning decisions, the summary) is the same
// whatever runs the trials; an executor only starts each trial's train, stops it
// when the sweep says so (pruned, over budget, interrupted), and hands its end to
// the sweep to record.
//
// The executors are LocalExecutor (child processes of the sweep, local.go) and
// SlurmExecutor (tasks of a Slurm job array, slurm.go); Options holds the settings
// of each, and the executors table below maps sweep.executor to them.
type Executor interface {
	// Name is the executor's value of sweep.executor, recorded in sweep.json.
	Name() string
	// setup readies the executor for a sweep before its folder is read: it fills in
	// its default settings, may make the folder absolute and sets the threads each
	// trial gets.
	setup(sw *sweeper) error
	// run runs the trials in todo, recording each that ends with sw.record. When ctx
	// is cancelled it stops following them and returns ctx's error; the trials it
	// leaves unrecorded run again (or are followed again) when the sweep resumes.
	run(ctx context.Context, sw *sweeper, todo []Trial) error
}

// executors lists each executor by name with where Options keeps its settings: the
// one place executor names are known.
var executors = []struct {
	name string
	of   func(*Options) Executor
}{
	{ExecLocal, func(o *Options) Executor { return &o.Local }},
	{ExecSlurm, func(o *Options) Executor { return &o.Slurm }},
}

// CheckExecutor reports whether name is an executor a sweep can run its trials
// with; the error lists those it can.
func CheckExecutor(name string) error {
	_, err := executorOf(name, &Options{})
	return err
}

// executorOf returns the executor called name, with its settings from opts.
func executorOf(name string, opts *Options) (Executor, error) {
	var names []string
	for _, e := range executors {
		if e.name == name {
			return e.of(opts), nil
		}
		names = append(names, fmt.Sprintf("%q", e.name))
	}
	return nil, fmt.Errorf("executor = %q: use %s", name, strings.Join(names, " or "))
}
