// Package inspect reads training run directories back for inspection: `train runs list`,
// `show`, `plot` and `compare`, and the sweep's final metrics.
//
// Reading is forgiving by design. A run directory may belong to a run that is still
// writing, that crashed, that was killed mid-line or that predates a format change;
// each problem found becomes a note in Run.Problems and the run is shown with what
// could be read. Only a path that is not a run directory at all is an error.
package inspect

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/rlpool/rlpool/internal/rundir"
)

// Statuses a Run may show besides meta.json's own (finished, interrupted, failed, running).
const (
	// StatusCrashed is a run whose meta.json still says running but whose files have
	// not changed for StaleAfter: the process most likely died without saying so.
	StatusCrashed = "crashed?"
	// StatusIncomplete is a run directory without a readable meta.json: the process
	// stopped before writing it, or the file was damaged.
	StatusIncomplete = "incomplete"
)

// StaleAfter is how long a "running" run may go without writing before it is shown as
// crashed. Runs log every few seconds to minutes; ten minutes of silence means no
// process is behind it.
var StaleAfter = 10 * time.Minute

// DefaultRecent is the episode window used when a run's config does not say
// (run.recent_episodes).
const DefaultRecent = 20

// Table is a CSV file of numbers: a header and the rows that parsed completely.
type Table struct {
	Header []string
	Rows   [][]float64
}

// Col returns the index of a column, or -1.
func (t *Table) Col(name string) int {
	for i, h := range t.Header {
		if h == name {
			return i
		}
	}
	return -1
}

// Last returns the last row's value of a column, or NaN.
func (t *Table) Last(name string) float64 {
	c := t.Col(name)
	if c < 0 || len(t.Rows) == 0 {
		return math.NaN()
	}
	return t.Rows[len(t.Rows)-1][c]
}

// Episode is one row of episodes.csv.
type Episode struct {
	Step   int64 // env step at which the episode ended
	Return float64
	Length int
}

// Run is what could be read of one run directory.
type Run struct {
	Path   string
	Name   string         // the directory's name, or parent/name inside a sweep
	Meta   *rundir.Meta   // nil when meta.json is missing or unreadable
	Config map[string]any // config.toml flattened to dotted keys; empty if unreadable
	Status string
	Task   string
	Algo   string
	Seed   int64
	Start  time.Time
	// EnvSteps and WallSeconds come from meta.json, or the last metrics row when it
	// is newer (a crashed run's meta lags behind its logs).
	EnvSteps    int64
	WallSeconds float64
	Metrics     Table
	Episodes    []Episode
	// Recent is the episode window of the summary statistics (run.recent_episodes).
	Recent   int
	Problems []string
	// Job is the batch job of a run submitted to a scheduler (job.json), and
	// JobState what the scheduler says of it (AttachJobStates), e.g. "PENDING
	// (Priority)".
	Job      *rundir.Job
	JobState string
}

