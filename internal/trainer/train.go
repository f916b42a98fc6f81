// Package trainer is the run loop behind `train`: it builds the learner for a config,
// drives it until the step budget (or the target, or an interrupt), and keeps the run
// directory up to date: metrics.csv and episodes.csv, checkpoints (latest and best),
// curves.png, meta.json, a progress line and periodic log lines.
//
// Resuming a run reloads its config and latest checkpoint, drops log rows written after
// that checkpoint, and continues; with env states saved by the learner and one thread
// the resumed run's episodes.csv matches an uninterrupted run's.
package trainer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/blas"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/rundir"
	"github.com/rlpool/rlpool/internal/tensorboard"
)

// Options configure one run.
type Options struct {
	// Config is the resolved config of a new run; nil with Resume set.
	Config *config.Config
	// Source says where Config came from ("bundled configs/pong.toml", a file path),
	// for config.toml's header; empty leaves it out.
	Source string
	// Resume is a run directory to continue; Overrides then apply to its config.
	Resume    string
	Overrides []string
	// Stdout receives periodic log lines; Stderr the progress line and warnings.
	Stdout, Stderr io.Writer
	// Progress reports progress on Stderr: a line when the envs are created and when
	// the first iteration completes, then, when Stderr is a terminal, a line redrawn
	// in place (steps of total, steps/s, elapsed, ETA, recent and best return), and
	// otherwise (a log file, CI, nohup, Slurm) the same as a plain line every 30 s.
	Progress bool

	// afterIterate, when set (tests), is called after each Iterate with the env steps.
	afterIterate func(steps int64)
}

// Result says how a run ended.
type Result struct {
	Dir      string
	Status   string
	EnvSteps int64
}

// loopState is the run loop's own state, saved in checkpoints as JSON so that a
// resumed run logs exactly as an uninterrupted one would.
type loopState struct {
	WallSeconds float64   `json:"wall_seconds"`
	NextLog     int64     `json:"next_log"`
	NextCkpt    int64     `json:"next_checkpoint"`
	Recent      []float64 `json:"recent"`
	// RecentSuccess is the success (1 or 0) of the same episodes as Recent, for tasks
	// that flag success.
	RecentSuccess []float64 `json:"recent_success,omitempty"`
	Best          *float64  `json:"best,omitempty"`
	TargetStep    *int64    `json:"target_step,omitempty"`
	TargetWall    *float64  `json:"target_wall,omitempty"`
	StatSums      []float64 `json:"stat_sums"`
	StatCount     int       `json:"stat_count"`
	IntReturns    []float64 `json:"interval_returns"`
	IntLengths    []int     `json:"interval_lengths"`
	LastLogSteps  int64     `json:"last_log_steps"`
	LastLogWall   float64   `json:"last_log_wall"`
}

type runner struct {
	opts      Options
	cfg       *config.Config
	dir       *rundir.Dir
	meta      *rundir.Meta
	learner   agent.Learner
	statNames []string
	metrics   *rundir.CSV
	tb        *tensorboard.Writer // mirrors metrics.csv rows; nil when it could not be created
	episodes  *rundir.CSV
	st        loopState
	target    float64
	hasTarget bool
	// success: the task flags success, so episodes.csv and metrics.csv carry it;
	// targetSuccess is run.target_success (NaN: none).
	success       bool
	targetSuccess float64
	curves        rundir.Curves
	start         time.Time
	wallBase      float64
	cpuMark       float64 // agent.ProcessCPUSeconds at cpuMarkAt: cpuPercent's last reading
	cpuMarkAt     time.Time
	lastDraw      time.Time

	launched   time.Time // when Run was called: the early-feedback lines time from it
	term       bool      // Stderr is a terminal: the progress line is redrawn in place
	startSteps int64     // env steps when this invocation's loop started (for its rate)
	best       float64   // best recent mean return (full window); NaN before one
}

