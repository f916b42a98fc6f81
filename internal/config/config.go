// Package config reads rlpool's TOML run configs: defaults, a file, any number of
// "-set key=value" overrides (dotted keys, parsed by the type the schema gives the key),
// and validation whose errors name the key and say what is allowed.
//
// The schema is the Config struct itself: each field's toml tag is its key, an
// optional range tag ("[0,1]", "(0,inf)") bounds numbers, a oneof tag ("tanh|relu")
// lists the allowed strings, and a help tag says what the key does.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/agent/ppo"
	"github.com/rlpool/rlpool/configs"
	"github.com/rlpool/rlpool/envpool"
)

// Config is a whole run config. Sections: [run], [env], [net], and one section per
// learner in Algorithms ([ppo], [impala]), of which run.algo's is used.
type Config struct {
	Run RunConfig       `toml:"run"`
	Env EnvConfig       `toml:"env"`
	Net model.NetConfig `toml:"net"`
	// Learners holds every learner's section by name: pointers to the learners' own
	// config structs (ppo.Config, impala.Config), defaults filled in.
	Learners map[string]any `toml:"-"`
	// Notes says which deprecated keys were read and where they went, one line each,
	// for the run to print and record.
	Notes []string `toml:"-"`
}

// Algorithm returns the learner run.algo names.
func (c *Config) Algorithm() (agent.Algorithm, error) {
	for _, a := range Algorithms {
		if a.Name == c.Run.Algo {
			return a, nil
		}
	}
	return agent.Algorithm{}, fmt.Errorf("run.algo = %q: use one of %s", c.Run.Algo, strings.Join(algorithmNames(), ", "))
}

// Section returns the section of the learner run.algo names (a pointer to its config
// struct), or nil for an unknown learner.
func (c *Config) Section() any { return c.Learners[c.Run.Algo] }

func algorithmNames() []string {
	var names []string
	for _, a := range Algorithms {
		names = append(names, a.Name)
	}
	return names
}

// RunConfig is the [run] section: what to train for how long, and where to write it.
type RunConfig struct {
	Algo        string `toml:"algo" help:"learner: the name of a learner section, e.g. ppo or impala"`
	Name        string `toml:"name" help:"run name: the run directory is <dir>/<name>-<date>-<time>-s<seed>"`
	Dir         string `toml:"dir" help:"folder that holds run directories"`
	Seed        int64  `toml:"seed" range:"[0,1e15]" help:"seeds weights, sampling and envs (env i gets a seed derived from it plus i)"`
	TotalSteps  int64  `toml:"total_steps" range:"[1,1e13]" help:"env steps to train for"`
	Threads     int    `toml:"threads" range:"[0,4096]" help:"GOMAXPROCS for the run; 0 keeps Go's default (all cores)"`
	LogInterval int64  `toml:"log_interval" range:"[1,1e13]" help:"env steps between metrics.csv rows, log lines and curves.png refreshes"`
	// CheckpointInterval 0 writes checkpoints only at the end and on interrupt.
	CheckpointInterval int64 `toml:"checkpoint_interval" range:"[0,1e13]" help:"env steps between checkpoints (latest, and best by recent return); 0: only at the end"`
	RecentEpisodes     int   `toml:"recent_episodes" range:"[1,1000000]" help:"episodes in the recent mean return (progress, best checkpoint, target)"`
	// TargetReturn NaN (the default, written nan) takes the task's reward threshold.
	TargetReturn float64 `toml:"target_return" help:"recent mean return that counts as solved; nan takes the task's threshold"`
	StopAtTarget bool    `toml:"stop_at_target" help:"stop the run once the recent mean return reaches target_return"`
}

// EnvConfig is the [env] section: the task and the pool that runs it. The pool's keys
// (num_envs, batch_size, num_threads, max_episode_steps, thread_affinity[_offset]) are
// envpool.Options itself, with its tags.
type EnvConfig struct {
	Task            string         `toml:"task" help:"task id (train bench -list lists them)"`
	envpool.Options                // the engine's options; the learner sets the seed and auto-reset mode
	Family          map[string]any `toml:"options" help:"the env family's own options (checked by the family)"`
	RomsDir         string         `toml:"roms_dir" help:"Atari ROM folder; empty: $RLPOOL_ROMS, else ./roms"`
}

// FamilyOptions returns the options handed to the env family: the [env.options] table
// plus roms_dir when it is set (an explicit options.roms_dir wins).
func (e EnvConfig) FamilyOptions() map[string]any {
	if e.RomsDir == "" {
		return e.Family
	}
	m := make(map[string]any, len(e.Family)+1)
	for k, v := range e.Family {
		m[k] = v
	}
	if _, ok := m["roms_dir"]; !ok {
		m["roms_dir"] = e.RomsDir
	}
	return m
}

