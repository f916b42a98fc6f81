package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/inspect"
	"github.com/rlpool/rlpool/internal/rundir"
)

// Trial statuses in sweep.csv. A trial the sweep itself interrupted (Ctrl-C) gets no
// row and runs again, from its checkpoint, when the sweep is resumed.
const (
	StatusFinished = "finished"
	StatusPruned   = "pruned"  // stopped early by median pruning
	StatusTimeout  = "timeout" // stopped at budget_seconds
	StatusFailed   = "failed"  // the train process failed; see logs/<trial>.log
)

// File names in a sweep folder.
const (
	SpecFile   = "sweep.toml"
	ResultFile = "sweep.csv"
	BestFile   = "best.toml"
	LogsDir    = "logs"
)

// Options configure Run.
type Options struct {
	// Exe is the train binary that runs each trial (os.Executable() in `train sweep`).
	Exe string
	// Stdout receives a line per finished trial and the summary.
	Stdout io.Writer
	// CPUs are shared out between parallel trials; 0 means runtime.NumCPU().
	CPUs int
	// Poll is how often running trials are checked for budget and pruning; 0 means 1 s.
	Poll time.Duration
	// Env is added to each trial's environment (tests use it).
	Env []string
	// RetryFailed runs the failed trials of a resumed sweep again (their rows are
	// dropped from sweep.csv); otherwise a failed trial counts as done.
	RetryFailed bool

	// Local holds the settings of the local executor (sweep.executor = "local").
	Local LocalExecutor
	// Slurm holds the settings of the Slurm executor (sweep.executor = "slurm").
	Slurm SlurmExecutor
}

// Record is one row of sweep.csv: a trial's outcome.
type Record struct {
	Trial     string
	Config    int
	Seed      int64
	Values    []string // parameter values, Spec.Params order
	Metric    float64  // mean raw return of the last metric_episodes episodes
	MetricStd float64
	Episodes  int
	EnvSteps  int64
	Wall      float64 // seconds the trial's process ran
	Status    string
	RunDir    string
	// State is how the trial's process ended: "exit 0", "exit 1", "signal: killed"
	// for local trials, Slurm's job state (COMPLETED, TIMEOUT, NODE_FAIL,
	// OUT_OF_MEMORY, PREEMPTED, CANCELLED, ...) for trials run on Slurm.
	State string
	Log   string // the trial's log, relative to the sweep folder
	// PrunedAt is the prune checkpoint at which the trial was stopped (not a column:
	// a pruned trial's metric and env_steps are those at that checkpoint).
	PrunedAt int64
}

// header is sweep.csv's header for a spec.
func header(s *Spec) []string {
	h := []string{"trial", "config", "seed"}
	for _, p := range s.Params {
		h = append(h, p.Key)
	}
	return append(h, "metric", "metric_std", "episodes", "env_steps", "wall_s", "status", "run_dir", "state", "log")
}

// oldColumns is how many trailing columns sweep.csv files written before the state
// and log columns lack; they are read, and rewritten with the columns.
const oldColumns = 2