// Run trains until the config's step budget is spent, the target is reached (with
// stop_at_target), ctx is cancelled (an interrupt: a checkpoint is written and the run
// marked interrupted), or an error (the run is marked failed).
func Run(ctx context.Context, opts Options) (res *Result, err error) {
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	r := &runner{opts: opts, launched: time.Now(), term: isTerminal(opts.Stderr), best: math.NaN()}
	defer func() {
		// A panic deep in a library (Gorgonia, an env) must not leave the run marked
		// running: record it as a failure and return it as an error.
		if p := recover(); p != nil {
			err = fmt.Errorf("train: internal error: %v", p)
			if r.dir != nil && r.meta != nil {
				r.fail(err)
				res = &Result{Dir: r.dir.Path, Status: rundir.StatusFailed}
			}
		}
		if r.learner != nil {
			r.learner.Close()
		}
	}()
	return r.run(ctx)
}

func (r *runner) run(ctx context.Context) (*Result, error) {
	blasName := blas.Use()
	now := time.Now()
	var ckpt *agent.Checkpoint
	var err error
	if r.opts.Resume != "" {
		if r.dir, err = rundir.Open(r.opts.Resume); err != nil {
			return nil, err
		}
		if r.cfg, err = config.Load(r.dir.File(rundir.ConfigFile), r.opts.Overrides); err != nil {
			return nil, err
		}
		if r.meta, err = r.dir.ReadMeta(); err != nil {
			return nil, err
		}
		f, err := os.Open(r.dir.Checkpoint(rundir.LatestCheckpoint))
		switch {
		case err == nil:
			ckpt, err = agent.ReadCheckpoint(f)
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("train: resume %s: %w", r.dir.Path, err)
			}
			if ckpt.EnvSteps >= r.cfg.Run.TotalSteps {
				return nil, fmt.Errorf("train: %s already has %d of run.total_steps = %d env steps; raise it to train further, e.g. -set run.total_steps=%d",
					r.dir.Path, ckpt.EnvSteps, r.cfg.Run.TotalSteps, 2*r.cfg.Run.TotalSteps)
			}
			r.meta.Resumes = append(r.meta.Resumes, now)
		case os.IsNotExist(err) && r.meta.Status != rundir.StatusFinished:
			// A run prepared for a scheduler, or one stopped before its first
			// checkpoint (a requeued job, a crash): start it from the beginning in
			// its own directory.
			if r.meta.Status != rundir.StatusQueued {
				fmt.Fprintf(r.opts.Stderr, "train: %s has no checkpoint yet: starting it from the beginning\n", r.dir.Path)
			}
			if err := r.dir.Restart(); err != nil {
				return nil, err
			}
			r.meta.StartTime, r.meta.Command, r.meta.EnvSteps, r.meta.WallSeconds = now, os.Args, 0, 0
		default:
			return nil, fmt.Errorf("train: resume %s: no checkpoint to resume from: %w", r.dir.Path, err)
		}
		r.meta.Status, r.meta.Reason, r.meta.EndTime = rundir.StatusRunning, "", nil
		r.meta.BLAS = blasName
	} else {
		if r.opts.Config == nil {
			return nil, errors.New("train: no config given")
		}
		r.cfg = r.opts.Config
		// Catch a task that does not exist or does not fit the config before a run
		// directory is made for it.
		if _, _, err := resolveTask(r.cfg); err != nil {
			return nil, err
		}
		if r.dir, err = rundir.Create(r.cfg.Run.Dir, r.cfg.Run.Name, r.cfg.Run.Seed, now); err != nil {
			return nil, err
		}
		r.meta = rundir.NewMeta(blasName, now)
	}
	if r.opts.Resume != "" && len(r.opts.Overrides) > 0 || r.opts.Resume == "" {
		if err := r.writeConfig(); err != nil {
			return nil, err
		}
	}
	res := &Result{Dir: r.dir.Path}
	if r.cfg.Run.Threads > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(r.cfg.Run.Threads))
	}
	r.meta.Algo, r.meta.Task, r.meta.Seed = r.cfg.Run.Algo, r.cfg.Env.Task, r.cfg.Run.Seed
	if err := r.setup(ckpt); err != nil {
		r.fail(err)
		return res, err
	}
	status, err := r.loop(ctx)
	res.Status, res.EnvSteps = status, r.learner.EnvSteps()
	return res, err
}

