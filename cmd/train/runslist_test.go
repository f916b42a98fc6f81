package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlpool/rlpool/internal/rundir"
)

// fakeRunDir writes a minimal run directory (config.toml and meta.json).
func fakeRunDir(t *testing.T, dir, name string, start time.Time) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[run]\nalgo = \"ppo\"\nname = \"" + name + "\"\n\n[env]\ntask = \"CartPole-v1\"\n"
	b, _ := json.Marshal(rundir.Meta{Version: "test", Algo: "ppo", Task: "CartPole-v1", StartTime: start, Status: rundir.StatusFinished})
	if err := os.WriteFile(filepath.Join(p, rundir.ConfigFile), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, rundir.MetaFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// `train runs list` takes several folders and globs of run folders; no argument and
// one folder list as before.
func TestRunsListFoldersAndGlobs(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	a := filepath.Join(dir, "runs")
	b := filepath.Join(dir, "other", "runs")
	fakeRunDir(t, a, "pong-s1", t0)
	fakeRunDir(t, a, "cartpole-s1", t0.Add(time.Hour))
	fakeRunDir(t, b, "pong-s2", t0.Add(2*time.Hour))

	// names returns the NAME column of a listing.
	names := func(out string) []string {
		var ns []string
		for _, line := range strings.Split(out, "\n")[1:] {
			if f := strings.Fields(line); len(f) > 0 {
				ns = append(ns, strings.TrimPrefix(f[0], filepath.ToSlash(dir)+"/"))
			}
		}
		return ns
	}
	list := func(args ...string) ([]string, error) {
		var out bytes.Buffer
		err := runsMain(append([]string{"list"}, args...), &out)
		return names(out.String()), err
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{a}, "cartpole-s1 pong-s1"},
		{[]string{"-dir", a}, "cartpole-s1 pong-s1"},
		{[]string{a, b}, "other/runs/pong-s2 runs/cartpole-s1 runs/pong-s1"},
		{[]string{filepath.Join(a, "pong-*")}, "runs/pong-s1"},
		{[]string{filepath.Join(dir, "*", "pong-*"), b}, "other/runs/pong-s2 runs/pong-s1"},
	} {
		got, err := list(c.args...)
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("runs list %v: %v, %v; want %s", c.args, got, err, c.want)
		}
	}
	// No argument: the runs folder of the working directory, as before.
	t.Chdir(dir)
	got, err := list()
	if err != nil || strings.Join(got, " ") != "cartpole-s1 pong-s1" {
		t.Errorf("runs list: %v, %v", got, err)
	}
	if _, err := list(filepath.Join(a, "breakout-*")); err == nil || !strings.Contains(err.Error(), "no run or folder matches") {
		t.Errorf("a glob matching nothing: %v", err)
	}
}
