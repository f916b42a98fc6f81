package vcs

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// romSchemes parses the scheme table of the ROM directory's README.md.
func romSchemes(t *testing.T, dir string) map[string]string {
	f, err := os.Open(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatalf("ROM README: %v", err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 4 {
			continue
		}
		name, scheme := strings.TrimSpace(cols[1]), strings.TrimSpace(cols[2])
		if strings.HasSuffix(name, ".bin") {
			m[name] = scheme
		}
	}
	return m
}

// TestBootROMs boots every ROM in $RLPOOL_ROMS, runs 120 frames without input and
// checks errors, scanline counts and the detected scheme against the README table.
func TestBootROMs(t *testing.T) {
	dir := romDir(t)
	want := romSchemes(t, dir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) == 0 {
		t.Fatalf("no ROMs in %s", dir)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			rom, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			c, err := NewConsole(rom, gameConfig(strings.TrimSuffix(name, ".bin")))
			if err != nil {
				t.Fatal(err)
			}
			if w, ok := want[name]; ok && c.Scheme() != w {
				t.Errorf("scheme %s, README says %s", c.Scheme(), w)
			}
			c.SetInput(Input{})
			for i := 0; i < 120; i++ {
				if err := c.RunFrame(); err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
				lo, hi := 258, 266 // NTSC
				if c.PAL() {
					lo, hi = 308, 316 // klax is a PAL game: ALE detects it as such
				}
				if s := c.Scanlines(); i > 5 && (s < lo || s > hi) {
					t.Errorf("frame %d: %d scanlines", i, s)
				}
			}
			t.Logf("%s: scheme %s, %d scanlines, PAL %v", name, c.Scheme(), c.Scanlines(), c.PAL())
		})
	}
}

// TestJAM checks that a JAM opcode is an error wrapping ErrJAM on every later frame, not
// a panic, and that the partial frame's window is greyed once.
func TestJAM(t *testing.T) {
	p := &prog{}
	p.sta(0x09, 0x4E) // COLUBK
	p.emit(0x02)      // JAM
	c, err := NewConsole(p.rom(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := c.RunFrame(); !errors.Is(err, ErrJAM) {
			t.Fatalf("frame %d: error %v, want ErrJAM", i, err)
		}
	}
	for i, px := range c.Screen() {
		if px != 0 {
			t.Fatalf("pixel %d = %02X: an undrawn greyed window stays 0", i, px)
		}
	}
	c.Reset()
	if err := c.RunFrame(); !errors.Is(err, ErrJAM) {
		t.Errorf("after Reset the program jams again: %v", err)
	}
}
