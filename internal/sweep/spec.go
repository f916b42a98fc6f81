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
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rlpool/rlpool/internal/slurm"
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

// parse checks a decoded sweep file; errors name the key and what is allowed.
func parse(raw map[string]any) (*Spec, error) {
	s := &Spec{Dir: "runs/sweeps", Method: "random", Trials: 8, Seeds: []int64{1}, Parallel: 1, MetricEpisodes: 20, SampleSeed: 1, Executor: ExecLocal}
	for k := range raw {
		if k != "sweep" && k != "params" && k != "set" {
			return nil, fmt.Errorf("unknown table [%s]: a sweep file has [sweep], [sweep.prune], [params] and [set]", k)
		}
	}
	sw, ok := raw["sweep"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no [sweep] table: it names the sweep and its base config (see configs/sweeps/)")
	}
	var errs []string
	fail := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	for k, v := range sw {
		switch k {
		case "name":
			s.Name, ok = v.(string)
			if !ok || s.Name == "" || strings.ContainsAny(s.Name, `/\`) || strings.HasPrefix(s.Name, ".") {
				fail("sweep.name: want a non-empty name without slashes")
			}
		case "base":
			if s.Base, ok = v.(string); !ok {
				fail("sweep.base: want the path of a run config, e.g. \"../cartpole.toml\"")
			}
		case "dir":
			if s.Dir, ok = v.(string); !ok || s.Dir == "" {
				fail("sweep.dir: want a folder, e.g. \"runs/sweeps\"")
			}
		case "method":
			s.Method, _ = v.(string)
			if s.Method != "grid" && s.Method != "random" {
				fail("sweep.method = %v: use \"grid\" or \"random\"", v)
			}
		case "trials":
			s.Trials = intOr(v, -1)
			if s.Trials < 1 || s.Trials > 100000 {
				fail("sweep.trials = %v: want an integer from 1 to 100000", v)
			}
		case "seeds":
			arr, ok := v.([]any)
			if !ok || len(arr) == 0 {
				fail("sweep.seeds: want a non-empty list of integers, e.g. [1, 2, 3]")
				break
			}
			s.Seeds = nil
			seen := map[int64]bool{}
			for _, e := range arr {
				n, ok := e.(int64)
				if !ok || n < 0 || seen[n] {
					fail("sweep.seeds: %v is not a new non-negative integer", e)
					continue
				}
				seen[n] = true
				s.Seeds = append(s.Seeds, n)
			}
		case "parallel":
			s.Parallel = intOr(v, -1)
			if s.Parallel < 1 || s.Parallel > 1024 {
				fail("sweep.parallel = %v: want an integer from 1 to 1024", v)
			}
		case "budget_steps":
			n, ok := v.(int64)
			if !ok || n < 0 {
				fail("sweep.budget_steps = %v: want a non-negative integer (0: the base config's run.total_steps)", v)
			}
			s.BudgetSteps = n
		case "budget_seconds":
			f, ok := number(v)
			if !ok || f < 0 {
				fail("sweep.budget_seconds = %v: want a non-negative number (0: no limit)", v)
			}
			s.BudgetSeconds = f
		case "metric_episodes":
			s.MetricEpisodes = intOr(v, -1)
			if s.MetricEpisodes < 1 {
				fail("sweep.metric_episodes = %v: want a positive integer", v)
			}
		case "sample_seed":
			n, ok := v.(int64)
			if !ok || n < 0 {
				fail("sweep.sample_seed = %v: want a non-negative integer", v)
			}
			s.SampleSeed = uint64(n)
		case "prune":
			p, err := parsePrune(v)
			if err != nil {
				fail("%v", err)
			}
			s.Prune = p
		case "executor":
			s.Executor, _ = v.(string)
			if err := CheckExecutor(s.Executor); err != nil {
				fail("sweep.%v", err)
			}
		case "slurm":
			if err := parseSlurm(v, &s.Slurm); err != nil {
				fail("%v", err)
			}
		default:
			fail("unknown key sweep.%s: [sweep] takes name, base, dir, method, trials, seeds, parallel, budget_steps, budget_seconds, metric_episodes, sample_seed, executor, [sweep.prune] and [sweep.slurm]", k)
		}
	}
	if s.Name == "" && !contains(errs, "sweep.name") {
		fail("sweep.name is missing: it names the sweep folder")
	}
	if s.Base == "" && !contains(errs, "sweep.base") {
		fail("sweep.base is missing: name the run config the trials start from")
	}
	params, _ := raw["params"].(map[string]any)
	if _, ok := raw["params"]; ok && params == nil {
		fail("[params] must be a table of config keys")
	}
	if len(params) == 0 {
		fail("[params] is empty: name at least one config key to search, e.g. \"ppo.learning_rate\" = [1e-4, 3e-4]")
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p, err := parseParam(k, params[k], s.Method)
		if err != nil {
			fail("%v", err)
			continue
		}
		s.Params = append(s.Params, p)
	}
	if set, ok := raw["set"].(map[string]any); ok {
		for k, v := range set {
			if _, clash := params[k]; clash {
				fail("set.%s: the key is also a searched parameter; keep it in one place", k)
			}
			s.Set = append(s.Set, k+"="+OverrideText(v))
		}
		sort.Strings(s.Set)
	} else if _, ok := raw["set"]; ok {
		fail("[set] must be a table of config keys and values")
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return s, nil
}

func contains(errs []string, sub string) bool {
	for _, e := range errs {
		if strings.Contains(e, sub) {
			return true
		}
	}
	return false
}

// parseSlurm reads [sweep.slurm] into o.
func parseSlurm(v any, o *slurm.Options) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("sweep.slurm: want a table [sweep.slurm] of #SBATCH settings")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		known := false
		for _, e := range slurm.EnvVars {
			known = known || e.Key == k
		}
		if !known {
			return fmt.Errorf("unknown key sweep.slurm.%s: [sweep.slurm] takes partition, account, qos, time, cpus_per_task, mem, extra, setup and binary", k)
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
			for _, e := range x {
				l, ok := e.(string)
				if !ok || strings.Contains(l, ";") {
					return fmt.Errorf("sweep.slurm.extra: want a list of sbatch options as strings, e.g. [\"--constraint=avx2\"]")
				}
				lines = append(lines, l)
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

func parsePrune(v any) (*Prune, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("sweep.prune: want a table [sweep.prune] with checkpoints and min_trials")
	}
	p := &Prune{MinTrials: 3}
	for k, v := range m {
		switch k {
		case "checkpoints":
			arr, ok := v.([]any)
			if !ok || len(arr) == 0 {
				return nil, fmt.Errorf("sweep.prune.checkpoints: want a list of env step counts, e.g. [10_000, 20_000]")
			}
			for _, e := range arr {
				n, ok := e.(int64)
				if !ok || n <= 0 {
					return nil, fmt.Errorf("sweep.prune.checkpoints: %v is not a positive step count", e)
				}
				p.Checkpoints = append(p.Checkpoints, n)
			}
			sort.Slice(p.Checkpoints, func(i, j int) bool { return p.Checkpoints[i] < p.Checkpoints[j] })
		case "min_trials":
			p.MinTrials = intOr(v, -1)
			if p.MinTrials < 1 {
				return nil, fmt.Errorf("sweep.prune.min_trials = %v: want a positive integer", v)
			}
		default:
			return nil, fmt.Errorf("unknown key sweep.prune.%s: [sweep.prune] takes checkpoints and min_trials", k)
		}
	}
	if len(p.Checkpoints) == 0 {
		return nil, fmt.Errorf("sweep.prune.checkpoints is missing: list the env steps at which trials are compared")
	}
	return p, nil
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
		p.Dist, _ = x["dist"].(string)
		for k := range x {
			if k != "dist" && k != "low" && k != "high" && k != "values" {
				return p, fmt.Errorf("params.%s.%s: a distribution takes dist, low, high (or values for choice)", key, k)
			}
		}
		switch p.Dist {
		case DistChoice:
			vals, ok := x["values"].([]any)
			if !ok || len(vals) == 0 {
				return p, fmt.Errorf("params.%s: dist = \"choice\" needs values = [...]", key)
			}
			p.Values = vals
			return p, nil
		case DistUniform, DistLogUniform, DistInt:
			lo, ok1 := number(x["low"])
			hi, ok2 := number(x["high"])
			if !ok1 || !ok2 || !(lo <= hi) {
				return p, fmt.Errorf("params.%s: dist = %q needs numbers low <= high", key, p.Dist)
			}
			if p.Dist == DistLogUniform && lo <= 0 {
				return p, fmt.Errorf("params.%s: log_uniform needs low > 0", key)
			}
			if p.Dist == DistInt && (lo != math.Trunc(lo) || hi != math.Trunc(hi)) {
				return p, fmt.Errorf("params.%s: dist = \"int\" needs integer low and high", key)
			}
			p.Low, p.High = lo, hi
			return p, nil
		}
		return p, fmt.Errorf("params.%s: dist = %q: use uniform, log_uniform, int or choice", key, p.Dist)
	}
	return p, fmt.Errorf("params.%s: want a list of values or a table {dist = ..., low = ..., high = ...}", key)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	}
	return 0, false
}

func intOr(v any, def int) int {
	if n, ok := v.(int64); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
		return int(n)
	}
	return def
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
