package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rlpool/rlpool/internal/sweep"
	"github.com/rlpool/rlpool/internal/trainer"
)

// sweepUsage is the text `train sweep -help` prints above the flags.
const sweepUsage = `usage: train sweep -config FILE|NAME [-executor local|slurm] [-parallel N] [-retry-failed] [-dry-run] [-summary]
       train sweep -resume DIR

Runs every trial of a sweep file (see configs/sweeps/) as its own train process,
or as a task of a Slurm job array, writes <dir>/<name>/sweep.csv and one run
directory per trial, prints a summary table and writes best.toml. Run it again
(or -resume the folder) after an interruption to continue.

`

// runSweep is `train sweep -config configs/sweeps/NAME.toml`: it runs the sweep's
// trials as child train processes, resuming a sweep folder that already has results.
func runSweep(args []string) error { return sweepMain(args, os.Stdout) }

// sweepMain is runSweep writing its output to w.
func sweepMain(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	path := fs.String("config", "", "sweep file, else a bundled sweep's name, e.g. sweeps/cartpole-lr-clip (train configs lists them)")
	resume := fs.String("resume", "", "continue the sweep in this sweep folder (re-attaching to its Slurm jobs)")
	executor := fs.String("executor", "", "run trials as local processes (local) or Slurm array tasks (slurm); default: the file's sweep.executor")
	parallel := fs.Int("parallel", 0, "trials at once (0: the file's sweep.parallel)")
	dryRun := fs.Bool("dry-run", false, "print the planned trials and their overrides, run nothing")
	summary := fs.Bool("summary", false, "print the summary of the trials done so far, run nothing")
	retry := fs.Bool("retry-failed", false, "run again the trials that failed in an earlier invocation")
	if ok, err := parseFlags(fs, args, sweepUsage); !ok {
		return err
	}
	if (*path == "") == (*resume == "") || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("give the sweep file with -config (e.g. train sweep -config configs/sweeps/cartpole-lr-clip.toml) or a sweep folder with -resume, one of the two")
	}
	var spec *sweep.Spec
	var err error
	if *resume != "" {
		spec, err = sweep.LoadFolder(*resume)
	} else {
		spec, err = loadSweep(*path, !*dryRun && !*summary)
	}
	if err != nil {
		return err
	}
	if *executor != "" {
		if err := sweep.CheckExecutor(*executor); err != nil {
			return fmt.Errorf("-%w", err)
		}
		if *resume != "" && *executor != spec.Executor {
			return fmt.Errorf("-executor %s: the sweep in %s runs its trials with %s; a resumed sweep keeps its executor", *executor, *resume, spec.Executor)
		}
		spec.Executor = *executor
	}
	if *parallel < 0 {
		return fmt.Errorf("-parallel %d: want 1 or more (0: the file's value)", *parallel)
	}
	if *parallel > 0 {
		spec.Parallel = *parallel
	}
	if *dryRun {
		for _, t := range spec.Plan() {
			fmt.Fprintf(w, "%s  %s\n", t.ID, strings.Join(t.Overrides(spec.Params), " "))
		}
		return nil
	}
	if *summary {
		recs, err := sweep.ReadResults(spec.ResultPath(), spec)
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return fmt.Errorf("no finished trials in %s yet", spec.Folder())
		}
		return sweep.WriteSummary(w, spec, recs)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the train binary to run trials with: %w", err)
	}
	ctx, stop := interruptContext(os.Stderr, "train sweep: interrupted: running trials write a checkpoint and stop; run the same command to continue", nil)
	defer stop()
	_, err = sweep.Run(ctx, spec, sweep.Options{Exe: exe, Stdout: w, RetryFailed: *retry, Slurm: sweep.SlurmExecutor{Prepare: trainer.Prepare}})
	if errors.Is(err, context.Canceled) {
		os.Exit(130)
	}
	return err
}