func (r *Record) row() []string {
	out := []string{r.Trial, strconv.Itoa(r.Config), strconv.FormatInt(r.Seed, 10)}
	out = append(out, r.Values...)
	return append(out, fmtF(r.Metric), fmtF(r.MetricStd), strconv.Itoa(r.Episodes),
		strconv.FormatInt(r.EnvSteps, 10), fmtF(r.Wall), r.Status, r.RunDir, r.State, r.Log)
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

// ReadResults reads sweep.csv. A last line cut off by a crash is ignored (the trial
// then runs again); a file with another header is an error, since it belongs to a
// different sweep.
func ReadResults(path string, s *Spec) ([]Record, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	if i := bytes.LastIndexByte(b, '\n'); i < len(b)-1 {
		b = b[:i+1] // drop a partial last line
	}
	cr := csv.NewReader(bytes.NewReader(b))
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	want := header(s)
	if strings.Join(recs[0], ",") == strings.Join(want[:len(want)-oldColumns], ",") {
		want = want[:len(want)-oldColumns]
	}
	if strings.Join(recs[0], ",") != strings.Join(want, ",") {
		return nil, fmt.Errorf("sweep: %s has columns %v, this sweep writes %v: it belongs to a different sweep; change sweep.name or move the folder away", path, recs[0], want)
	}
	cols := rundir.NewColumns(recs[0])
	var out []Record
	for _, rec := range recs[1:] {
		if len(rec) != len(want) {
			continue
		}
		field := func(name string) string { return cols.Field(rec, name) }
		r := Record{Trial: field("trial"), Status: field("status"), RunDir: field("run_dir"), State: field("state"), Log: field("log")}
		for _, p := range s.Params {
			r.Values = append(r.Values, field(p.Key))
		}
		r.Config, _ = strconv.Atoi(field("config"))
		r.Seed, _ = strconv.ParseInt(field("seed"), 10, 64)
		r.Metric, _ = strconv.ParseFloat(field("metric"), 64)
		r.MetricStd, _ = strconv.ParseFloat(field("metric_std"), 64)
		r.Episodes, _ = strconv.Atoi(field("episodes"))
		r.EnvSteps, _ = strconv.ParseInt(field("env_steps"), 10, 64)
		r.Wall, _ = strconv.ParseFloat(field("wall_s"), 64)
		out = append(out, r)
	}
	return out, nil
}

// sweeper is one Run in progress.
type sweeper struct {
	spec    *Spec
	opts    Options
	folder  string
	threads int
	// autoPoolThreads: the trials' env.num_threads is 0 (one worker per core), so the
	// sweep sets it to each trial's share of the cores.
	autoPoolThreads bool

	// failedBefore holds the trials a resumed sweep found failed (and, with
	// RetryFailed, runs again).
	failedBefore map[string]bool

	mu      sync.Mutex
	csvFile *os.File
	records map[string]Record
	board   map[int64]map[string]float64 // prune checkpoint -> trial -> metric there
	checked map[string]map[int64]bool    // trial -> prune checkpoints it was judged at
	done    int
	total   int
}

// Run runs every trial of the plan that sweep.csv does not already record, at most
// spec.Parallel at a time, then prints the summary and writes best.toml. Cancelling
// ctx interrupts the running trials (each writes a checkpoint) and returns ctx's error;
// running the sweep again continues where it stopped.
func Run(ctx context.Context, spec *Spec, opts Options) ([]Record, error) {
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.CPUs <= 0 {
		opts.CPUs = runtime.NumCPU()
	}
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	if opts.Exe == "" {
		return nil, errors.New("sweep: no train binary to run trials with")
	}
	ex, err := executorOf(spec.Executor, &opts)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	sw := &sweeper{spec: spec, opts: opts, folder: spec.Folder(), threads: max(1, opts.CPUs/spec.Parallel),
		records: map[string]Record{}, board: map[int64]map[string]float64{}, failedBefore: map[string]bool{},
		checked: map[string]map[int64]bool{}}
	if err := ex.setup(sw); err != nil {
		return nil, err
	}
	if err := sw.prepare(); err != nil {
		return nil, err
	}
	sw.autoPoolThreads = poolThreadsAuto(spec)
	defer sw.csvFile.Close()

	plan := spec.Plan()
	sw.total = len(plan)
	var todo []Trial
	for _, t := range plan {
		if _, ok := sw.records[t.ID]; ok {
			sw.done++
			continue
		}
		todo = append(todo, t)
	}
	if sw.done > 0 {
		fmt.Fprintf(opts.Stdout, "sweep %s: resuming: %d of %d trials already done, %d to run\n", spec.Name, sw.done, sw.total, len(todo))
	} else {
		fmt.Fprintf(opts.Stdout, "sweep %s: %d trials (%d configs x %d seeds), %d at a time with %d thread(s) each, in %s\n",
			spec.Name, sw.total, sw.total/len(spec.Seeds), len(spec.Seeds), spec.Parallel, sw.threads, sw.folder)
	}
	if err := ex.run(ctx, sw, todo); err != nil {
		return sw.sorted(plan), err
	}
	return sw.finish(plan)
}

// finish prints the summary of a completed sweep and writes best.toml.
func (sw *sweeper) finish(plan []Trial) ([]Record, error) {
	recs := sw.sorted(plan)
	if err := WriteSummary(sw.opts.Stdout, sw.spec, recs); err != nil {
		return recs, err
	}
	if best, ok := Best(sw.spec, recs); ok {
		path := filepath.Join(sw.folder, BestFile)
		if err := WriteBest(path, sw.spec, best); err != nil {
			return recs, err
		}
		fmt.Fprintf(sw.opts.Stdout, "best config written to %s\n", path)
	}
	return recs, nil
}

// sorted returns the records in plan order.
func (sw *sweeper) sorted(plan []Trial) []Record {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	var out []Record
	for _, t := range plan {
		if r, ok := sw.records[t.ID]; ok {
			out = append(out, r)
		}
	}
	return out
}

// prepare makes the sweep folder, checks it belongs to this sweep file, and loads the
// trials already done.
func (sw *sweeper) prepare() error {
	if err := os.MkdirAll(filepath.Join(sw.folder, LogsDir), 0o755); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	specPath := filepath.Join(sw.folder, SpecFile)
	if old, err := os.ReadFile(specPath); err == nil {
		if !bytes.Equal(old, sw.spec.Source) {
			return fmt.Errorf("sweep: %s was started from a different sweep file (%s differs from %s); to start afresh give the sweep another name, or move the folder away",
				sw.folder, specPath, sw.spec.Path)
		}
	} else if err := rundir.WriteAtomic(specPath, func(w io.Writer) error { _, err := w.Write(sw.spec.Source); return err }); err != nil {
		return err
	}
	if err := sw.writeOrigin(); err != nil {
		return err
	}
	csvPath := sw.spec.ResultPath()
	recs, err := ReadResults(csvPath, sw.spec)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.Status == StatusFailed {
			sw.failedBefore[r.Trial] = true
		}
	}
	if sw.opts.RetryFailed {
		kept := recs[:0]
		for _, r := range recs {
			if r.Status != StatusFailed {
				kept = append(kept, r)
			}
		}
		recs = kept
	}
	// Rewrite the file without a partial last line, then append to it.
	if err := rundir.WriteAtomic(csvPath, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(header(sw.spec))
		for _, r := range recs {
			cw.Write(r.row())
		}
		cw.Flush()
		return cw.Error()
	}); err != nil {
		return err
	}
	if sw.csvFile, err = os.OpenFile(csvPath, os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	for _, r := range recs {
		sw.records[r.Trial] = r
		if sw.spec.Prune != nil && r.RunDir != "" {
			if run, err := inspect.Load(filepath.Join(sw.folder, r.RunDir)); err == nil {
				sw.reportAll(r.Trial, run, r.reportLimit())
			}
		}
	}
	return nil
}