// IsRunDir reports whether path looks like a run directory (it has config.toml or
// meta.json).
func IsRunDir(path string) bool {
	for _, f := range []string{rundir.ConfigFile, rundir.MetaFile} {
		if st, err := os.Stat(filepath.Join(path, f)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// Load reads a run directory. It fails only when path is not a run directory; every
// other problem is noted in Problems.
func Load(path string) (*Run, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("runs: %s is a file, not a run directory", path)
	}
	if !IsRunDir(path) {
		return nil, fmt.Errorf("runs: %s is not a run directory (it has neither %s nor %s)", path, rundir.ConfigFile, rundir.MetaFile)
	}
	r := &Run{Path: path, Name: filepath.Base(path), Config: map[string]any{}, Recent: DefaultRecent}
	r.readConfig()
	r.readMeta()
	if j, err := (&rundir.Dir{Path: path}).ReadJob(); err != nil {
		r.note("%v", err)
	} else {
		r.Job = j
	}
	r.readMetrics()
	r.readEpisodes()
	r.settle(st.ModTime())
	return r, nil
}

func (r *Run) note(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

func (r *Run) readConfig() {
	b, err := os.ReadFile(filepath.Join(r.Path, rundir.ConfigFile))
	if err != nil {
		r.note("%s: %v", rundir.ConfigFile, shortErr(err))
		return
	}
	raw := map[string]any{}
	if _, err := toml.Decode(string(b), &raw); err != nil {
		r.note("%s: not valid TOML: %v", rundir.ConfigFile, err)
		return
	}
	flatten("", raw, r.Config)
	if s, ok := r.Config["env.task"].(string); ok {
		r.Task = s
	}
	if s, ok := r.Config["run.algo"].(string); ok {
		r.Algo = s
	}
	if n, ok := r.Config["run.seed"].(int64); ok {
		r.Seed = n
	}
	if n, ok := r.Config["run.recent_episodes"].(int64); ok && n > 0 {
		r.Recent = int(n)
	}
}

// flatten turns nested TOML tables into dotted keys: {"ppo": {"lr": 1}} -> "ppo.lr".
func flatten(prefix string, m map[string]any, out map[string]any) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flatten(prefix+k+".", sub, out)
			continue
		}
		out[prefix+k] = v
	}
}

func (r *Run) readMeta() {
	b, err := os.ReadFile(filepath.Join(r.Path, rundir.MetaFile))
	if err != nil {
		r.note("%s: %v", rundir.MetaFile, shortErr(err))
		return
	}
	m := &rundir.Meta{}
	if err := json.Unmarshal(b, m); err != nil {
		r.note("%s: unreadable (%v)", rundir.MetaFile, err)
		return
	}
	r.Meta = m
	r.Status, r.Start = m.Status, m.StartTime
	r.EnvSteps, r.WallSeconds = m.EnvSteps, m.WallSeconds
	if m.Task != "" {
		r.Task = m.Task
	}
	if m.Algo != "" {
		r.Algo = m.Algo
	}
	if m.Seed != 0 || r.Seed == 0 {
		r.Seed = m.Seed
	}
}

// readCSV reads a CSV file of numbers, dropping a last line cut off mid-write and rows
// of the wrong width, and noting both.
func (r *Run) readCSV(name string) (Table, bool) {
	b, err := os.ReadFile(filepath.Join(r.Path, name))
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			r.note("%s: %v", name, shortErr(err))
		}
		return Table{}, false
	}
	if len(b) == 0 {
		return Table{}, true
	}
	if b[len(b)-1] != '\n' {
		// The writer always ends a row with a newline: a last line without one was cut
		// off by a crash or is still being written.
		i := bytes.LastIndexByte(b, '\n')
		if i < 0 {
			r.note("%s: header line cut off", name)
			return Table{}, false
		}
		r.note("%s: last line cut off (ignored)", name)
		b = b[:i+1]
	}
	cr := csv.NewReader(bytes.NewReader(b))
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		r.note("%s: %v", name, err)
		return Table{}, false
	}
	if len(recs) == 0 {
		return Table{}, true
	}
	t := Table{Header: recs[0]}
	bad := 0
	for _, rec := range recs[1:] {
		if len(rec) != len(t.Header) {
			bad++
			continue
		}
		row := make([]float64, len(rec))
		ok := true
		for i, s := range rec {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				ok = false
				break
			}
			row[i] = v
		}
		if !ok {
			bad++
			continue
		}
		t.Rows = append(t.Rows, row)
	}
	if bad > 0 {
		r.note("%s: %d malformed row(s) ignored", name, bad)
	}
	return t, true
}

func (r *Run) readMetrics() {
	t, _ := r.readCSV(rundir.MetricsFile)
	r.Metrics = t
	if len(t.Rows) == 0 {
		return
	}
	if s := t.Last(rundir.ColEnvSteps); !math.IsNaN(s) && int64(s) > r.EnvSteps {
		r.EnvSteps = int64(s)
	}
	if w := t.Last(rundir.ColWall); !math.IsNaN(w) && w > r.WallSeconds {
		r.WallSeconds = w
	}
}

