// Package config reads rlpool's TOML run configs: defaults, a file, any number of
// "-set key=value" overrides (dotted keys, values read as TOML values), and validation
// whose errors name the key and say what is allowed.
//
// The schema is the Config struct itself, decoded by rlpool/option: each field's toml
// tag is its key, an optional range tag ("[0,1]", "(0,inf)") bounds numbers, a oneof
// tag ("tanh|relu") lists the allowed strings, and a help tag says what the key does.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/agent/ppo"
	"github.com/rlpool/rlpool/configs"
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/option"
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
	// TargetSuccess NaN (the default) sets no success target; set, with target_return
	// nan, the success rate alone is the target.
	TargetSuccess float64 `toml:"target_success" help:"share of the recent episodes that succeeded (tasks with a success flag in info) that counts as solved; nan: none"`
	StopAtTarget  bool    `toml:"stop_at_target" help:"stop the run once the recent episodes reach the targets (return, success rate)"`
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
			LogInterval: 10_000, CheckpointInterval: 50_000, RecentEpisodes: 20, TargetReturn: math.NaN(), TargetSuccess: math.NaN()},
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
// learners' included (built with reflect.StructOf from Algorithms): the option decoder,
// overrides, help and the TOML encoder walk it like any struct. Its learner fields point at c's own sections.
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
	// Keys that failed to decode kept their defaults, so the decoder still checks
	// every range: every problem is reported at once.
	if err := decoder.Decode(raw, sv.Addr().Interface()); err != nil {
		errs = append(errs, unjoin(err)...)
	}
	cfg.fromSchema(sv)
	errs = append(errs, cfg.checkLayerSizes()...)
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
	if t := c.Run.TargetSuccess; t < 0 || t > 1 {
		errs = append(errs, fmt.Errorf("run.target_success = %g: a share of episodes, between 0 and 1 (nan: no success target)", t))
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
	if col, _ := agent.SuccessColumn(spec); !math.IsNaN(c.Run.TargetSuccess) && col < 0 {
		return fmt.Errorf("config: run.target_success = %g, but %s flags no success in its info (no %s key): set target_return instead",
			c.Run.TargetSuccess, spec.TaskID, strings.Join(agent.SuccessKeys, " or "))
	}
	return nil
}

// Target returns the return that counts as solved: run.target_return, or the task's
// threshold when that is nan and no success target is set; ok is false when there is
// no return target.
func (c *Config) Target(spec *envpool.Spec) (float64, bool) {
	if !math.IsNaN(c.Run.TargetReturn) {
		return c.Run.TargetReturn, true
	}
	if !math.IsNaN(c.Run.TargetSuccess) {
		return 0, false
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

// decoder names a config's keys in errors: "unknown key ppo.lr: [ppo] takes: ...".
var decoder = option.Decoder{Root: "a config"}

// checkLayerSizes reports hidden layer sizes below 1.
func (c *Config) checkLayerSizes() []error {
	var errs []error
	for j, n := range c.Net.Hidden {
		if n <= 0 {
			errs = append(errs, fmt.Errorf("net.hidden[%d] = %d: layer sizes must be at least 1", j, n))
		}
	}
	return errs
}

// unjoin lists the errors an errors.Join holds, or err itself.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
