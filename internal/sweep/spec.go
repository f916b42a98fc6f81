// Package sweep runs hyperparameter sweeps: a base run config, a parameter space
// searched by grid or at random, a few seeds per configuration, trials run as
// separate `train` processes a few at a time with the cores shared out, optional
// median pruning, and a sweep folder that an interrupted sweep resumes from.
//
// A sweep file (configs/sweeps/*.toml):
//
//	[sweep]
//	name = "cartpole-lr-clip"   # the sweep folder is <dir>/<name>
//	base = "../cartpole.toml"   # run config, relative to this file
//	dir = "runs/sweeps"
//	method = "random"           # or "grid"
//	trials = 6                  # random search: configurations to sample
//	seeds = [1]                 # each configuration runs once per seed
//	parallel = 2                # trials at once; each gets cores / parallel threads
//	budget_steps = 30_000       # run.total_steps of every trial (0: the base config's)
//	budget_seconds = 0          # stop a trial after this long (0: no limit)
//	metric_episodes = 20        # final metric: mean raw return of the last N episodes
//	sample_seed = 1             # random search draws
//	executor = "local"          # or "slurm": each trial a task of a Slurm job array
//
//	[sweep.prune]               # optional median pruning
//	checkpoints = [10_000, 20_000]
//	min_trials = 3
//
//	[sweep.slurm]               # executor = "slurm": #SBATCH settings (internal/slurm)
//	partition = "cpu"
//	time = "2:00:00"
//	cpus_per_task = 4
//	setup = "module load go"
//
//	[params]                    # grid: lists; random: lists (choice) or distributions
//	"ppo.learning_rate" = { dist = "log_uniform", low = 1e-4, high = 1e-2 }
//	"ppo.clip_coef" = { dist = "uniform", low = 0.1, high = 0.3 }
//	"ppo.update_epochs" = { dist = "int", low = 4, high = 20 }
//	"net.activation" = { dist = "choice", values = ["tanh", "relu"] }
//
//	[set]                       # overrides for every trial
//	"run.log_interval" = 5_000
//
// The sweep folder holds sweep.toml (a copy of the sweep file), sweep.csv (one row
// per finished trial), logs/ (each trial's output), one run directory per trial
// (named t<config>-s<seed>-<date>-<time>-s<seed>) and, at the end, best.toml.
package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rlpool/rlpool/internal/slurm"
	"github.com/rlpool/rlpool/option"
)

// Distributions a random-search parameter may use.
const (
	DistUniform    = "uniform"
	DistLogUniform = "log_uniform"
	DistInt        = "int"
	DistChoice     = "choice"
)

// Param is one dimension of the search space: a config key with a list of values
// (grid, or a uniform choice in random search) or a distribution.
type Param struct {
	Key       string
	Values    []any   // list or choice values
	Dist      string  // "" for a plain list
	Low, High float64 // uniform, log_uniform, int (inclusive)
}

// Prune configures median pruning: at each checkpoint (env steps) a trial whose mean
// return of the last metric_episodes episodes is below the median of the other trials'
// at the same checkpoint is stopped, once at least MinTrials others have reported.
type Prune struct {
	Checkpoints []int64
	MinTrials   int
}

// Spec is a parsed sweep file.
type Spec struct {
	Name           string
	Base           string // path of the base run config
	Dir            string // folder that holds sweep folders
	Method         string // grid or random
	Trials         int
	Seeds          []int64
	Parallel       int
	BudgetSteps    int64
	BudgetSeconds  float64
	MetricEpisodes int
	SampleSeed     uint64
	Prune          *Prune
	// Executor runs the trials: ExecLocal (child processes) or ExecSlurm (tasks of a
	// Slurm job array), with Slurm's settings.
	Executor string
	Slurm    slurm.Options
	Params   []Param  // sorted by key
	Set      []string // fixed key=value overrides, sorted
	Source   []byte   // the sweep file as read
	Path     string
	folder   string // set by LoadFolder: the folder as given
}

// Folder is the sweep folder: Dir/Name.
func (s *Spec) Folder() string {
	if s.folder != "" {
		return s.folder
	}
	return filepath.Join(s.Dir, s.Name)
}

// ResultPath is the sweep's results table, ResultFile in its folder: one row a
// finished trial, read by ReadResults.
func (s *Spec) ResultPath() string { return filepath.Join(s.Folder(), ResultFile) }

// OriginFile, in a sweep folder, records where the sweep file and its base config
// were and which executor runs the trials, for `train sweep -resume DIR`.
const OriginFile = "sweep.json"

// origin is sweep.json.
type origin struct {
	SweepFile string `json:"sweep_file"`
	Base      string `json:"base"`
	Executor  string `json:"executor"`
}

