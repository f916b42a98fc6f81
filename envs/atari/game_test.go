package atari

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestGameTable checks that every entry of the game table is complete and consistent.
func TestGameTable(t *testing.T) {
	md5re := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for _, g := range supportedGames {
		if !md5re.MatchString(g.MD5) {
			t.Errorf("%s: md5 %q is not 32 lowercase hex digits", g.Name, g.MD5)
		}
		if g.NewReader == nil {
			t.Errorf("%s: no reader", g.Name)
		} else if r := g.NewReader(); r == nil {
			t.Errorf("%s: NewReader returned nil", g.Name)
		}
		if len(g.MinimalActions) == 0 {
			t.Errorf("%s: empty minimal action set", g.Name)
		}
		if !slices.IsSorted(g.MinimalActions) || len(slices.Compact(slices.Clone(g.MinimalActions))) != len(g.MinimalActions) {
			t.Errorf("%s: minimal actions %v are not ascending and distinct, as ALE lists them", g.Name, g.MinimalActions)
		}
		for _, a := range g.MinimalActions {
			if a < 0 || a >= NumActions {
				t.Errorf("%s: action %d out of range", g.Name, a)
			}
		}
		for _, a := range g.StartingActions {
			if (a < 0 || a >= NumActions) && a != actionReset {
				t.Errorf("%s: starting action %d out of range", g.Name, a)
			}
		}
		if len(g.Modes) > 1 && g.setMode == nil {
			t.Errorf("%s: %d modes but no mode selection", g.Name, len(g.Modes))
		}
		if !g.HasMode(g.DefaultMode()) || !g.HasDifficulty(0) && !withoutDifficultyZero[g.Name] {
			t.Errorf("%s: default mode or difficulty 0 not available", g.Name)
		}
		if got, ok := GameByName(g.Name); !ok || got.MD5 != g.MD5 {
			t.Errorf("GameByName(%q) = %v, %v", g.Name, got.Name, ok)
		}
	}
	if names := GameNames(); !slices.IsSorted(names) || len(names) != len(supportedGames) {
		t.Errorf("GameNames() = %v", names)
	}
	if _, ok := GameByName("no_such_game"); ok {
		t.Error("GameByName found a game that does not exist")
	}
	// The table must not be changed through a returned Game.
	g, _ := GameByName("pong")
	g.MinimalActions[0] = DownLeftFire
	if pongGame.MinimalActions[0] != Noop {
		t.Error("changing a returned Game changed the table")
	}
}

// TestPerROMProperties pins the Stella properties of the test ROMs
// (docs/design/emulator.md, ROM properties) and the console configuration derived from
// them.
func TestPerROMProperties(t *testing.T) {
	pong, _ := GameByName("pong")
	if cfg := pong.Props.consoleConfig(); !cfg.Paddles || !cfg.RightPaddles || !cfg.SwapPaddles || cfg.SwapPorts || !cfg.HmoveBlanks || cfg.YStart != 34 || cfg.Height != 210 {
		t.Errorf("pong console config %+v", cfg)
	}
	breakout, _ := GameByName("breakout")
	if cfg := breakout.Props.consoleConfig(); !cfg.Paddles || cfg.RightPaddles || cfg.SwapPaddles {
		t.Errorf("breakout console config %+v", cfg)
	}
	carnival, _ := GameByName("carnival")
	if cfg := carnival.Props.consoleConfig(); cfg.YStart != 26 || cfg.Height != 214 || carnival.Props.height() != 214 {
		t.Errorf("carnival console config %+v", cfg)
	}
	msp, _ := GameByName("ms_pacman")
	if cfg := msp.Props.consoleConfig(); cfg.HmoveBlanks {
		t.Errorf("ms_pacman must have HMOVE blanks off: %+v", cfg)
	}
	for _, name := range []string{"space_invaders", "montezuma_revenge", "road_runner", "robotank", "pitfall2", "elevator_action", "klax"} {
		g, _ := GameByName(name)
		if g.Props != (Properties{}) {
			t.Errorf("%s has non-default properties %+v", name, g.Props)
		}
	}
}