// writeOrigin writes sweep.json, refusing to switch executors while trials may still
// run under the other one.
func (sw *sweeper) writeOrigin() error {
	path := filepath.Join(sw.folder, OriginFile)
	var old origin
	if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &old) == nil && old.Executor != sw.spec.Executor {
		if evs, _ := ReadJobLog(sw.folder); len(evs) > 0 {
			return fmt.Errorf("sweep: %s ran its trials with executor %q: continue it with the same executor (train sweep -resume %s), or give the sweep another name", sw.folder, old.Executor, sw.folder)
		}
	}
	o := origin{SweepFile: sw.spec.Path, Base: sw.spec.Base, Executor: sw.spec.Executor}
	for _, p := range []*string{&o.SweepFile, &o.Base} {
		if abs, err := filepath.Abs(*p); err == nil {
			*p = abs
		}
	}
	return rundir.WriteAtomic(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(o)
	})
}

// poolThreadsAuto reports whether the trials would leave env.num_threads at 0 (a pool
// worker per core): the base config with the sweep's overrides says 0 and no searched
// parameter sets it.
func poolThreadsAuto(s *Spec) bool {
	for _, p := range s.Params {
		if p.Key == "env.num_threads" {
			return false
		}
	}
	cfg, err := config.Load(s.Base, s.Set)
	return err == nil && cfg.Env.NumThreads == 0
}

// findRunDir returns the newest run directory of a trial in the sweep folder, or "".
func (sw *sweeper) findRunDir(id string) string {
	matches, _ := filepath.Glob(filepath.Join(sw.folder, id+"-*"))
	sort.Strings(matches)
	for i := len(matches) - 1; i >= 0; i-- {
		if inspect.IsRunDir(matches[i]) {
			return matches[i]
		}
	}
	return ""
}