// LoadFolder reads the sweep a folder holds (its copy of the sweep file and
// sweep.json), to resume it from the folder alone.
func LoadFolder(folder string) (*Spec, error) {
	data, err := os.ReadFile(filepath.Join(folder, SpecFile))
	if err != nil {
		return nil, fmt.Errorf("sweep: %s is not a sweep folder: %w", folder, err)
	}
	var o origin
	b, err := os.ReadFile(filepath.Join(folder, OriginFile))
	if err == nil {
		err = json.Unmarshal(b, &o)
	}
	if err != nil {
		return nil, fmt.Errorf("sweep: %s: %v (a folder started by an older train: resume it with train sweep -config FILE)", filepath.Join(folder, OriginFile), err)
	}
	raw := map[string]any{}
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", filepath.Join(folder, SpecFile), err)
	}
	s, err := parse(raw)
	if err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", filepath.Join(folder, SpecFile), err)
	}
	s.Source, s.Path, s.Base, s.Executor, s.folder = data, o.SweepFile, o.Base, o.Executor, folder
	if !fileExists(s.Base) {
		return nil, fmt.Errorf("sweep: the base config %s of the sweep in %s is gone; put it back to resume", s.Base, folder)
	}
	return s, nil
}

// Load reads and checks a sweep file. Relative base paths are taken from the sweep
// file's folder first, then from the working directory.
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	raw := map[string]any{}
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", path, err)
	}
	s, err := parse(raw)
	if err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", path, err)
	}
	s.Source, s.Path = data, path
	if !filepath.IsAbs(s.Base) {
		if p := filepath.Join(filepath.Dir(path), s.Base); fileExists(p) {
			s.Base = p
		}
	}
	if !fileExists(s.Base) {
		return nil, fmt.Errorf("sweep: %s: sweep.base = %q: no such config (looked beside the sweep file and in the working directory)", path, s.Base)
	}
	return s, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// file is a sweep file's tables, as the option package decodes them.
type file struct {
	Sweep  *section       `toml:"sweep" help:"the sweep: its name, base config, method and budget"`
	Params map[string]any `toml:"params" help:"searched config keys: lists, or distributions"`
	Set    map[string]any `toml:"set" help:"config keys every trial sets"`
}

// section is a sweep file's [sweep] table, at its defaults.
type section struct {
	// What the sweep is and where it writes its folder.
	Name string `toml:"name" help:"the sweep folder is <dir>/<name>"`
	Base string `toml:"base" help:"run config the trials start from, relative to the sweep file"`
	Dir  string `toml:"dir" help:"folder that holds sweep folders"`

	// The search: grid or random draws, and the seeds each configuration runs with.
	Method     string  `toml:"method" oneof:"grid|random" help:"grid: every combination of the lists; random: trials draws"`
	Trials     int     `toml:"trials" range:"[1,100000]" help:"random search: configurations to sample"`
	SampleSeed int64   `toml:"sample_seed" range:"[0,inf)" help:"seed of random search's draws"`
	Seeds      []int64 `toml:"seeds" range:"[0,inf)" help:"each configuration runs once per seed"`

	// Each trial's budget, and the metric that ranks trials.
	BudgetSteps    int64   `toml:"budget_steps" range:"[0,inf)" help:"run.total_steps of every trial; 0: the base config's"`
	BudgetSeconds  float64 `toml:"budget_seconds" range:"[0,inf)" help:"stop a trial after this long; 0: no limit"`
	MetricEpisodes int     `toml:"metric_episodes" range:"[1,inf)" help:"final metric: mean raw return of the last N episodes"`

	// How the trials run.
	Parallel int            `toml:"parallel" range:"[1,1024]" help:"trials at once; each gets cores / parallel threads"`
	Executor string         `toml:"executor" help:"local: child processes; slurm: tasks of a Slurm job array (executor.go lists them)"`
	Prune    *pruneSection  `toml:"prune" help:"optional median pruning"`
	Slurm    map[string]any `toml:"slurm" help:"#SBATCH settings for executor = \"slurm\""`
}

// pruneSection is [sweep.prune].
type pruneSection struct {
	Checkpoints []int64 `toml:"checkpoints" range:"[1,inf)" help:"env steps at which trials are compared"`
	MinTrials   int     `toml:"min_trials" range:"[1,inf)" help:"other trials that must have reported before one is pruned"`
}

// distribution is a random-search parameter's table: {dist = ..., low = ..., high = ...}
// or {dist = "choice", values = [...]}.
type distribution struct {
	Dist   string  `toml:"dist" oneof:"uniform|log_uniform|int|choice" help:"the distribution"`
	Low    float64 `toml:"low" help:"lowest value (uniform, log_uniform, int)"`
	High   float64 `toml:"high" help:"highest value (uniform, log_uniform, int)"`
	Values []any   `toml:"values" help:"choice: the values to pick from"`
}