func (r *Run) readEpisodes() {
	t, _ := r.readCSV(rundir.EpisodesFile)
	cs, cr, cl := t.Col(rundir.ColEpisodeStep), t.Col(rundir.ColReturn), t.Col(rundir.ColLength)
	if cs < 0 || cr < 0 {
		if len(t.Header) > 0 {
			r.note("%s: no %s and %s columns", rundir.EpisodesFile, rundir.ColEpisodeStep, rundir.ColReturn)
		}
		return
	}
	for _, row := range t.Rows {
		e := Episode{Step: int64(row[cs]), Return: row[cr]}
		if cl >= 0 {
			e.Length = int(row[cl])
		}
		r.Episodes = append(r.Episodes, e)
	}
	if n := len(r.Episodes); n > 0 && r.Episodes[n-1].Step > r.EnvSteps {
		r.EnvSteps = r.Episodes[n-1].Step
	}
}

// settle decides the status shown and the start time when meta.json did not give them.
func (r *Run) settle(dirMod time.Time) {
	last := r.lastWrite()
	if r.Start.IsZero() {
		r.Start = dirMod
	}
	switch {
	case r.Meta == nil:
		r.Status = StatusIncomplete
	case r.Status == rundir.StatusRunning && r.Job == nil && !last.IsZero() && time.Since(last) > StaleAfter:
		r.Status = StatusCrashed
		r.note("meta.json says running but nothing was written for %s: the process probably died", time.Since(last).Round(time.Second))
	case r.Status == "":
		r.Status = StatusIncomplete
	}
}

// lastWrite is the newest modification time among the files a running run updates.
func (r *Run) lastWrite() time.Time {
	var t time.Time
	for _, f := range []string{rundir.MetaFile, rundir.MetricsFile, rundir.EpisodesFile} {
		if st, err := os.Stat(filepath.Join(r.Path, f)); err == nil && st.ModTime().After(t) {
			t = st.ModTime()
		}
	}
	return t
}

func shortErr(err error) string {
	if errors.Is(err, os.ErrNotExist) {
		return "missing"
	}
	return err.Error()
}

// FinalReturn is the mean and standard deviation of the raw returns of the last n
// episodes (n <= 0: the run's Recent window), and how many there were. NaN without
// episodes.
func (r *Run) FinalReturn(n int) (mean, std float64, count int) {
	if n <= 0 {
		n = r.Recent
	}
	eps := r.Episodes
	if len(eps) > n {
		eps = eps[len(eps)-n:]
	}
	xs := make([]float64, len(eps))
	for i, e := range eps {
		xs[i] = e.Return
	}
	mean, std = MeanStd(xs)
	return mean, std, len(xs)
}

// ReturnAt is the mean raw return of the last n episodes that ended at or before
// env step step, and how many there were; a sweep compares trials by it at pruning
// checkpoints.
func (r *Run) ReturnAt(step int64, n int) (float64, int) {
	m, _, k := r.ReturnStdAt(step, n)
	return m, k
}

// ReturnStdAt is ReturnAt with the standard deviation of those returns.
func (r *Run) ReturnStdAt(step int64, n int) (mean, std float64, count int) {
	end := sort.Search(len(r.Episodes), func(i int) bool { return r.Episodes[i].Step > step })
	start := max(0, end-n)
	xs := make([]float64, 0, end-start)
	for _, e := range r.Episodes[start:end] {
		xs = append(xs, e.Return)
	}
	mean, std = MeanStd(xs)
	return mean, std, len(xs)
}

// MeanStd returns the mean and population standard deviation of xs (NaN when empty).
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

// CurvePoint is one point of a smoothed learning curve.
type CurvePoint struct {
	Step int64
	Wall float64 // seconds, interpolated from metrics.csv; NaN when unknown
	Mean float64 // mean return of the last Recent episodes
}