// args returns the train command line of a trial: a new run, or a resumed one when an
// interrupted run of the trial has a checkpoint.
func (sw *sweeper) args(t Trial) []string {
	if dir := sw.findRunDir(t.ID); dir != "" {
		r, err := inspect.Load(dir)
		ckpt := filepath.Join(dir, rundir.CheckpointsDir, rundir.LatestCheckpoint)
		if err == nil && r.Status == rundir.StatusInterrupted && fileExists(ckpt) {
			return []string{"-resume", dir}
		}
		// Crashed or never checkpointed: start the trial afresh, keeping the old
		// directory out of the way (hidden from `train runs list`).
		os.Rename(dir, filepath.Join(sw.folder, ".abandoned-"+filepath.Base(dir)))
	}
	a := []string{"-config", sw.spec.Base}
	for _, s := range sw.sets(t) {
		a = append(a, "-set", s)
	}
	return a
}

// sets returns the config overrides of a trial's new run: the sweep's fixed ones, the
// trial's parameter values, and where, with what seed, threads and budget it runs.
func (sw *sweeper) sets(t Trial) []string {
	sets := append(append([]string(nil), sw.spec.Set...), t.Overrides(sw.spec.Params)...)
	sets = append(sets, "run.dir="+sw.folder, "run.name="+t.ID, "run.seed="+strconv.FormatInt(t.Seed, 10),
		"run.threads="+strconv.Itoa(sw.threads))
	if sw.autoPoolThreads {
		sets = append(sets, "env.num_threads="+strconv.Itoa(sw.threads))
	}
	if sw.spec.BudgetSteps > 0 {
		sets = append(sets, "run.total_steps="+strconv.FormatInt(sw.spec.BudgetSteps, 10))
	}
	return sets
}

// record fills a trial's metrics from its run directory, appends its sweep.csv row
// and prints a progress line.
func (sw *sweeper) record(t Trial, rec Record, note string) error {
	rec.Trial, rec.Config, rec.Seed = t.ID, t.Config, t.Seed
	for _, v := range t.Values {
		rec.Values = append(rec.Values, OverrideText(v))
	}
	rec.Metric, rec.MetricStd = math.NaN(), math.NaN()
	if dir := sw.findRunDir(t.ID); dir != "" {
		rec.RunDir = filepath.Base(dir)
		if run, err := inspect.Load(dir); err == nil {
			rec.Metric, rec.MetricStd, rec.Episodes = run.FinalReturn(sw.spec.MetricEpisodes)
			rec.EnvSteps = run.EnvSteps
			if rec.Status == StatusFinished && rec.PrunedAt == 0 {
				if c := sw.pruneLate(t.ID, run); c > 0 {
					rec.Status, rec.PrunedAt = StatusPruned, c
					note = fmt.Sprintf("below the median at %d steps, ended before it could be stopped", c)
				}
			}
			if rec.Status == StatusPruned && rec.PrunedAt > 0 {
				// Where the trial stops after the signal depends on timing; its
				// standing at the checkpoint that pruned it does not.
				rec.Metric, rec.MetricStd, rec.Episodes = run.ReturnStdAt(rec.PrunedAt, sw.spec.MetricEpisodes)
				rec.EnvSteps = rec.PrunedAt
			}
			if rec.Status == StatusFinished && run.Status != rundir.StatusFinished {
				rec.Status = StatusFailed
				note = "the run ended " + run.Status
			}
			sw.reportAll(t.ID, run, rec.reportLimit())
		}
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	w := csv.NewWriter(sw.csvFile)
	w.Write(rec.row())
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("sweep: writing %s: %w", ResultFile, err)
	}
	sw.csvFile.Sync()
	sw.records[t.ID] = rec
	sw.done++
	var params []string
	for i, p := range sw.spec.Params {
		params = append(params, shortKey(p.Key)+"="+rec.Values[i])
	}
	line := fmt.Sprintf("[%d/%d] %s %s: %s, return %s +- %s over %d episodes, %d steps, %.1fs",
		sw.done, sw.total, t.ID, strings.Join(params, " "), rec.Status, num(rec.Metric), num(rec.MetricStd), rec.Episodes, rec.EnvSteps, rec.Wall)
	if note != "" {
		line += " (" + note + ")"
	}
	fmt.Fprintln(sw.opts.Stdout, line)
	return nil
}