func (r *runner) writeConfig() error {
	b, err := r.cfg.Encode()
	if err != nil {
		return err
	}
	head := "# Resolved config of this run: every key, defaults filled in.\n"
	if r.opts.Source != "" {
		head += "# From: " + r.opts.Source + "\n"
	}
	head += "# Resume with: train -resume " + r.dir.Path + "\n\n"
	return rundir.WriteAtomic(r.dir.File(rundir.ConfigFile), func(w io.Writer) error {
		_, err := w.Write(append([]byte(head), b...))
		return err
	})
}

// fail marks the run failed with a reason.
func (r *runner) fail(err error) {
	r.flush()
	end := time.Now()
	r.meta.Status, r.meta.Reason, r.meta.EndTime = rundir.StatusFailed, err.Error(), &end
	r.dir.WriteMeta(r.meta)
}

// setup builds the learner, restores a checkpoint and opens the logs.
func (r *runner) setup(ckpt *agent.Checkpoint) error {
	spec, factory, err := resolveTask(r.cfg)
	if err != nil {
		return err
	}
	algo, err := r.cfg.Algorithm()
	if err != nil {
		return err
	}
	net, err := r.chooseBackend(&spec)
	if err != nil {
		return err
	}
	s := agent.Setup{Spec: spec, Factory: factory, Pool: r.cfg.Env.Options, Net: net,
		Seed: r.cfg.Run.Seed, TotalSteps: r.cfg.Run.TotalSteps}
	if r.learner, err = algo.New(s, r.cfg.Section()); err != nil {
		return err
	}
	r.note("%d envs of %s created (%.1f s); first iteration running", r.cfg.Env.NumEnvs, r.cfg.Env.Task,
		time.Since(r.launched).Seconds())
	r.statNames = algo.StatNames
	r.target, r.hasTarget = r.cfg.Target(&spec)
	if r.hasTarget {
		r.meta.Target = &r.target
	}
	col, _ := agent.SuccessColumn(&spec)
	r.success, r.targetSuccess = col >= 0, r.cfg.Run.TargetSuccess
	if !math.IsNaN(r.targetSuccess) {
		r.meta.TargetSuccess = &r.targetSuccess
	}
	r.curves = rundir.Curves{Title: r.cfg.Env.Task, Window: r.cfg.Run.RecentEpisodes, Target: math.NaN()}
	if r.hasTarget {
		r.curves.Target = r.target
	}
	r.st = loopState{NextLog: r.cfg.Run.LogInterval, NextCkpt: r.cfg.Run.CheckpointInterval,
		StatSums: make([]float64, len(r.statNames))}
	// A resumed run's logs may end in a line cut short when the run stopped mid-write;
	// drop it with a notice rather than refuse the run.
	for _, name := range []string{rundir.MetricsFile, rundir.EpisodesFile} {
		note, err := rundir.DropTornLine(r.dir.File(name))
		if err != nil {
			return err
		}
		if note != "" {
			fmt.Fprintf(r.opts.Stderr, "train: warning: %s\n", note)
			r.meta.Notes = append(r.meta.Notes, "resume: "+note)
		}
	}
	if ckpt != nil {
		if err := r.restore(ckpt); err != nil {
			return err
		}
		if r.st.Best != nil {
			r.best = *r.st.Best
		}
	}
	header := rundir.MetricsHeader(r.success, r.statNames)
	if r.metrics, err = rundir.OpenCSV(r.dir.File(rundir.MetricsFile), header); err != nil {
		return err
	}
	if r.tb, err = tensorboard.Create(r.dir.Path); err != nil {
		fmt.Fprintf(r.opts.Stderr, "train: warning: no TensorBoard events: %v\n", err)
	} else if text, err := r.cfg.Encode(); err != nil {
		fmt.Fprintf(r.opts.Stderr, "train: warning: no config in TensorBoard events: %v\n", err)
	} else if err := writeTBConfig(r.tb, text); err != nil {
		fmt.Fprintf(r.opts.Stderr, "train: warning: no config in TensorBoard events: %v\n", err)
	}
	if r.episodes, err = rundir.OpenCSV(r.dir.File(rundir.EpisodesFile), rundir.EpisodesHeader(r.success)); err != nil {
		return err
	}
	r.wallBase = r.st.WallSeconds
	r.start = time.Now()
	r.cpuMark, r.cpuMarkAt = agent.ProcessCPUSeconds(), r.start
	r.startSteps = r.learner.EnvSteps()
	return r.dir.WriteMeta(r.meta)
}