// decoder names a sweep file's keys in errors.
var decoder = option.Decoder{Root: "a sweep file"}

// parse checks a decoded sweep file; errors name the key and what is allowed.
func parse(raw map[string]any) (*Spec, error) {
	sec := &section{Dir: "runs/sweeps", Method: "random", Trials: 8, Seeds: []int64{1}, Parallel: 1, MetricEpisodes: 20,
		SampleSeed: 1, Executor: ExecLocal, Prune: &pruneSection{MinTrials: 3}}
	f := file{Sweep: sec}
	if _, ok := raw["sweep"]; !ok {
		return nil, fmt.Errorf("no [sweep] table: it names the sweep and its base config (see configs/sweeps/)")
	}
	var errs []error
	if err := decoder.Decode(raw, &f); err != nil {
		errs = append(errs, err)
	}
	sw, _ := raw["sweep"].(map[string]any)
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	_, named := sw["name"]
	switch {
	case !named:
		fail("sweep.name is missing: it names the sweep folder")
	case sec.Name == "" || strings.ContainsAny(sec.Name, `/\`) || strings.HasPrefix(sec.Name, "."):
		fail("sweep.name = %q: want a non-empty name without slashes", sec.Name)
	}
	if sec.Base == "" {
		fail("sweep.base is missing: name the run config the trials start from, e.g. \"../cartpole.toml\"")
	}
	if sec.Dir == "" {
		fail("sweep.dir is empty: want a folder, e.g. \"runs/sweeps\"")
	}
	if len(sec.Seeds) == 0 {
		fail("sweep.seeds: want a non-empty list of integers, e.g. [1, 2, 3]")
	}
	for i, seed := range sec.Seeds {
		if slices.Contains(sec.Seeds[:i], seed) {
			fail("sweep.seeds: %d is listed twice", seed)
		}
	}
	if err := CheckExecutor(sec.Executor); err != nil {
		fail("sweep.%v", err)
	}
	s := &Spec{Name: sec.Name, Base: sec.Base, Dir: sec.Dir, Method: sec.Method, Trials: sec.Trials, Seeds: sec.Seeds,
		Parallel: sec.Parallel, BudgetSteps: sec.BudgetSteps, BudgetSeconds: sec.BudgetSeconds,
		MetricEpisodes: sec.MetricEpisodes, SampleSeed: uint64(max(sec.SampleSeed, 0)), Executor: sec.Executor}
	if _, ok := sw["prune"]; ok {
		s.Prune = &Prune{Checkpoints: slices.Sorted(slices.Values(sec.Prune.Checkpoints)), MinTrials: sec.Prune.MinTrials}
		if len(s.Prune.Checkpoints) == 0 {
			fail("sweep.prune.checkpoints is missing: list the env steps at which trials are compared, e.g. [10_000, 20_000]")
		}
	}
	if sec.Slurm != nil {
		if err := parseSlurm(sec.Slurm, &s.Slurm); err != nil {
			errs = append(errs, err)
		}
	}
	if len(f.Params) == 0 {
		fail("[params] is empty: name at least one config key to search, e.g. \"ppo.learning_rate\" = [1e-4, 3e-4]")
	}
	for _, k := range slices.Sorted(maps.Keys(f.Params)) {
		p, err := parseParam(k, f.Params[k], s.Method)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.Params = append(s.Params, p)
	}
	for k, v := range f.Set {
		if _, clash := f.Params[k]; clash {
			fail("set.%s: the key is also a searched parameter; keep it in one place", k)
		}
		s.Set = append(s.Set, k+"="+OverrideText(v))
	}
	sort.Strings(s.Set)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return s, nil
}

// parseSlurm reads [sweep.slurm] into o: each key one of slurm.EnvVars', its value a
// string, an integer or (extra) a list of strings.
func parseSlurm(m map[string]any, o *slurm.Options) error {
	var known []string
	for _, e := range slurm.EnvVars {
		known = append(known, e.Key)
	}
	d := option.Decoder{Prefix: "sweep.slurm.", Root: "[sweep.slurm]"}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(known, k) {
			return d.UnknownKey(k, known)
		}
		var text string
		switch x := m[k].(type) {
		case string:
			text = x
		case int64:
			text = strconv.FormatInt(x, 10)
		case []any:
			if k != "extra" {
				return fmt.Errorf("sweep.slurm.%s: want a single value, not a list", k)
			}
			var lines []string
			if err := d.DecodeValue(k, x, &lines); err != nil || slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, ";") }) {
				return fmt.Errorf("sweep.slurm.extra: want a list of sbatch options as strings, e.g. [\"--constraint=avx2\"]")
			}
			text = strings.Join(lines, ";")
		default:
			return fmt.Errorf("sweep.slurm.%s = %v: want a string or an integer", k, m[k])
		}
		if err := o.Set(k, text); err != nil {
			return fmt.Errorf("sweep.slurm.%w", err)
		}
	}
	return nil
}

func parseParam(key string, v any, method string) (Param, error) {
	p := Param{Key: key}
	if !strings.Contains(key, ".") {
		return p, fmt.Errorf("params.%s: want a dotted config key such as ppo.learning_rate", key)
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return p, fmt.Errorf("params.%s: the list is empty", key)
		}
		p.Values = x
		return p, nil
	case map[string]any:
		if method == "grid" {
			return p, fmt.Errorf("params.%s: a grid search takes lists of values, not distributions (use method = \"random\")", key)
		}
		var d distribution
		if err := (option.Decoder{Prefix: "params." + key + ".", Root: "a distribution"}).Decode(x, &d); err != nil {
			return p, err
		}
		p.Dist = d.Dist
		switch p.Dist {
		case DistChoice:
			if len(d.Values) == 0 {
				return p, fmt.Errorf("params.%s: dist = \"choice\" needs values = [...]", key)
			}
			p.Values = d.Values
			return p, nil
		}
		_, hasLow := x["low"]
		_, hasHigh := x["high"]
		if !hasLow || !hasHigh || !(d.Low <= d.High) {
			return p, fmt.Errorf("params.%s: dist = %q needs numbers low <= high", key, p.Dist)
		}
		if p.Dist == DistLogUniform && d.Low <= 0 {
			return p, fmt.Errorf("params.%s: log_uniform needs low > 0", key)
		}
		if p.Dist == DistInt && (d.Low != math.Trunc(d.Low) || d.High != math.Trunc(d.High)) {
			return p, fmt.Errorf("params.%s: dist = \"int\" needs integer low and high", key)
		}
		p.Low, p.High = d.Low, d.High
		return p, nil
	}
	return p, fmt.Errorf("params.%s: want a list of values or a table {dist = ..., low = ..., high = ...}", key)
}

// OverrideText writes a TOML value as the text of a -set override.
func OverrideText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = OverrideText(e)
		}
		return strings.Join(parts, ",")
	}
	return fmt.Sprint(v)
}

// Trial is one run of the sweep: a configuration (index Config, parameter values in
// Spec.Params order) with one seed.
type Trial struct {
	ID     string // t<config>-s<seed>
	Config int
	Seed   int64
	Values []any
}

// Overrides returns the trial's parameter values as -set overrides.
func (t *Trial) Overrides(params []Param) []string {
	out := make([]string, len(params))
	for i, p := range params {
		out[i] = p.Key + "=" + OverrideText(t.Values[i])
	}
	return out
}

// Plan lists the sweep's trials in run order: each configuration with each seed.
// Random draws depend only on sample_seed, so a resumed sweep plans the same trials.
func (s *Spec) Plan() []Trial {
	var configs [][]any
	if s.Method == "grid" {
		configs = [][]any{{}}
		for _, p := range s.Params {
			var next [][]any
			for _, c := range configs {
				for _, v := range p.Values {
					next = append(next, append(append([]any(nil), c...), v))
				}
			}
			configs = next
		}
	} else {
		rng := rand.New(rand.NewPCG(s.SampleSeed, 0x5eed_5eed))
		for range s.Trials {
			c := make([]any, len(s.Params))
			for i, p := range s.Params {
				c[i] = p.sample(rng)
			}
			configs = append(configs, c)
		}
	}
	width := len(strconv.Itoa(max(len(configs)-1, 10)))
	var trials []Trial
	for i, c := range configs {
		for _, seed := range s.Seeds {
			trials = append(trials, Trial{ID: fmt.Sprintf("t%0*d-s%d", width, i, seed), Config: i, Seed: seed, Values: c})
		}
	}
	return trials
}

// sample draws a value; continuous draws are rounded to 4 significant digits so that
// tables and configs stay readable.
func (p *Param) sample(rng *rand.Rand) any {
	switch p.Dist {
	case DistUniform:
		return round4(p.Low + (p.High-p.Low)*rng.Float64())
	case DistLogUniform:
		return round4(math.Exp(math.Log(p.Low) + (math.Log(p.High)-math.Log(p.Low))*rng.Float64()))
	case DistInt:
		return int64(p.Low) + rng.Int64N(int64(p.High)-int64(p.Low)+1)
	}
	return p.Values[rng.IntN(len(p.Values))]
}

func round4(x float64) float64 {
	if x == 0 {
		return 0
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return f
}
