package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rlpool/rlpool/internal/inspect"
	"github.com/rlpool/rlpool/internal/slurm"
)

const runsUsage = `usage:
  train runs list [DIR...]                       runs in each DIR (default runs), newest first;
                                                 a DIR may be a run or a glob ('runs/pong-*')
  train runs show RUN [-threshold R1,R2]         config, metrics and time to thresholds
  train runs plot RUN... [-x steps|time] [-o FILE.png]
                                                 learning curves; seeds of one config as mean and band
  train runs compare A B                         config differences and metrics side by side
RUN is a run directory, or a run name (or unique prefix) under -dir (default runs).
`

// runsDirFlag declares -dir, the folder in which a run named without a path is
// looked up, alike for every subcommand that finds runs by name.
func runsDirFlag(fs *flag.FlagSet) *string {
	return fs.String("dir", "runs", "folder that holds the runs")
}

// runRuns is `train runs`: inspecting run directories.
func runRuns(args []string) error { return runsMain(args, os.Stdout) }

// runsMain is runRuns writing its output to w.
func runsMain(args []string, w io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
		fmt.Fprint(w, runsUsage)
		if len(args) == 0 {
			return errors.New("name a runs subcommand: list, show, plot or compare")
		}
		return nil
	}
	cmd, rest := args[0], args[1:]
	fs := flag.NewFlagSet("runs "+cmd, flag.ContinueOnError)
	base := runsDirFlag(fs)
	axis := fs.String("x", "steps", "plot: x axis, steps or time")
	out := fs.String("o", "runs-plot.png", "plot: output PNG")
	thresholds := fs.String("threshold", "", "show: comma-separated returns to report the time to (default: 25/50/75/100% of the way to the target)")
	fs.Usage = func() { fmt.Fprint(fs.Output(), runsUsage) }
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	load := func(names []string) ([]*inspect.Run, error) {
		var rs []*inspect.Run
		for _, n := range names {
			r, err := inspect.Resolve(n, *base)
			if err != nil {
				return nil, err
			}
			rs = append(rs, r)
		}
		return rs, nil
	}
	switch cmd {
	case "list", "ls":
		if len(pos) == 0 {
			pos = []string{*base}
		}
		rs, skipped, err := inspect.ListMany(pos)
		if err != nil {
			return err
		}
		if err := inspect.AttachJobStates(rs, &slurm.Client{}); err != nil {
			fmt.Fprintf(w, "note: no Slurm states for the submitted runs: %v\n", err)
		}
		return inspect.WriteList(w, rs, skipped)
	case "show":
		if len(pos) != 1 {
			return errors.New("runs show takes one run: train runs show RUN")
		}
		var ths []float64
		if *thresholds != "" {
			for _, s := range strings.Split(*thresholds, ",") {
				v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
				if err != nil {
					return fmt.Errorf("-threshold %q: want comma-separated numbers, e.g. 100,475", *thresholds)
				}
				ths = append(ths, v)
			}
		}
		rs, err := load(pos)
		if err != nil {
			return err
		}
		return inspect.WriteShow(w, rs[0], ths)
	case "plot":
		if len(pos) == 0 {
			return errors.New("runs plot takes one or more runs: train runs plot RUN... [-x steps|time] [-o FILE.png]")
		}
		rs, err := load(pos)
		if err != nil {
			return err
		}
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		if err := inspect.WritePlot(f, rs, inspect.Axis(*axis)); err != nil {
			f.Close()
			os.Remove(*out)
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		groups := inspect.GroupBySeed(rs)
		fmt.Fprintf(w, "wrote %s: %d run(s) in %d curve(s) against %s\n", *out, len(rs), len(groups), *axis)
		for _, g := range groups {
			fmt.Fprintf(w, "  %s: %d run(s)\n", g.Label, len(g.Runs))
		}
		return nil
	case "compare", "diff":
		if len(pos) != 2 {
			return errors.New("runs compare takes two runs: train runs compare A B")
		}
		rs, err := load(pos)
		if err != nil {
			return err
		}
		return inspect.WriteCompare(w, rs[0], rs[1])
	}
	fmt.Fprint(w, runsUsage)
	return fmt.Errorf("unknown runs subcommand %q: use list, show, plot or compare", cmd)
}

// parseInterleaved parses flags that may come before, between or after positional
// arguments (train runs plot A B -x time), returning the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