// Default returns the built-in defaults: CleanRL's PPO on configs.DefaultTask, and
// every learner's section at its defaults.
func Default() Config {
	c := Config{
		Run: RunConfig{Algo: ppo.Algo, Name: "run", Dir: "runs", Seed: 1, TotalSteps: 500_000,
			LogInterval: 10_000, CheckpointInterval: 50_000, RecentEpisodes: 20, TargetReturn: math.NaN()},
		Env:      EnvConfig{Task: configs.DefaultTask, Options: envpool.Options{NumEnvs: 4}},
		Net:      model.DefaultNetConfig(),
		Learners: map[string]any{},
	}
	for _, a := range Algorithms {
		c.Learners[a.Name] = a.NewConfig()
	}
	return c
}

// schema returns the config as one struct value whose fields are the sections, the
// learners' included (built with reflect.StructOf from Algorithms): the reflection
// below (assign, checkRanges, overrides, help) and the TOML encoder walk it like any
// struct. Its learner fields point at c's own sections.
func (c *Config) schema() reflect.Value {
	fields := []reflect.StructField{
		{Name: "Run", Type: reflect.TypeOf(c.Run), Tag: `toml:"run"`},
		{Name: "Env", Type: reflect.TypeOf(c.Env), Tag: `toml:"env"`},
		{Name: "Net", Type: reflect.TypeOf(c.Net), Tag: `toml:"net"`},
	}
	for i, a := range Algorithms {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Learner%d", i),
			Type: reflect.TypeOf(c.Learners[a.Name]), Tag: reflect.StructTag(fmt.Sprintf(`toml:"%s"`, a.Name))})
	}
	v := reflect.New(reflect.StructOf(fields)).Elem()
	v.Field(0).Set(reflect.ValueOf(c.Run))
	v.Field(1).Set(reflect.ValueOf(c.Env))
	v.Field(2).Set(reflect.ValueOf(c.Net))
	for i, a := range Algorithms {
		v.Field(3 + i).Set(reflect.ValueOf(c.Learners[a.Name]))
	}
	return v
}

// fromSchema copies the sections back from a schema value.
func (c *Config) fromSchema(v reflect.Value) {
	c.Run = v.Field(0).Interface().(RunConfig)
	c.Env = v.Field(1).Interface().(EnvConfig)
	c.Net = v.Field(2).Interface().(model.NetConfig)
}

// schemaType is the type of schema's value: what overrides and help walk.
func schemaType() reflect.Type {
	c := Default()
	return c.schema().Type()
}

// Load reads a config file (path "" means defaults only), applies the overrides
// ("key=value" with dotted keys, later ones win) and validates the result. Every
// problem found is reported, each naming its key.
func Load(path string, overrides []string) (*Config, error) {
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		return Parse(data, path, overrides)
	}
	return FromMap(map[string]any{}, overrides, "")
}

// Parse is Load for a config's text (e.g. one bundled in the binary); source names it
// in errors.
func Parse(data []byte, source string, overrides []string) (*Config, error) {
	raw := map[string]any{}
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, fmt.Errorf("config: %s: %w", source, err)
	}
	return FromMap(raw, overrides, source)
}

// FromMap is Load for an already decoded TOML table; source names it in errors.
func FromMap(raw map[string]any, overrides []string, source string) (*Config, error) {
	cfg := Default()
	var errs []error
	overrides, cfg.Notes = moveDeprecated(raw, overrides, &errs)
	for _, o := range overrides {
		if err := applyOverride(raw, o); err != nil {
			errs = append(errs, err)
		}
	}
	sv := cfg.schema()
	errs = append(errs, assign(sv, raw, "")...)
	// Keys that failed to assign kept their defaults, so ranges can still be checked:
	// report every problem at once.
	errs = append(errs, checkRanges(sv, "")...)
	cfg.fromSchema(sv)
	if len(errs) == 0 {
		errs = append(errs, cfg.checkCombinations()...)
	}
	if len(errs) > 0 {
		prefix := "config"
		if source != "" {
			prefix += " " + source
		}
		return nil, fmt.Errorf("%s: %w", prefix, errors.Join(errs...))
	}
	return &cfg, nil
}

