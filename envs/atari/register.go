package atari

import (
	"errors"
	"fmt"
	"sync"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/option"
)

// family is the Atari tasks' family name in the task table.
const family = "atari"

// GameByTaskID returns the game of an Atari task id ("Pong-v5").
func GameByTaskID(id string) (Game, bool) {
	for _, g := range supportedGames {
		if g.TaskID() == id {
			return g.clone(), true
		}
	}
	return Game{}, false
}

func init() {
	for _, g := range supportedGames {
		id := g.TaskID()
		name := g.Name
		envs.Register(envs.Task{ID: id, Family: family, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
			return newTask(id, name, m)
		}, EnvTimeLimit: true})
	}
}

// taskOptions are the options of an Atari task: EnvConfig's, mode and difficulty as
// numbers (-1: the default) and the ROM folder.
type taskOptions struct {
	EnvConfig
	Mode       int    `toml:"mode" help:"game mode; -1: the game's default"`
	Difficulty int    `toml:"difficulty" help:"ALE difficulty; -1: ALE's default, 0"`
	RomsDir    string `toml:"roms_dir" help:"ROM folder; empty: $RLPOOL_ROMS, else ./roms"`
}

// ParseEnvConfig reads EnvPool's Atari options from a family option table (unknown
// options, wrong types and out-of-range values are errors) and returns the
// configuration and the roms_dir option.
func ParseEnvConfig(g Game, m map[string]any) (EnvConfig, string, error) {
	c, o, err := parseOptions(g, m)
	return c, o.RomsDir, err
}

// parseOptions is ParseEnvConfig, which also returns the decoded options.
func parseOptions(g Game, m map[string]any) (EnvConfig, taskOptions, error) {
	o := taskOptions{EnvConfig: DefaultEnvConfig(), Mode: -1, Difficulty: -1}
	var errs []error
	if err := envs.DecodeOptions(m, &o); err != nil {
		errs = append(errs, err)
	}
	c := o.EnvConfig
	if o.Mode >= 0 {
		c.Mode = &o.Mode
	}
	// Absent (or -1), the difficulty is ALE's default 0, used without checking it
	// against the game's list as ALE does (Backgammon lists only 3); a given one must
	// be one of the game's.
	if o.Difficulty >= 0 {
		c.Difficulty = &o.Difficulty
	}
	if o.Mode < -1 || (o.Mode >= 0 && !g.HasMode(o.Mode)) {
		errs = append(errs, fmt.Errorf("option mode = %d: %s's modes are %v (-1 or absent: the default)", o.Mode, g.Name, orDefault(g.Modes)))
	}
	if o.Difficulty < -1 || (o.Difficulty >= 0 && !g.HasDifficulty(o.Difficulty)) {
		errs = append(errs, fmt.Errorf("option difficulty = %d: %s's difficulties are %v (-1 or absent: ALE's default, 0)", o.Difficulty, g.Name, orDefault(g.Difficulties)))
	}
	return c, o, errors.Join(errs...)
}

// orDefault is ALE's reading of an empty mode or difficulty list: {0}.
func orDefault(xs []int) []int {
	if len(xs) == 0 {
		return []int{0}
	}
	return xs
}

// romCache keeps the ROM images read by tasks, by folder and game, so that building
// many pools (a sweep) reads each file once. Images are never modified.
var romCache sync.Map // key romKey -> ROM

type romKey struct{ dir, game string }

// findTaskROM finds a game's ROM in the resolved ROM folder, through the cache.
func findTaskROM(dir, game string) (ROM, error) {
	k := romKey{dir, game}
	if r, ok := romCache.Load(k); ok {
		return r.(ROM), nil
	}
	rom, err := FindROM(game, dir)
	if err != nil {
		return ROM{}, err
	}
	romCache.Store(k, rom)
	return rom, nil
}

// newTask reads the options, finds the ROM and returns the spec and env factory of
// one Atari task.
func newTask(id, name string, m map[string]any) (envpool.Spec, envpool.Factory, error) {
	g, ok := GameByName(name)
	if !ok {
		return envpool.Spec{}, nil, fmt.Errorf("atari: game %s left the game table", name)
	}
	cfg, o, err := parseOptions(g, m)
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	rom, err := findTaskROM(ROMDir(o.RomsDir), name)
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	spec := cfg.Spec(id, g)
	spec.Options = option.Values(&o)
	factory := func(_ int, seed int64) (envpool.Env, error) { return NewEnv(rom.Data, cfg, seed) }
	return spec, factory, nil
}
