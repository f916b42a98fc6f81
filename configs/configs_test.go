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

// A purpose is the first sentence of the leading comment, however many lines it
// takes; a sentence that ends on its first line stops there.
func TestPurposeSentence(t *testing.T) {
	for name, want := range map[string]string{
		"acrobot.toml": "PPO on Acrobot-v1, with RL Baselines3 Zoo's tuned settings for the task (16 envs x 256 steps, 4 epochs, gamma 0.99, lambda 0.94, no entropy bonus, observation and reward normalisation).",
		"ant.toml":     "PPO on Ant-v4, aiming at a mean return of 3000 within 5 minutes on 2 cores.",
	} {
		if got := Purpose(name); got != want {
			t.Errorf("Purpose(%s) = %q, want %q", name, got, want)
		}
	}
}