// chooseBackend decides the network once (model.Resolve), says on one line which
// backend it runs on and why, records that in meta.json, and returns the [net] section
// with its choices made, which the learner builds from. Notes on deprecated config
// keys are printed and recorded with it.
func (r *runner) chooseBackend(spec *envpool.Spec) (model.NetConfig, error) {
	for _, n := range r.cfg.Notes {
		fmt.Fprintf(r.opts.Stderr, "train: warning: %s\n", n)
		r.meta.Notes = append(r.meta.Notes, "config: "+n)
	}
	c, err := model.Resolve(r.cfg.Net, spec)
	if err != nil {
		return model.NetConfig{}, err
	}
	if c.Torso() != nil {
		r.meta.Precision = string(c.Precision)
	}
	fmt.Fprintf(r.opts.Stderr, "train: %s\n", c.Line)
	r.meta.Backend = string(c.Backend)
	return c.Config(), nil
}

// resolveTask looks up the config's task, builds its spec and factory with the family
// options, and checks that the config fits the spec.
func resolveTask(cfg *config.Config) (envpool.Spec, envpool.Factory, error) {
	task, err := envs.Lookup(cfg.Env.Task)
	if err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("env.task: %w", err)
	}
	spec, factory, err := task.New(cfg.Env.FamilyOptions())
	if err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("env.options for %s: %w", cfg.Env.Task, err)
	}
	if err := cfg.CheckTask(&spec); err != nil {
		return envpool.Spec{}, nil, err
	}
	return spec, factory, nil
}

