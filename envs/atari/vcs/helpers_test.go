package vcs

import (
	"os"
	"path/filepath"
	"testing"
)

// romDir returns $RLPOOL_ROMS or skips the test, naming the variable.
func romDir(t testing.TB) string {
	d := os.Getenv("RLPOOL_ROMS")
	if d == "" {
		t.Skip("set RLPOOL_ROMS to the directory holding the test ROMs (the Makefile points it at ../shared/roms when that exists)")
	}
	return d
}

// loadROM reads name from the ROM directory.
func loadROM(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join(romDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gameConfig returns the ALE properties of the test games
// (docs/design/emulator.md, ROM properties).
func gameConfig(game string) Config {
	cfg := DefaultConfig()
	switch game {
	case "pong":
		cfg.Paddles, cfg.RightPaddles, cfg.SwapPaddles = true, true, true
	case "breakout":
		cfg.Paddles = true
	case "ms_pacman":
		cfg.HmoveBlanks = false
	case "carnival":
		cfg.YStart, cfg.Height = 26, 214
	case "maze_craze":
		cfg.Format = "PAL" // its properties entry fixes the format
	}
	return cfg
}
