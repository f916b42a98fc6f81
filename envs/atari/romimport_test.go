package atari

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportROMs builds a folder tree holding real test ROMs under other names (one in
// a subfolder, two in a zip), a corrupt copy of one, an unknown file and a ROM
// folder that already holds one game plus a wrong file under another game's name,
// then checks what the import reports and copies.
func TestImportROMs(t *testing.T) {
	pong := testROM(t, "pong")
	breakout := testROM(t, "breakout")
	invaders := testROM(t, "space_invaders")

	src := t.TempDir()
	write := func(path string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(src, "sub", "Video Olympics (1977).a26"), pong.Data)
	corrupt := append([]byte(nil), breakout.Data...)
	corrupt[100] ^= 0xff
	write(filepath.Join(src, "Breakout (corrupt).bin"), corrupt)
	write(filepath.Join(src, "notes.txt"), []byte("not a ROM"))
	zf, err := os.Create(filepath.Join(src, "pack.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name, data := range map[string][]byte{"roms/BREAKOUT.BIN": breakout.Data, "roms/invaders.bin": invaders.Data} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zf.Close()

	dst := t.TempDir()
	write(filepath.Join(dst, "my invaders.bin"), invaders.Data) // already present, another name
	write(filepath.Join(dst, "pong.bin"), []byte("wrong"))      // pong's name, wrong md5

	results, err := ImportROMs(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]ImportStatus{}
	for _, r := range results {
		got[strings.TrimPrefix(r.Source, src+string(filepath.Separator))] = r.Status
	}
	want := map[string]ImportStatus{
		"Video Olympics (1977).a26":  Imported,
		"pack.zip:roms/BREAKOUT.BIN": Imported,
		"pack.zip:roms/invaders.bin": AlreadyPresent,
		"Breakout (corrupt).bin":     Unknown,
		"notes.txt":                  Unknown,
	}
	for name, st := range want {
		if got[name] != st {
			t.Errorf("%s: %v, want %v (all: %+v)", name, got[name], st, results)
		}
	}
	if len(results) != len(want) {
		t.Errorf("%d results, want %d: %+v", len(results), len(want), results)
	}
	// The ROMs are where the tasks look for them, under their canonical names, and
	// pong.bin with the wrong md5 was replaced.
	for _, g := range []string{"pong", "breakout", "space_invaders"} {
		rom, err := FindROM(g, dst)
		if err != nil {
			t.Errorf("after import: %v", err)
			continue
		}
		if g != "space_invaders" && filepath.Base(rom.Path) != g+".bin" {
			t.Errorf("%s imported as %s", g, rom.Path)
		}
	}
	// The corrupt copy is identified as nothing and was not copied.
	if _, ok := Identify(corrupt); ok {
		t.Error("a corrupt ROM was identified as a game")
	}
	// A second import finds everything present.
	again, err := ImportROMs(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range again {
		if r.Status == Imported {
			t.Errorf("second import copied %s again", r.Source)
		}
	}
	// ROMStatus lists all games and finds the three.
	n := 0
	for _, s := range ROMStatus(dst) {
		if s.Path != "" {
			n++
		}
	}
	if st := ROMStatus(dst); len(st) != len(GameNames()) || n != 3 {
		t.Errorf("ROMStatus: %d games, %d present; want %d and 3", len(st), n, len(GameNames()))
	}
	if _, err := ImportROMs(filepath.Join(src, "missing"), dst); err == nil {
		t.Error("importing from a missing folder did not fail")
	}
}