// TestMD5SUMS checks the table against the ROM folder's MD5SUMS and the ROM files.
func TestMD5SUMS(t *testing.T) {
	dir := os.Getenv(ROMEnv)
	if dir == "" {
		t.Skipf("set %s to a folder of ALE's ROMs to check the md5 table against them", ROMEnv)
	}
	f, err := os.Open(filepath.Join(dir, "MD5SUMS"))
	if err != nil {
		t.Skipf("no MD5SUMS in %s (%s): %v", dir, ROMEnv, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			continue
		}
		sum, file := fields[0], fields[1]
		name := strings.TrimSuffix(file, ".bin")
		g, ok := GameByName(name)
		if !ok {
			t.Errorf("MD5SUMS lists %s, which is not in the game table", file)
			continue
		}
		if g.MD5 != sum {
			t.Errorf("%s: table md5 %s, MD5SUMS says %s", name, g.MD5, sum)
		}
		rom, err := LoadROM(filepath.Join(dir, file))
		if err != nil {
			t.Errorf("LoadROM(%s): %v", file, err)
		} else if rom.Game.Name != name {
			t.Errorf("%s identified as %s", file, rom.Game.Name)
		}
		n++
	}
	if n == 0 {
		t.Errorf("MD5SUMS in %s lists no ROM", dir)
	}
}

func TestFindROMErrors(t *testing.T) {
	empty := t.TempDir()
	_, err := FindROM("pong", empty)
	if !errors.Is(err, ErrROMNotFound) {
		t.Fatalf("FindROM in an empty folder: %v, want ErrROMNotFound", err)
	}
	for _, want := range []string{"pong", "60e0ea3cbe0913d39803477945e9e5ec", empty, "train roms import"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}

	// A file named after the game with the wrong md5 is not used, and is named.
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "pong.bin"), make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = FindROM("pong", bad)
	if !errors.Is(err, ErrROMNotFound) || !strings.Contains(err.Error(), filepath.Join(bad, "pong.bin")) {
		t.Errorf("FindROM with a wrong pong.bin: %v", err)
	}

	if _, err := FindROM("pongg", empty); err == nil || !strings.Contains(err.Error(), "unknown game") || !strings.Contains(err.Error(), "pong") {
		t.Errorf("FindROM of an unknown game: %v", err)
	}

	// Unknown images are reported as unknown.
	if _, err := LoadROM(filepath.Join(bad, "pong.bin")); err == nil || !strings.Contains(err.Error(), "not a supported game's ROM") {
		t.Errorf("LoadROM of an unknown image: %v", err)
	}
	if _, err := NewALE(make([]byte, 4096), Options{}); err == nil || !strings.Contains(err.Error(), "not a supported game's ROM") {
		t.Errorf("NewALE of an unknown image: %v", err)
	}

}

func TestFindRealROM(t *testing.T) {
	dir := os.Getenv(ROMEnv)
	if dir == "" {
		t.Skipf("set %s to a folder of ALE's ROMs to test finding real ROMs", ROMEnv)
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "space_invaders.bin"), make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	rom, err := FindROM("space_invaders", dir)
	if err != nil {
		t.Fatalf("FindROM(space_invaders, %s): %v", dir, err)
	}
	if rom.Game.Name != "space_invaders" || MD5(rom.Data) != rom.Game.MD5 {
		t.Errorf("found %s (%s)", rom.Path, rom.Game.Name)
	}
	// Found by md5 whatever its name (through a link, so no ROM is copied).
	renamed := t.TempDir()
	if err := os.Symlink(rom.Path, filepath.Join(renamed, "Space Invaders (1980).a26")); err != nil {
		t.Skipf("cannot make a symbolic link: %v", err)
	}
	got, err := FindROM("space_invaders", bad, renamed)
	if err != nil || got.Game.Name != "space_invaders" {
		t.Errorf("FindROM of a renamed ROM: %v", err)
	}
	// With no folders given, $RLPOOL_ROMS is searched.
	if _, err := FindROM("pong"); err != nil {
		t.Errorf("FindROM(pong) with %s=%s: %v", ROMEnv, dir, err)
	}
}
