package atari

import (
	"errors"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// TestDefaultOptionsEveryGame checks that every game of the table accepts the default
// options (no mode, no difficulty) at each layer that validates them, and starts at its
// default mode and ALE's difficulty 0 even where 0 is not in its list (Backgammon), as
// ALE does.
func TestDefaultOptionsEveryGame(t *testing.T) {
	for _, gp := range supportedGames {
		g := gp.clone()
		if err := checkOptions(g, Options{}); err != nil {
			t.Errorf("%s: default ALE options: %v", g.Name, err)
		}
		cfg, _, err := ParseEnvConfig(g, nil)
		if err != nil {
			t.Errorf("%s: default task options: %v", g.Name, err)
			continue
		}
		if err := cfg.check(g); err != nil {
			t.Errorf("%s: default env config: %v", g.Name, err)
		}
		a := newALE(g, &fakeMachine{}, Options{})
		if a.Mode() != g.DefaultMode() || !g.HasMode(a.Mode()) || a.difficulty != 0 {
			t.Errorf("%s: default mode %d, difficulty %d; want mode %d (one of %v), difficulty 0",
				g.Name, a.Mode(), a.difficulty, g.DefaultMode(), g.Modes)
		}
	}
}

// TestExplicitDifficultyChecked checks that a given difficulty or mode is still
// validated against the game's lists, while an absent one is not.
func TestExplicitDifficultyChecked(t *testing.T) {
	bg, _ := GameByName("backgammon")
	zero, three := 0, 3
	if err := checkOptions(bg, Options{Difficulty: &zero}); err == nil || !strings.Contains(err.Error(), "has no difficulty 0; its difficulties are [3]") {
		t.Errorf("backgammon, explicit difficulty 0: %v", err)
	}
	if err := checkOptions(bg, Options{Difficulty: &three}); err != nil {
		t.Errorf("backgammon, difficulty 3: %v", err)
	}
	if _, _, err := ParseEnvConfig(bg, map[string]any{"difficulty": 0}); err == nil || !strings.Contains(err.Error(), "difficulty") {
		t.Errorf("backgammon task option difficulty 0: %v", err)
	}
	cfg, _, err := ParseEnvConfig(bg, map[string]any{"difficulty": 3})
	if err != nil || cfg.Difficulty == nil || *cfg.Difficulty != 3 {
		t.Errorf("backgammon task option difficulty 3: %v, %v", cfg.Difficulty, err)
	}
	if cfg, _, err := ParseEnvConfig(bg, map[string]any{"difficulty": -1}); err != nil || cfg.Difficulty != nil {
		t.Errorf("backgammon task option difficulty -1 (the default): %v, %v", cfg.Difficulty, err)
	}
	a := newALE(bg, &fakeMachine{}, Options{Difficulty: &three})
	if a.difficulty != 3 {
		t.Errorf("backgammon difficulty 3 runs at %d", a.difficulty)
	}
	pong, _ := GameByName("pong")
	if _, _, err := ParseEnvConfig(pong, map[string]any{"mode": 2}); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("pong task option mode 2: %v", err)
	}
	if _, _, err := ParseEnvConfig(pong, map[string]any{"difficulty": 4}); err == nil {
		t.Error("pong task option difficulty 4 accepted")
	}
	if _, _, err := ParseEnvConfig(pong, map[string]any{"difficulty": -2}); err == nil {
		t.Error("pong task option difficulty -2 accepted")
	}
}

// TestMakeEveryGameDefaults makes every task of the table whose ROM is in
// $RLPOOL_ROMS with default options, through the task table, and steps it a few times.
func TestMakeEveryGameDefaults(t *testing.T) {
	dir := romDirOrSkip(t)
	made := 0
	for _, g := range supportedGames {
		id := g.TaskID()
		if _, err := FindROM(g.Name, dir); errors.Is(err, ErrROMNotFound) {
			continue
		} else if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		env, spec, err := envs.MakeEnv(id, map[string]any{"roms_dir": dir}, 1)
		if err != nil {
			t.Errorf("%s with default options: %v", id, err)
			continue
		}
		made++
		obs := envpool.Obs{U8: make([]uint8, spec.ObsSpace.Size())}
		info := make([]float32, spec.InfoWidth())
		env.Reset()
		for i := range 4 {
			env.Step([]float32{float32(i % spec.ActionSpace.N)})
		}
		env.Observe(obs, info)
	}
	if made == 0 {
		t.Skipf("no ROM of the table's games in %s", dir)
	}
	t.Logf("made and stepped %d games with default options", made)
}