// restore loads the learner and loop state and drops log rows past the checkpoint.
func (r *runner) restore(c *agent.Checkpoint) error {
	note, err := r.learner.Load(c)
	if err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if note != "" {
		fmt.Fprintf(r.opts.Stderr, "train: warning: %s\n", note)
		r.meta.Notes = append(r.meta.Notes, "resume: "+note)
	}
	if err := json.Unmarshal(c.Bytes["run.state"], &r.st); err != nil {
		return fmt.Errorf("train: resume: checkpoint has no usable run state: %w", err)
	}
	if len(r.st.StatSums) != len(r.statNames) {
		// Written by a version that logged other statistics: the interval in progress
		// starts over, its count with its sums, so the next row averages only what it
		// saw.
		r.st.StatSums = make([]float64, len(r.statNames))
		r.st.StatCount = 0
	}
	// Each file's rows up to the checkpoint's step stay; the curves are rebuilt from
	// them.
	steps := c.EnvSteps
	for _, f := range []struct{ name, step string }{{rundir.MetricsFile, rundir.ColEnvSteps}, {rundir.EpisodesFile, rundir.ColEpisodeStep}} {
		upTo := func(cols rundir.Columns, row []string) bool {
			n, err := strconv.ParseInt(cols.Field(row, f.step), 10, 64)
			return err == nil && n <= steps
		}
		if err := rundir.TruncateCSV(r.dir.File(f.name), upTo); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	r.curves.Episodes = readCurve(r.dir.File(rundir.EpisodesFile), rundir.ColEpisodeStep, rundir.ColReturn)
	r.curves.ByWall = readCurve(r.dir.File(rundir.MetricsFile), rundir.ColWall, rundir.ColRecentReturn)
	return nil
}

// readCurve reads the points (x, y) of two columns of a run's CSV file; a file that
// cannot be read gives none.
func readCurve(path, x, y string) []rundir.CurvePoint {
	header, rows, err := rundir.ReadCSV(path)
	if err != nil {
		return nil
	}
	cols := rundir.NewColumns(header)
	var pts []rundir.CurvePoint
	for _, row := range rows {
		pts = append(pts, rundir.CurvePoint{X: cols.Float(row, x), Y: cols.Float(row, y)})
	}
	return pts
}

func (r *runner) wall() float64 { return r.wallBase + time.Since(r.start).Seconds() }

// cpuPercent is the CPU time (user and system, all threads) the process used since the
// last call, or since the run started in this process, over the wall time between: 200
// is two cores kept busy. It is NaN where the system does not report CPU time.
func (r *runner) cpuPercent() float64 {
	now, cpu := time.Now(), agent.ProcessCPUSeconds()
	pct := 100 * (cpu - r.cpuMark) / math.Max(now.Sub(r.cpuMarkAt).Seconds(), 1e-9)
	r.cpuMark, r.cpuMarkAt = cpu, now
	return pct
}

// loop runs Iterate until the run ends and returns its final status.
func (r *runner) loop(ctx context.Context) (string, error) {
	total := r.cfg.Run.TotalSteps
	first := true
	for r.learner.EnvSteps() < total {
		if ctx.Err() != nil {
			return r.finish(rundir.StatusInterrupted, "interrupted by signal")
		}
		eps, stats, err := r.learner.Iterate()
		if err != nil {
			r.fail(err)
			return rundir.StatusFailed, err
		}
		if err := r.record(eps, stats); err != nil {
			r.fail(err)
			return rundir.StatusFailed, err
		}
		steps := r.learner.EnvSteps()
		if first {
			first = false
			r.note("first iteration done: %d env steps (%.1f s since start)", steps, time.Since(r.launched).Seconds())
		}
		if steps >= r.st.NextLog {
			if err := r.logInterval(); err != nil {
				r.fail(err)
				return rundir.StatusFailed, err
			}
			for r.st.NextLog <= steps {
				r.st.NextLog += r.cfg.Run.LogInterval
			}
		}
		reached := r.checkTarget()
		if r.cfg.Run.CheckpointInterval > 0 && steps >= r.st.NextCkpt {
			for r.st.NextCkpt <= steps {
				r.st.NextCkpt += r.cfg.Run.CheckpointInterval
			}
			if err := r.checkpoint(); err != nil {
				r.fail(err)
				return rundir.StatusFailed, err
			}
		}
		r.progress(false)
		if r.opts.afterIterate != nil {
			r.opts.afterIterate(steps)
		}
		if reached && r.cfg.Run.StopAtTarget {
			return r.finish(rundir.StatusFinished, fmt.Sprintf("reached target return %g", r.target))
		}
	}
	return r.finish(rundir.StatusFinished, "")
}

// record writes finished episodes and accumulates the update's statistics.
func (r *runner) record(eps []agent.Episode, stats []agent.Stat) error {
	for _, e := range eps {
		row := []string{strconv.FormatInt(e.EnvStep, 10), strconv.Itoa(e.EnvID), fmtF(e.Return), strconv.Itoa(e.Length)}
		if r.success {
			row = append(row, fmtF(e.Success))
		}
		if err := r.episodes.Write(row); err != nil {
			return err
		}
		n := r.cfg.Run.RecentEpisodes
		r.st.Recent = lastN(append(r.st.Recent, e.Return), n)
		if r.success {
			r.st.RecentSuccess = lastN(append(r.st.RecentSuccess, e.Success), n)
		}
		r.st.IntReturns = append(r.st.IntReturns, e.Return)
		r.st.IntLengths = append(r.st.IntLengths, e.Length)
		r.curves.Episodes = append(r.curves.Episodes, rundir.CurvePoint{X: float64(e.EnvStep), Y: e.Return})
		r.updateBest()
	}
	for i, s := range stats {
		if i < len(r.st.StatSums) {
			r.st.StatSums[i] += s.Value
		}
	}
	r.st.StatCount++
	return nil
}

// lastN returns the last n values of v.
func lastN(v []float64, n int) []float64 {
	if len(v) > n {
		return v[len(v)-n:]
	}
	return v
}

// recentMean is the mean return of the last recent_episodes episodes (NaN before any).
func (r *runner) recentMean() float64 { return mean(r.st.Recent) }

// recentSuccess is the share of the last recent_episodes episodes that succeeded (NaN
// before any, or for tasks without a success flag).
func (r *runner) recentSuccess() float64 { return mean(r.st.RecentSuccess) }

// mean is the mean of v, NaN when it is empty.
func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// checkTarget records when the recent mean first reaches the target (once the window
// is full) and reports whether it is reached now.
func (r *runner) checkTarget() bool {
	bySuccess := !math.IsNaN(r.targetSuccess)
	if (!r.hasTarget && !bySuccess) || len(r.st.Recent) < r.cfg.Run.RecentEpisodes {
		return false
	}
	m, sr := r.recentMean(), r.recentSuccess()
	if (r.hasTarget && m < r.target) || (bySuccess && !(sr >= r.targetSuccess)) {
		return false
	}
	if r.st.TargetStep == nil {
		s, w := r.learner.EnvSteps(), r.wall()
		r.st.TargetStep, r.st.TargetWall = &s, &w
		r.meta.TargetStep, r.meta.TargetWallSeconds = &s, &w
		r.clearProgress()
		what := fmt.Sprintf("target %g reached: mean return of the last %d episodes %.1f", r.target, r.cfg.Run.RecentEpisodes, m)
		if bySuccess {
			what = fmt.Sprintf("target success rate %g reached: %.3f of the last %d episodes succeeded (mean return %.1f)",
				r.targetSuccess, sr, r.cfg.Run.RecentEpisodes, m)
		}
		fmt.Fprintf(r.opts.Stdout, "%s at %d env steps, %.1f s\n", what, s, w)
	}
	return true
}

// logInterval writes a metrics row, a log line, curves.png and meta.json.
func (r *runner) logInterval() error {
	steps, wall := r.learner.EnvSteps(), r.wall()
	sps := float64(steps-r.st.LastLogSteps) / math.Max(wall-r.st.LastLogWall, 1e-9)
	cpu := r.cpuPercent()
	rets := r.st.IntReturns
	mean, std, lo, hi := summary(rets)
	lenMean := math.NaN()
	if len(r.st.IntLengths) > 0 {
		s := 0
		for _, l := range r.st.IntLengths {
			s += l
		}
		lenMean = float64(s) / float64(len(r.st.IntLengths))
	}
	recent := r.recentMean()
	row := []string{strconv.FormatInt(steps, 10), fmtF(wall), fmtF(sps), fmtF(cpu), strconv.Itoa(len(rets)),
		fmtF(mean), fmtF(std), fmtF(lo), fmtF(hi), fmtF(lenMean), fmtF(recent)}
	if r.success {
		row = append(row, fmtF(r.recentSuccess()))
	}
	avg := statMeans(r.st.StatSums, r.st.StatCount)
	for _, v := range avg {
		row = append(row, fmtF(v))
	}
	if err := r.metrics.Write(row); err != nil {
		return err
	}
	r.tb.AddCSVRow(rundir.MetricsHeader(r.success, r.statNames), row, rundir.ColEnvSteps)
	r.flush()
	r.curves.ByWall = append(r.curves.ByWall, rundir.CurvePoint{X: wall, Y: recent})
	if err := r.curves.WritePNG(r.dir.File(rundir.CurvesFile)); err != nil {
		fmt.Fprintf(r.opts.Stderr, "train: warning: %v\n", err)
	}
	r.meta.EnvSteps, r.meta.WallSeconds = steps, wall
	if err := r.dir.WriteMeta(r.meta); err != nil {
		return err
	}
	r.clearProgress()
	var sb strings.Builder
	fmt.Fprintf(&sb, "steps=%d wall=%.1fs sps=%.0f cpu=%.0f%% episodes=%d return=%.2f recent=%.2f", steps, wall, sps, cpu, len(rets), mean, recent)
	if r.success {
		fmt.Fprintf(&sb, " success=%.3f", r.recentSuccess())
	}
	for i, n := range r.statNames {
		fmt.Fprintf(&sb, " %s=%.4g", n, avg[i])
	}
	fmt.Fprintln(r.opts.Stdout, sb.String())
	r.st.LastLogSteps, r.st.LastLogWall = steps, wall
	r.st.IntReturns, r.st.IntLengths = r.st.IntReturns[:0], r.st.IntLengths[:0]
	clear(r.st.StatSums)
	r.st.StatCount = 0
	return nil
}

// statMeans is the mean of each learner statistic over the count updates of a log
// interval, NaN for all when the interval had no update (an IMPALA run's actors can
// step past the last update before the run ends): a zero would read as a real loss.
func statMeans(sums []float64, count int) []float64 {
	avg := make([]float64, len(sums))
	for i, s := range sums {
		avg[i] = math.NaN()
		if count > 0 {
			avg[i] = s / float64(count)
		}
	}
	return avg
}

func summary(xs []float64) (mean, std, lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		mean += x
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs))), lo, hi
}