// Curve is the run's moving-mean return after each episode (window Recent), with the
// wall time of each point interpolated from metrics.csv's (env_steps, wall_s) rows.
func (r *Run) Curve() []CurvePoint {
	win := max(r.Recent, 1)
	out := make([]CurvePoint, 0, len(r.Episodes))
	sum := 0.0
	for i, e := range r.Episodes {
		sum += e.Return
		if i >= win {
			sum -= r.Episodes[i-win].Return
		}
		out = append(out, CurvePoint{Step: e.Step, Wall: r.WallAt(e.Step), Mean: sum / float64(min(i+1, win))})
	}
	return out
}

// WallAt interpolates the wall seconds at an env step from metrics.csv (linear between
// rows, from 0 s at step 0, extrapolated at the last row's rate). NaN without rows.
func (r *Run) WallAt(step int64) float64 {
	cs, cw := r.Metrics.Col(rundir.ColEnvSteps), r.Metrics.Col(rundir.ColWall)
	if cs < 0 || cw < 0 || len(r.Metrics.Rows) == 0 {
		return math.NaN()
	}
	px, py := 0.0, 0.0
	x := float64(step)
	for _, row := range r.Metrics.Rows {
		rx, ry := row[cs], row[cw]
		if x <= rx {
			if rx == px {
				return ry
			}
			return py + (ry-py)*(x-px)/(rx-px)
		}
		px, py = rx, ry
	}
	if px <= 0 {
		return py
	}
	return py * x / px
}

// Reached is when a run's moving-mean return (window Recent, counted once the window
// is full, as the trainer counts its target) first reached a threshold.
type Reached struct {
	Threshold float64
	OK        bool
	Step      int64
	Wall      float64
}

// TimeTo returns, for each threshold, when the run first reached it.
func (r *Run) TimeTo(thresholds []float64) []Reached {
	out := make([]Reached, len(thresholds))
	for i, th := range thresholds {
		out[i].Threshold = th
	}
	curve := r.Curve()
	for i, p := range curve {
		if i+1 < r.Recent {
			continue
		}
		for j := range out {
			if !out[j].OK && p.Mean >= out[j].Threshold {
				out[j] = Reached{Threshold: out[j].Threshold, OK: true, Step: p.Step, Wall: p.Wall}
			}
		}
	}
	return out
}

// Target returns the run's target return (meta.json, else run.target_return) and
// whether it has one.
func (r *Run) Target() (float64, bool) {
	if r.Meta != nil && r.Meta.Target != nil {
		return *r.Meta.Target, true
	}
	switch v := r.Config["run.target_return"].(type) {
	case float64:
		if !math.IsNaN(v) {
			return v, true
		}
	case int64:
		return float64(v), true
	}
	return 0, false
}

// Skipped is an entry of a runs folder that is not a run.
type Skipped struct {
	Path   string
	Reason string
}

// maxDepth is how far below the listed folder List looks for runs: a sweep keeps its
// trials in runs/sweeps/<sweep>/<trial>.
const maxDepth = 3

