package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rlpool/rlpool/internal/rundir"
	"github.com/rlpool/rlpool/internal/slurm"
	"github.com/rlpool/rlpool/internal/trainer"
)

// submitUsage is the text `train submit -help` prints above the flags.
const submitUsage = `usage: train submit -config FILE|NAME [-set key=value ...] [-partition P] [-time T] [-cpus-per-task N] ...

Prepares the run's directory (status queued) and submits a Slurm batch job that
trains it there, resuming from its checkpoint if Slurm requeues the job. Prints the
job id and the run directory; train runs list shows the job's state.

`

// runSubmit is `train submit`: one run as a Slurm batch job.
func runSubmit(args []string) error { return submitMain(args, os.Stdout, nil) }

// submitMain is runSubmit writing to w, with a Slurm client (nil: a plain one).
func submitMain(args []string, w io.Writer, cl *slurm.Client) error {
	fs := flag.NewFlagSet("submit", flag.ContinueOnError)
	configPath := fs.String("config", "", "TOML run config: a file, else a bundled config's name")
	seed := fs.String("seed", "", "run seed (same as -set run.seed=N)")
	var sets, extra multiFlag
	fs.Var(&sets, "set", "override a config key (repeatable)")
	var o slurm.Options
	flags := map[string]*string{}
	for _, e := range slurm.EnvVars {
		if e.Key == "extra" {
			continue
		}
		flags[e.Key] = fs.String(strings.ReplaceAll(e.Key, "_", "-"), "", e.Help+" (or "+e.Var+")")
	}
	fs.Var(&extra, "extra", "another #SBATCH option, e.g. -extra --constraint=avx2 (repeatable)")
	if ok, err := parseFlags(fs, args, submitUsage); !ok {
		return err
	}
	if *configPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("give the run config with -config, e.g. train submit -config pong -time 2:00:00")
	}
	if *seed != "" {
		sets = append(sets, "run.seed="+*seed)
	}
	// The cluster's defaults, then the environment, then the flags given.
	if _, err := o.ApplyEnv(nil); err != nil {
		return err
	}
	var ferr error
	fs.Visit(func(f *flag.Flag) {
		key := strings.ReplaceAll(f.Name, "-", "_")
		if _, ok := flags[key]; ok && ferr == nil {
			ferr = o.Set(key, f.Value.String())
		}
	})
	if ferr != nil {
		return fmt.Errorf("-%v", ferr)
	}
	if len(extra) > 0 {
		if err := o.Set("extra", strings.Join(extra, ";")); err != nil {
			return err
		}
	}
	cfg, source, err := loadConfig(*configPath, sets)
	if err != nil {
		return err
	}
	if cl == nil {
		cl = &slurm.Client{}
	}
	if err := cl.Check(); err != nil {
		return err
	}
	if o.Binary == "" {
		if o.Binary, err = os.Executable(); err != nil {
			return fmt.Errorf("cannot find the train binary: %w; name it with -binary", err)
		}
	}
	if err := slurm.CheckBinary(o.Binary); err != nil {
		return err
	}
	if err := cl.CheckPartition(&o); err != nil {
		return err
	}
	// The node finds the run by an absolute path, and uses the job's CPUs.
	if cfg.Run.Dir, err = filepath.Abs(cfg.Run.Dir); err != nil {
		return err
	}
	if cfg.Run.Threads == 0 {
		cfg.Run.Threads = o.CPUs()
	}
	if cfg.Env.NumThreads == 0 {
		cfg.Env.NumThreads = o.CPUs()
	}
	dir, err := trainer.Prepare(cfg, source)
	if err != nil {
		return err
	}
	script := dir.File("job.sh")
	out := dir.File("slurm.out")
	b := slurm.Batch{
		Comment:    "The rlpool run " + filepath.Base(dir.Path) + ", written by train submit.",
		Directives: []string{"--job-name=rlpool-" + cfg.Run.Name, "--output=" + out},
		Options:    &o,
		Vars:       "run=" + slurm.Quote(dir.Path) + "\nlog=" + slurm.Quote(dir.File("train.log")),
		Binary:     o.Binary,
	}
	if err := os.WriteFile(script, []byte(b.String()), 0o755); err != nil {
		return err
	}
	job, err := cl.Submit(script)
	if err != nil {
		os.Rename(dir.Path, filepath.Join(filepath.Dir(dir.Path), ".unsubmitted-"+filepath.Base(dir.Path)))
		return err
	}
	if err := dir.WriteJob(&rundir.Job{Scheduler: rundir.SchedulerSlurm, ID: job, Submitted: time.Now(), Script: script, Log: dir.File("train.log")}); err != nil {
		return err
	}
	fmt.Fprintf(w, "submitted Slurm job %s\nrun directory %s\nfollow it with: train runs list %s   (train's output: %s)\n", job, dir.Path, filepath.Dir(dir.Path), dir.File("train.log"))
	return nil
}
