package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRomsCommand runs `train roms import` and `train roms list` on a tree with an
// unknown file and, when $RLPOOL_ROMS is set, a real ROM under another name.
func TestRomsCommand(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "roms")
	if err := os.WriteFile(filepath.Join(src, "readme.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	haveROM := false
	if dir := os.Getenv("RLPOOL_ROMS"); dir != "" {
		if data, err := os.ReadFile(filepath.Join(dir, "pong.bin")); err == nil {
			haveROM = os.WriteFile(filepath.Join(src, "Video Olympics.a26"), data, 0o644) == nil
		}
	}
	var out bytes.Buffer
	// The -to flag may follow the folder.
	if err := romsMain([]string{"import", src, "-to", dst}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"unknown", "readme.txt", "STATUS"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("import output lacks %q:\n%s", want, out.String())
		}
	}
	if haveROM && !strings.Contains(out.String(), filepath.Join(dst, "pong.bin")) {
		t.Errorf("pong not imported:\n%s", out.String())
	}
	out.Reset()
	if err := romsMain([]string{"list", "-dir", dst}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Pong-v5") || !strings.Contains(out.String(), "games available in "+dst) {
		t.Errorf("list output:\n%s", out.String())
	}
	if haveROM && strings.Contains(out.String(), "pong               60e0ea3cbe0913d39803477945e9e5ec  missing") {
		t.Errorf("list says pong is missing after the import:\n%s", out.String())
	}
	for _, bad := range [][]string{nil, {"import"}, {"frob"}, {"import", src, src}} {
		if err := romsMain(bad, &out); err == nil {
			t.Errorf("train roms %v: no error", bad)
		}
	}
}