// fmtF formats a metric the same way on every run (determinism of metrics.csv).
func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

// checkpoint writes latest.ckpt, and best.ckpt when the recent mean return improved.
func (r *runner) checkpoint() error {
	c, err := r.learner.Save()
	if err != nil {
		return err
	}
	r.st.WallSeconds = r.wall()
	m := r.recentMean()
	better := len(r.st.Recent) > 0 && (r.st.Best == nil || m > *r.st.Best)
	if better {
		r.st.Best = &m
		r.meta.BestReturn = &m
	}
	state, err := json.Marshal(&r.st)
	if err != nil {
		return err
	}
	c.Bytes["run.state"] = state
	var buf bytes.Buffer
	if err := c.Write(&buf); err != nil {
		return err
	}
	data := buf.Bytes()
	write := func(name string) error {
		return rundir.WriteAtomic(r.dir.Checkpoint(name), func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
	}
	if err := write(rundir.LatestCheckpoint); err != nil {
		return err
	}
	if better {
		return write(rundir.BestCheckpoint)
	}
	return nil
}

// flush writes the buffered log rows out, episodes first: a reader that sees a
// metrics row (a sweep judging a trial at a checkpoint) then finds every episode that
// ended before it.
func (r *runner) flush() {
	if r.episodes != nil {
		r.episodes.Flush()
	}
	if r.metrics != nil {
		r.metrics.Flush()
	}
	r.tb.Flush()
}

// finish writes the last log row (if updates came after the last one), a checkpoint,
// the curves and meta.json with the final status. Env steps alone do not make a row:
// IMPALA's actors keep stepping after the learner's last update, and a row for them
// would hold no learner statistics (NaN) and a rate from a few steps.
func (r *runner) finish(status, reason string) (string, error) {
	steps := r.learner.EnvSteps()
	if r.st.StatCount > 0 && status == rundir.StatusFinished {
		if err := r.logInterval(); err != nil {
			r.fail(err)
			return rundir.StatusFailed, err
		}
	}
	if err := r.checkpoint(); err != nil {
		r.fail(err)
		return rundir.StatusFailed, err
	}
	r.flush()
	if err := r.curves.WritePNG(r.dir.File(rundir.CurvesFile)); err != nil {
		fmt.Fprintf(r.opts.Stderr, "train: warning: %v\n", err)
	}
	r.progress(true)
	end := time.Now()
	r.meta.Status, r.meta.Reason, r.meta.EndTime = status, reason, &end
	r.meta.EnvSteps, r.meta.WallSeconds = steps, r.wall()
	if err := r.dir.WriteMeta(r.meta); err != nil {
		return status, err
	}
	if r.metrics != nil {
		r.metrics.Close()
		r.episodes.Close()
		r.tb.Close()
	}
	r.clearProgress()
	fmt.Fprintf(r.opts.Stdout, "run %s: %s at %d env steps, %.1f s (%s)\n", r.dir.Path, status, steps, r.meta.WallSeconds, r.dir.File(rundir.CurvesFile))
	if pt, ok := r.learner.(agent.PhaseTimer); ok {
		if line := agent.FormatPhases(pt.Phases()); line != "" {
			fmt.Fprintf(r.opts.Stdout, "run %s: time by phase in this process: %s\n", r.dir.Path, line)
		}
	}
	return status, nil
}

// Prepare makes a new run's directory for a batch scheduler without training: the
// resolved config.toml and a meta.json with status queued. `train -resume DIR` on the
// node starts the run in it.
func Prepare(cfg *config.Config, source string) (*rundir.Dir, error) {
	if _, _, err := resolveTask(cfg); err != nil {
		return nil, err
	}
	now := time.Now()
	dir, err := rundir.Create(cfg.Run.Dir, cfg.Run.Name, cfg.Run.Seed, now)
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, dir: dir, opts: Options{Source: source}}
	if err := r.writeConfig(); err != nil {
		return nil, err
	}
	meta := rundir.NewMeta("", now)
	meta.Status, meta.Algo, meta.Task, meta.Seed = rundir.StatusQueued, cfg.Run.Algo, cfg.Env.Task, cfg.Run.Seed
	return dir, dir.WriteMeta(meta)
}
