package configs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestBundlesEveryConfig checks that the embedded list is exactly the folder's *.toml
// and sweeps/*.toml, and that each has a purpose line and resolves by bare name.
func TestBundlesEveryConfig(t *testing.T) {
	var want []string
	top, _ := filepath.Glob("*.toml")
	sweeps, _ := filepath.Glob("sweeps/*.toml")
	want = append(want, top...)
	for _, s := range sweeps {
		want = append(want, filepath.ToSlash(s))
	}
	got := Names()
	if !slices.Equal(got, want) || len(got) == 0 {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, n := range got {
		if Purpose(n) == "" {
			t.Errorf("%s has no first comment line", n)
		}
		disk, _ := os.ReadFile(n)
		if b, err := Read(n); err != nil || string(b) != string(disk) {
			t.Errorf("Read(%s) differs from the file: %v", n, err)
		}
	}
	for in, want := range map[string]string{"pong": "pong.toml", "pong.toml": "pong.toml", "configs/pong.toml": "pong.toml",
		"sweeps/cartpole-lr-clip": "sweeps/cartpole-lr-clip.toml"} {
		if got, ok := Lookup(in); !ok || got != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"nope", "../go.mod", "sweeps"} {
		if got, ok := Lookup(bad); ok {
			t.Errorf("Lookup(%q) = %q, want not found", bad, got)
		}
	}
}
