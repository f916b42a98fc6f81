package atari

import (
	"fmt"
	"sync"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
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

// ParseEnvConfig reads EnvPool's Atari options from a family option table (unknown
// options, wrong types and out-of-range values are errors) and returns the
// configuration and the roms_dir option.
func ParseEnvConfig(g Game, m map[string]any) (EnvConfig, string, error) {
	o := envs.NewFamilyOptions(m)
	d := DefaultEnvConfig()
	c := EnvConfig{
		ImgHeight:               o.Int("img_height", d.ImgHeight),
		ImgWidth:                o.Int("img_width", d.ImgWidth),
		StackNum:                o.Int("stack_num", d.StackNum),
		GrayScale:               o.Bool("gray_scale", d.GrayScale),
		FrameSkip:               o.Int("frame_skip", d.FrameSkip),
		NoopMax:                 o.Int("noop_max", d.NoopMax),
		EpisodicLife:            o.Bool("episodic_life", d.EpisodicLife),
		ZeroDiscountOnLifeLoss:  o.Bool("zero_discount_on_life_loss", d.ZeroDiscountOnLifeLoss),
		RewardClip:              o.Bool("reward_clip", d.RewardClip),
		RepeatActionProbability: o.Float("repeat_action_probability", d.RepeatActionProbability),
		UseInterAreaResize:      o.Bool("use_inter_area_resize", d.UseInterAreaResize),
		UseFireReset:            o.Bool("use_fire_reset", d.UseFireReset),
		FullActionSpace:         o.Bool("full_action_space", d.FullActionSpace),
		MaxEpisodeSteps:         o.Int("max_episode_steps", d.MaxEpisodeSteps),
	}
	mode := o.Int("mode", -1)
	if mode >= 0 {
		c.Mode = &mode
	}
	// Absent (or -1), the difficulty is ALE's default 0, used without checking it
	// against the game's list as ALE does (Backgammon lists only 3); a given one must
	// be one of the game's.
	diff := o.Int("difficulty", -1)
	if diff >= 0 {
		c.Difficulty = &diff
	}
	romsDir := o.String("roms_dir", "")
	o.Check(c.ImgHeight >= 1 && c.ImgHeight <= 4096, "img_height", "%d: must be 1..4096", c.ImgHeight)
	o.Check(c.ImgWidth >= 1 && c.ImgWidth <= 4096, "img_width", "%d: must be 1..4096", c.ImgWidth)
	o.Check(c.StackNum >= 1 && c.StackNum <= 1024, "stack_num", "%d: must be 1..1024", c.StackNum)
	o.Check(c.FrameSkip >= 1 && c.FrameSkip <= 1000, "frame_skip", "%d: must be 1..1000", c.FrameSkip)
	o.Check(c.NoopMax >= 0, "noop_max", "%d: must be at least 0 (EnvPool's default is 30)", c.NoopMax)
	o.Check(c.MaxEpisodeSteps >= 1, "max_episode_steps", "%d: must be at least 1 (EnvPool's default is 27000)", c.MaxEpisodeSteps)
	p := c.RepeatActionProbability
	o.Check(p >= 0 && p <= 1, "repeat_action_probability", "%v: must be in [0, 1]", p)
	o.Check(mode >= -1 && (mode == -1 || g.HasMode(mode)), "mode", "%d: %s's modes are %v (-1 or absent: the default)", mode, g.Name, orDefault(g.Modes))
	o.Check(diff >= -1 && (diff == -1 || g.HasDifficulty(diff)), "difficulty", "%d: %s's difficulties are %v (-1 or absent: ALE's default, 0)", diff, g.Name, orDefault(g.Difficulties))
	return c, romsDir, o.Err()
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
	cfg, romsDir, err := ParseEnvConfig(g, m)
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	rom, err := findTaskROM(ROMDir(romsDir), name)
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	spec := cfg.Spec(id, g)
	factory := func(_ int, seed int64) (envpool.Env, error) { return NewEnv(rom.Data, cfg, seed) }
	return spec, factory, nil
}
