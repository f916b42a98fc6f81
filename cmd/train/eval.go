package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/rlpool/rlpool/internal/inspect"
	"github.com/rlpool/rlpool/internal/play"
	"github.com/rlpool/rlpool/internal/render"
	"github.com/rlpool/rlpool/internal/rundir"
)

// runEval is `train eval -run RUNDIR`: it plays a run's saved policy, prints each
// episode's raw return and the mean, and can record the first episode as a GIF.
func runEval(args []string) error { return evalMain(args, os.Stdout) }

// evalMain is runEval writing its output to w.
func evalMain(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	runArg := fs.String("run", "", "run directory (or run name under -dir)")
	base := runsDirFlag(fs)
	which := fs.String("checkpoint", "best", "best, latest, or a checkpoint file")
	episodes := fs.Int("episodes", 10, "episodes to play")
	deterministic := fs.Bool("deterministic", false, "take the most likely action instead of sampling")
	temperature := fs.Float64("temperature", 0, "sample from softmax(logits / T) at this T instead of the run's own (its ppo.temperature at the checkpoint, else 1); categorical policies only")
	gifPath := fs.String("gif", "", "write the first episode as an animated GIF to this file")
	seed := fs.Int64("seed", 1_000_000, "env and sampling seed (apart from training's seeds by default)")
	maxFrames := fs.Int("max-frames", 5000, "most frames kept in the GIF")
	random := fs.Bool("random", false, "play uniformly random actions (a baseline; with -task no run is needed)")
	taskID := fs.String("task", "", "with -random: the task to play (train bench -list lists them)")
	var envOpts multiFlag
	fs.Var(&envOpts, "env-opt", "with -task: "+envOptHelp)
	if ok, err := parseFlags(fs, args, "Usage of eval:\n"); !ok {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: flags only, e.g. train eval -run RUNDIR -episodes 10", fs.Arg(0))
	}
	if *episodes < 1 {
		return fmt.Errorf("-episodes %d: want 1 or more", *episodes)
	}
	if *temperature < 0 || math.IsNaN(*temperature) || math.IsInf(*temperature, 0) {
		return fmt.Errorf("-temperature %g: want a temperature above 0 (1 samples the logits as they are)", *temperature)
	}
	if *temperature > 0 && (*deterministic || *random) {
		return errors.New("-temperature applies to sampled actions: leave out -deterministic and -random")
	}
	var a *play.Agent
	var err error
	dir := *runArg
	switch {
	case *taskID != "" && *runArg != "":
		return errors.New("use -run for a trained policy or -task with -random, not both")
	case *taskID != "":
		if !*random {
			return errors.New("-task plays random actions only: add -random, or give a trained run with -run")
		}
		family, err := parseEnvOpts(envOpts)
		if err != nil {
			return err
		}
		if a, err = play.Random(*taskID, family); err != nil {
			return err
		}
		dir = "(none)"
	case *runArg == "":
		fs.Usage()
		return errors.New("give the run to play with -run, e.g. train eval -run runs/cartpole-20260101-120000-s1 (or -random -task TASK)")
	default:
		if !inspect.IsRunDir(dir) {
			r, err := inspect.Resolve(dir, *base)
			if err != nil {
				return err
			}
			dir = r.Path
		}
		if *random {
			r, err := inspect.Load(dir)
			if err != nil {
				return err
			}
			opts := map[string]any{}
			for k, v := range r.Config {
				if name, ok := strings.CutPrefix(k, "env.options."); ok {
					opts[name] = v
				}
			}
			if a, err = play.Random(r.Task, opts); err != nil {
				return err
			}
		} else if a, err = play.Load(dir, *which); err != nil {
			return err
		}
	}
	if a.Note != "" {
		fmt.Fprintf(os.Stderr, "train eval: note: %s\n", a.Note)
	}
	if *temperature > 0 {
		if err := a.SetTemperature(*temperature); err != nil {
			return err
		}
	}
	var rec *render.Recorder
	if *gifPath != "" {
		if err := a.CanRecord(); err != nil {
			return err
		}
		rec = render.NewRecorder(a.FrameDelay(), *maxFrames)
	}
	mode := "sampled"
	switch {
	case *random:
		mode = "uniformly random"
	case *deterministic:
		mode = "deterministic"
	case *temperature > 0:
		mode = fmt.Sprintf("sampled (at temperature %.3g)", a.Temperature())
	case a.Temperature() != 1:
		mode = fmt.Sprintf("sampled (at temperature %.3g, the run's ppo.temperature there)", a.Temperature())
	}
	if *random {
		fmt.Fprintf(w, "task %s, uniformly random actions, seed %d\n", a.Spec.TaskID, *seed)
	} else {
		fmt.Fprintf(w, "run %s\ncheckpoint %s (%d training env steps), task %s, %s actions, seed %d\n",
			dir, a.Checkpoint, a.EnvSteps, a.Spec.TaskID, mode, *seed)
	}
	eps, err := a.Play(play.Options{Episodes: *episodes, Seed: *seed, Deterministic: *deterministic, Record: rec,
		OnEpisode: func(i int, e play.Episode) {
			end := "terminated"
			if e.Truncated {
				end = "truncated"
			}
			fmt.Fprintf(w, "episode %2d: return %8.2f  length %5d  (%s)\n", i+1, e.Return, e.Length, end)
		}})
	if err != nil {
		return err
	}
	xs := make([]float64, len(eps))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, e := range eps {
		xs[i] = e.Return
		lo, hi = math.Min(lo, e.Return), math.Max(hi, e.Return)
	}
	m, s := inspect.MeanStd(xs)
	fmt.Fprintf(w, "mean return %.2f +- %.2f over %d episodes (min %.2f, max %.2f)\n", m, s, len(eps), lo, hi)
	if rec != nil {
		err := rundir.WriteAtomic(*gifPath, rec.Encode)
		if err != nil {
			return err
		}
		extra := ""
		if rec.Dropped > 0 {
			extra = fmt.Sprintf(", %d later frames dropped (-max-frames)", rec.Dropped)
		}
		fmt.Fprintf(w, "wrote %s: %d frames of episode 1 at %d fps%s\n", *gifPath, rec.Len(), 100/a.FrameDelay(), extra)
	}
	return nil
}