// List reads every run directory in dir and in its subfolders (a sweep folder holds
// one run directory per trial), newest first; a run's Name is its path relative to
// dir. Entries that are not runs are returned as Skipped with the reason; they never
// make List fail.
func List(dir string) ([]*Run, []Skipped, error) {
	if _, err := os.ReadDir(dir); err != nil {
		return nil, nil, fmt.Errorf("runs: cannot list %s: %w (train writes runs into run.dir, runs/ by default; name the folder: train runs list DIR)", dir, err)
	}
	var runs []*Run
	var skipped []Skipped
	var walk func(p, rel string, depth int) int
	// walk returns the number of runs found under p.
	walk = func(p, rel string, depth int) int {
		entries, err := os.ReadDir(p)
		if err != nil {
			skipped = append(skipped, Skipped{p, "unreadable: " + err.Error()})
			return 0
		}
		found := 0
		// A sweep folder's own files (sweep.csv, logs/, ...) are not worth a line, and
		// its sweep.csv says which interrupted trials the sweep pruned or timed out.
		sweepStatus := readSweepStatus(filepath.Join(p, "sweep.csv"))
		quiet := depth > 0 || sweepStatus != nil
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") || (depth > 0 && (name == rundir.CheckpointsDir || name == "logs")) {
				continue
			}
			ep := filepath.Join(p, name)
			er := name
			if rel != "" {
				er = rel + "/" + name
			}
			st, err := os.Stat(ep) // follows links
			if err != nil {
				skipped = append(skipped, Skipped{ep, "unreadable: " + err.Error()})
				continue
			}
			if !st.IsDir() {
				if !quiet && name != "README.md" {
					skipped = append(skipped, Skipped{ep, "a file, not a run directory"})
				}
				continue
			}
			if IsRunDir(ep) {
				r, err := Load(ep)
				if err != nil {
					skipped = append(skipped, Skipped{ep, err.Error()})
					continue
				}
				r.Name = er
				if st, ok := sweepStatus[name]; ok && r.Status == rundir.StatusInterrupted {
					r.Status = st + " (sweep)"
				}
				runs = append(runs, r)
				found++
				continue
			}
			sub, _ := os.ReadDir(ep)
			n := 0
			if len(sub) > 0 && depth+1 < maxDepth {
				n = walk(ep, er, depth+1)
			}
			switch {
			case n > 0:
				found += n
			case quiet:
				// Inside a folder of runs, other folders are not worth a line.
			case len(sub) == 0:
				skipped = append(skipped, Skipped{ep, "empty directory"})
			default:
				skipped = append(skipped, Skipped{ep, "not a run directory (no config.toml or meta.json)"})
			}
		}
		return found
	}
	walk(dir, "", 0)
	sort.SliceStable(runs, func(i, j int) bool {
		if !runs[i].Start.Equal(runs[j].Start) {
			return runs[i].Start.After(runs[j].Start)
		}
		return runs[i].Name < runs[j].Name
	})
	return runs, skipped, nil
}

// readSweepStatus reads a sweep.csv's run_dir and status columns: the status of each
// trial the sweep stopped early (pruned, timeout), by run directory name. It returns
// nil when there is no readable sweep.csv.
func readSweepStatus(path string) map[string]string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	cr := csv.NewReader(bytes.NewReader(b))
	cr.FieldsPerRecord = -1
	recs, _ := cr.ReadAll()
	out := map[string]string{}
	if len(recs) == 0 {
		return out
	}
	cs, cd := -1, -1
	for i, h := range recs[0] {
		switch h {
		case "status":
			cs = i
		case "run_dir":
			cd = i
		}
	}
	if cs < 0 || cd < 0 {
		return out
	}
	for _, r := range recs[1:] {
		if len(r) > max(cs, cd) && (r[cs] == "pruned" || r[cs] == "timeout") {
			out[r[cd]] = r[cs]
		}
	}
	return out
}

// Resolve finds a run named on the command line: a path to a run directory, or a
// directory name (or unique prefix of one) under base, including inside sweeps.
func Resolve(arg, base string) (*Run, error) {
	if _, err := os.Stat(arg); err == nil {
		return Load(arg) // a path: it is the run, or the error says why not
	}
	if p := filepath.Join(base, arg); IsRunDir(p) {
		return Load(p)
	}
	all, _, err := List(base)
	if err != nil {
		return nil, fmt.Errorf("runs: %s is not a run directory, and %v", arg, err)
	}
	var match []*Run
	for _, r := range all {
		if r.Name == arg || filepath.Base(r.Path) == arg {
			return r, nil
		}
		if strings.HasPrefix(r.Name, arg) || strings.HasPrefix(filepath.Base(r.Path), arg) {
			match = append(match, r)
		}
	}
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("runs: no run %q: give a run directory or a run name under %s (train runs list %s shows them)", arg, base, base)
	case 1:
		return match[0], nil
	}
	names := make([]string, len(match))
	for i, r := range match {
		names[i] = r.Name
	}
	return nil, fmt.Errorf("runs: %q matches %d runs (%s): give more of the name", arg, len(match), strings.Join(names, ", "))
}