// shortKey drops a config key's section: ppo.learning_rate -> learning_rate.
func shortKey(k string) string {
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		return k[i+1:]
	}
	return k
}

// reportLimit is the last env step whose prune checkpoints a trial's record stands
// for: a pruned trial's own checkpoint (where it stopped afterwards depends on
// timing), else all of its run.
func (r *Record) reportLimit() int64 {
	if r.Status == StatusPruned && r.EnvSteps > 0 {
		return r.EnvSteps
	}
	return math.MaxInt64
}

// reportAll puts a run's metric at every prune checkpoint it has passed, up to limit,
// on the board.
func (sw *sweeper) reportAll(id string, run *inspect.Run, limit int64) {
	if sw.spec.Prune == nil {
		return
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	for _, c := range sw.spec.Prune.Checkpoints {
		if run.EnvSteps < c || c > limit {
			break
		}
		if v, n := run.ReturnAt(c, sw.spec.MetricEpisodes); n > 0 {
			if sw.board[c] == nil {
				sw.board[c] = map[string]float64{}
			}
			sw.board[c][id] = v
		}
	}
}

// checkPrune reads a running trial's logs and returns the checkpoint at which median
// pruning stops it, when it has just passed one and falls below the median there, or
// 0. A checkpoint counts as passed once metrics.csv has a row at or beyond it
// (episodes.csv is complete up to that row).
func (sw *sweeper) checkPrune(t Trial) int64 {
	dir := sw.findRunDir(t.ID)
	if dir == "" {
		return 0
	}
	run, err := inspect.Load(dir)
	if err != nil || len(run.Metrics.Rows) == 0 {
		return 0
	}
	logged := int64(run.Metrics.Last(rundir.ColEnvSteps))
	for _, c := range sw.spec.Prune.Checkpoints {
		if logged < c || sw.wasChecked(t.ID, c) {
			continue
		}
		v, n := run.ReturnAt(c, sw.spec.MetricEpisodes)
		if n == 0 {
			continue
		}
		sw.mu.Lock()
		if sw.board[c] == nil {
			sw.board[c] = map[string]float64{}
		}
		var others []float64
		for id, o := range sw.board[c] {
			if id != t.ID {
				others = append(others, o)
			}
		}
		sw.board[c][t.ID] = v
		sw.mu.Unlock()
		if ShouldPrune(v, others, sw.spec.Prune.MinTrials) {
			return c
		}
	}
	return 0
}

// wasChecked reports whether a trial was already judged at a prune checkpoint, and
// marks it judged.
func (sw *sweeper) wasChecked(id string, c int64) bool {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.checked[id] == nil {
		sw.checked[id] = map[int64]bool{}
	}
	done := sw.checked[id][c]
	sw.checked[id][c] = true
	return done
}

// pruneLate judges a trial that ended at the checkpoints it passed without being
// judged there (it ran through them between two polls): it returns the first at which
// the median rule prunes it, or 0. The record then does not depend on how quickly
// the controller looked.
func (sw *sweeper) pruneLate(id string, run *inspect.Run) int64 {
	if sw.spec.Prune == nil {
		return 0
	}
	for _, c := range sw.spec.Prune.Checkpoints {
		if run.EnvSteps < c {
			break
		}
		if sw.wasChecked(id, c) {
			continue
		}
		v, n := run.ReturnAt(c, sw.spec.MetricEpisodes)
		if n == 0 {
			continue
		}
		sw.mu.Lock()
		var others []float64
		for o, x := range sw.board[c] {
			if o != id {
				others = append(others, x)
			}
		}
		sw.mu.Unlock()
		if ShouldPrune(v, others, sw.spec.Prune.MinTrials) {
			return c
		}
	}
	return 0
}

// ShouldPrune is the median rule: stop a trial whose value is below the median of the
// other trials' values at the same checkpoint, once at least minTrials have reported.
func ShouldPrune(value float64, others []float64, minTrials int) bool {
	if len(others) < max(minTrials, 1) || math.IsNaN(value) {
		return false
	}
	s := append([]float64(nil), others...)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return value < med
}

func num(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
