// Command train trains agents on rlpool's environments and manages the runs.
//
//	train -config configs/cartpole.toml [-set ppo.learning_rate=1e-3 ...] [-seed 2]
//	train -config pong            # a config bundled in the binary, from any folder
//	train -config pong -print     # print the resolved config, run nothing
//	train -resume runs/cartpole-20260101-120000-s1
//	train bench -task TASK -num-envs 16 -batch-size 8  # train bench -list lists the tasks
//
// Training writes a run directory (see package internal/rundir). Ctrl-C (SIGINT or
// SIGTERM) finishes the current update, writes a checkpoint and marks the run
// interrupted; -resume continues it. A second Ctrl-C quits at once.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/rlpool/rlpool/envs/all"
	"github.com/rlpool/rlpool/internal/trainer"
)

// subcommand is one entry of the dispatch table.
type subcommand struct {
	run  func(args []string) error
	help string
}

// subcommands maps the first argument to its handler; anything else is training.
var subcommands = map[string]subcommand{
	"bench":   {runBench, "measure env steps (and frames) per second of a pool"},
	"roms":    {runRoms, "import ALE's ROMs into the ROM folder (roms import DIR), list available games"},
	"sweep":   {runSweep, "run a hyperparameter sweep: train sweep -config configs/sweeps/NAME.toml [-executor slurm]"},
	"submit":  {runSubmit, "submit one run to Slurm as a batch job: train submit -config pong -time 2:00:00"},
	"runs":    {runRuns, "inspect runs: train runs list|show|plot|compare"},
	"eval":    {runEval, "play a run's saved policy, print returns, record a GIF: train eval -run RUNDIR"},
	"configs": {runConfigs, "list the configs bundled in the binary (train -config NAME runs one from any folder)"},
	"config":  {runConfigHelp, "print every config key with its type, default, allowed values and help: train config [KEY]"},
}

func main() {
	// Gorgonia allocates a tensor per op per run; with Go's default GOGC=100 the
	// collector costs about a quarter of a small-MLP training step. The heap stays small
	// (weights, one rollout), so trade memory for time unless the user chose GOGC.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a subcommand or trains, and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sc, ok := subcommands[args[0]]; ok {
			if err := sc.run(args[1:]); err != nil {
				fmt.Fprintf(stderr, "train %s: %v\n", args[0], err)
				return 1
			}
			return 0
		}
	}
	return trainMain(args, stdout, stderr)
}

// multiFlag collects a repeatable flag.
type multiFlag []string

// String implements flag.Value.
func (m *multiFlag) String() string { return strings.Join(*m, " ") }

// Set implements flag.Value: each -set adds one override.
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func trainMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "TOML run config: a file, else a bundled config's name (e.g. cartpole; train configs lists them)")
	printOnly := fs.Bool("print", false, "print the resolved config (after -set) as TOML and exit without training")
	resume := fs.String("resume", "", "continue the run in this run directory from its latest checkpoint")
	seed := fs.String("seed", "", "run seed (same as -set run.seed=N)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof FILE)")
	var sets multiFlag
	fs.Var(&sets, "set", "override a config key, e.g. -set ppo.learning_rate=3e-4 (repeatable); the value is a TOML value, a bare word a string")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: train -config FILE|NAME [-set key=value ...] [-seed N] [-print]\n       train -resume RUNDIR\n       train <subcommand> ...\n\nsubcommands:\n")
		names := make([]string, 0, len(subcommands))
		for n := range subcommands {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(stderr, "  %-8s %s\n", n, subcommands[n].help)
		}
		fmt.Fprintf(stderr, "\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "train: unexpected argument %q (unknown subcommand or a flag after it); see train -h\n", fs.Arg(0))
		return 2
	}
	if *seed != "" {
		if _, err := strconv.ParseInt(*seed, 10, 64); err != nil {
			fmt.Fprintf(stderr, "train: -seed %q: want an integer\n", *seed)
			return 2
		}
		if *resume != "" {
			fmt.Fprintln(stderr, "train: -seed cannot change a resumed run's seed; drop it")
			return 2
		}
		sets = append(sets, "run.seed="+*seed)
	}
	// Progress on: a live line on a terminal, plain periodic lines in a log file.
	opts := trainer.Options{Stdout: stdout, Stderr: stderr, Progress: true}
	switch {
	case *resume != "" && *configPath != "":
		fmt.Fprintln(stderr, "train: use -config for a new run or -resume for an old one, not both (a resumed run keeps its own config.toml)")
		return 2
	case *resume != "":
		opts.Resume, opts.Overrides = *resume, sets
	case *configPath == "":
		fmt.Fprintln(stderr, "train: no -config given; e.g. train -config cartpole (train -h for help)")
		return 2
	default:
		cfg, source, err := loadConfig(*configPath, sets)
		if err != nil {
			fmt.Fprintf(stderr, "train: %v\n", err)
			return 2
		}
		opts.Config, opts.Source = cfg, source
	}
	if *printOnly {
		if opts.Config == nil {
			fmt.Fprintln(stderr, "train: -print needs -config (a resumed run's config is its config.toml)")
			return 2
		}
		b, err := opts.Config.Encode()
		if err != nil {
			fmt.Fprintf(stderr, "train: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "# From: %s\n", opts.Source)
		stdout.Write(b)
		return 0
	}

	var quit func() // what a second Ctrl-C runs before it ends the process
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "train: %v\n", err)
			return 2
		}
		defer stopProfile()
		quit = stopProfile
	}

	ctx, stop := interruptContext(stderr, "train: interrupted: finishing this update and writing a checkpoint (Ctrl-C again to quit at once)", quit)
	defer stop()
	res, err := trainer.Run(ctx, opts)
	if err != nil {
		if res != nil && res.Dir != "" {
			fmt.Fprintf(stderr, "train: %s: %v\n", res.Dir, err)
		} else {
			fmt.Fprintf(stderr, "train: %v\n", err)
		}
		return 1
	}
	if res.Status != "finished" {
		fmt.Fprintf(stderr, "train: run %s; continue it with: train -resume %s\n", res.Status, res.Dir)
		return 130
	}
	return 0
}

// interruptContext returns a context cancelled by the first SIGINT or SIGTERM, after
// printing msg. A second signal ends the process at once (exit status 130), after
// running quit (nil: nothing), unless it comes within a second of the first: tools
// such as timeout(1) signal both the process and its process group, and one
// interruption must not turn into two. stop, called once, releases the signals; after an
// interruption it ignores them instead, since that second signal can arrive after the
// run has ended, and with the default action restored it would kill the process before
// it exits with its status.
func interruptContext(stderr io.Writer, msg string, quit func()) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	done := make(chan struct{})
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
		case <-done:
			return
		}
		first := time.Now()
		fmt.Fprintln(stderr, "\n"+msg)
		cancel()
		for {
			select {
			case <-sig:
			case <-done:
				return
			}
			if time.Since(first) < time.Second {
				continue
			}
			fmt.Fprintln(stderr, "train: interrupted again: quitting at once; the run keeps its last checkpoint")
			if quit != nil {
				quit()
			}
			os.Exit(130)
		}
	}()
	return ctx, func() {
		if ctx.Err() != nil {
			signal.Ignore(os.Interrupt, syscall.SIGTERM)
		} else {
			signal.Stop(sig)
		}
		close(done)
		cancel()
	}
}

// startCPUProfile starts a CPU profile written to path (train's and train bench's
// -cpuprofile) and returns the function that ends it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-cpuprofile %s: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