// checkCombinations reports settings that are fine alone but not together.
func (c *Config) checkCombinations() []error {
	var errs []error
	if err := agent.CheckPool(c.Env.Options); err != nil {
		errs = append(errs, err)
	}
	if err := c.Net.Check(); err != nil {
		errs = append(errs, err)
	}
	if a, err := c.Algorithm(); err != nil {
		errs = append(errs, err)
	} else if err := a.Check(c.Section(), c.Env.Options); err != nil {
		errs = append(errs, err)
	}
	if c.Run.Name == "" || strings.ContainsAny(c.Run.Name, `/\`) {
		errs = append(errs, fmt.Errorf("run.name = %q: use a non-empty name without slashes", c.Run.Name))
	}
	if c.Env.Task == "" {
		errs = append(errs, fmt.Errorf("env.task is empty: name a task (train bench -list lists them; %s is the default)", configs.DefaultTask))
	}
	return errs
}

// CheckTask reports settings that do not fit the task's spec, e.g. a categorical head
// on a continuous action space.
func (c *Config) CheckTask(spec *envpool.Spec) error {
	a, err := c.Algorithm()
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := a.CheckSpec(c.Section(), c.Net, spec); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// Target returns the return that counts as solved: run.target_return, or the task's
// threshold when that is nan; ok is false when neither is set.
func (c *Config) Target(spec *envpool.Spec) (float64, bool) {
	if !math.IsNaN(c.Run.TargetReturn) {
		return c.Run.TargetReturn, true
	}
	if spec != nil && spec.HasRewardThreshold() {
		return spec.RewardThreshold, true
	}
	return 0, false
}

// Encode writes the config as TOML (every key, resolved).
func (c *Config) Encode() ([]byte, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(c.schema().Interface()); err != nil {
		return nil, fmt.Errorf("config: encode: %w", err)
	}
	return b.Bytes(), nil
}

// fields lists a section's keys as struct fields: its own and those of embedded
// structs (EnvConfig embeds envpool.Options), without fields tagged toml:"-".
func fields(t reflect.Type) []reflect.StructField {
	var fs []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() || tagName(f) == "-" {
			continue
		}
		fs = append(fs, f)
	}
	return fs
}

// fieldByKey finds the struct field whose toml tag is key.
func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for _, f := range fields(t) {
		if tagName(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func tagName(f reflect.StructField) string {
	n, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return n
}

// keysOf lists the keys a section takes.
func keysOf(t reflect.Type) []string {
	var ks []string
	for _, f := range fields(t) {
		ks = append(ks, tagName(f))
	}
	return ks
}

// assign copies a decoded TOML table into the struct v, reporting unknown keys and
// values of the wrong type by their dotted key.
func assign(v reflect.Value, raw map[string]any, prefix string) []error {
	var errs []error
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		full := prefix + k
		f, ok := fieldByKey(v.Type(), k)
		if !ok {
			errs = append(errs, unknownKey(full, prefix, v.Type()))
			continue
		}
		fv := v.FieldByIndex(f.Index)
		if fv.Kind() == reflect.Pointer { // a learner's section
			fv = fv.Elem()
		}
		val := raw[k]
		if fv.Kind() == reflect.Struct {
			sub, ok := val.(map[string]any)
			if !ok {
				errs = append(errs, fmt.Errorf("%s: want a table [%s] of keys (%s), got %s", full, full, strings.Join(keysOf(fv.Type()), ", "), describe(val)))
				continue
			}
			errs = append(errs, assign(fv, sub, full+".")...)
			continue
		}
		if err := setValue(fv, val, full); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

func unknownKey(full, prefix string, t reflect.Type) error {
	keys := keysOf(t)
	section := strings.TrimSuffix(prefix, ".")
	where := "a config"
	if section != "" {
		where = "[" + section + "]"
	}
	msg := fmt.Sprintf("unknown key %s: %s takes %s", full, where, strings.Join(keys, ", "))
	last := full[len(prefix):]
	if s := closest(last, keys); s != "" {
		msg += fmt.Sprintf(" (did you mean %s%s?)", prefix, s)
	}
	return errors.New(msg)
}

// closest returns the key nearest to k by edit distance when it is a plausible typo.
func closest(k string, keys []string) string {
	best, bestD := "", 1<<30
	for _, c := range keys {
		if d := editDistance(k, c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= max(2, len(k)/3) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case int64:
		return fmt.Sprintf("the integer %d", x)
	case float64:
		return fmt.Sprintf("the number %v", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%v (%T)", v, v)
}

// setValue stores a TOML value into a field of kind int, float, bool, string, []int or
// map, or says what the key wants.
func setValue(fv reflect.Value, val any, key string) error {
	wrong := func(want string) error {
		return fmt.Errorf("%s: want %s, got %s", key, want, describe(val))
	}
	switch fv.Kind() {
	case reflect.Int, reflect.Int64:
		switch x := val.(type) {
		case int64:
			fv.SetInt(x)
		case float64:
			if x != math.Trunc(x) || math.Abs(x) > 1<<62 {
				return wrong("an integer")
			}
			fv.SetInt(int64(x))
		default:
			return wrong("an integer")
		}
	case reflect.Float64:
		switch x := val.(type) {
		case int64:
			fv.SetFloat(float64(x))
		case float64:
			fv.SetFloat(x)
		default:
			return wrong("a number")
		}
	case reflect.Bool:
		b, ok := val.(bool)
		if !ok {
			return wrong("true or false")
		}
		fv.SetBool(b)
	case reflect.String:
		s, ok := val.(string)
		if !ok {
			return wrong("a string")
		}
		fv.SetString(s)
	case reflect.Slice:
		arr, ok := val.([]any)
		if !ok {
			return wrong("an array of integers, e.g. [64, 64]")
		}
		out := reflect.MakeSlice(fv.Type(), len(arr), len(arr))
		for i, e := range arr {
			if err := setValue(out.Index(i), e, fmt.Sprintf("%s[%d]", key, i)); err != nil {
				return err
			}
		}
		fv.Set(out)
	case reflect.Map:
		m, ok := val.(map[string]any)
		if !ok {
			return wrong("a table")
		}
		fv.Set(reflect.ValueOf(m))
	default:
		return fmt.Errorf("%s: unsupported field kind %v (a bug in the schema)", key, fv.Kind())
	}
	return nil
}

// leaves calls visit for every key under the schema value v with its dotted key, its
// field and its value: sections (learner sections through their pointers) are walked
// into.
func leaves(v reflect.Value, prefix string, visit func(key string, f reflect.StructField, fv reflect.Value)) {
	for _, f := range fields(v.Type()) {
		fv := v.FieldByIndex(f.Index)
		if fv.Kind() == reflect.Pointer {
			fv = fv.Elem()
		}
		key := prefix + tagName(f)
		if fv.Kind() == reflect.Struct {
			leaves(fv, key+".", visit)
			continue
		}
		visit(key, f, fv)
	}
}

// checkRanges applies range and oneof tags to every field.
func checkRanges(v reflect.Value, prefix string) []error {
	var errs []error
	leaves(v, prefix, func(key string, f reflect.StructField, fv reflect.Value) {
		if r := f.Tag.Get("range"); r != "" {
			var x float64
			switch fv.Kind() {
			case reflect.Int, reflect.Int64:
				x = float64(fv.Int())
			case reflect.Float64:
				x = fv.Float()
			case reflect.Slice:
				for j := range fv.Len() {
					if err := inRange(float64(fv.Index(j).Int()), r, fmt.Sprintf("%s[%d]", key, j)); err != nil {
						errs = append(errs, err)
					}
				}
				return
			}
			if err := inRange(x, r, key); err != nil {
				errs = append(errs, err)
			}
		}
		if o := f.Tag.Get("oneof"); o != "" {
			allowed := strings.Split(o, "|")
			if !contains(allowed, fv.String()) {
				errs = append(errs, fmt.Errorf("%s = %q: use one of %s", key, fv.String(), strings.Join(allowed, ", ")))
			}
		}
		if fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Int {
			for j := range fv.Len() {
				if fv.Index(j).Int() <= 0 {
					errs = append(errs, fmt.Errorf("%s[%d] = %d: layer sizes must be at least 1", key, j, fv.Index(j).Int()))
				}
			}
		}
	})
	return errs
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// inRange checks x against an interval written "[lo,hi]", "(lo,hi]", ... with inf for
// no bound.
func inRange(x float64, r, key string) error {
	lo, hi, ok := strings.Cut(r[1:len(r)-1], ",")
	if !ok {
		return fmt.Errorf("%s: bad range tag %q (a bug in the schema)", key, r)
	}
	l, _ := strconv.ParseFloat(lo, 64)
	h, _ := strconv.ParseFloat(hi, 64)
	if hi == "inf" || hi == "" {
		h = math.Inf(1)
	}
	bad := math.IsNaN(x) ||
		(r[0] == '[' && x < l) || (r[0] == '(' && x <= l) ||
		(r[len(r)-1] == ']' && x > h) || (r[len(r)-1] == ')' && x >= h)
	if bad {
		return fmt.Errorf("%s = %v is out of range: allowed %s", key, x, describeRange(r, l, h))
	}
	return nil
}

func describeRange(r string, l, h float64) string {
	lo := ">= "
	if r[0] == '(' {
		lo = "> "
	}
	hi := "<= "
	if r[len(r)-1] == ')' {
		hi = "< "
	}
	if math.IsInf(h, 1) {
		return lo + strconv.FormatFloat(l, 'g', -1, 64)
	}
	return lo + strconv.FormatFloat(l, 'g', -1, 64) + " and " + hi + strconv.FormatFloat(h, 'g', -1, 64)
}
