package inspect

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlpool/rlpool/internal/rundir"
)

// ListMany lists several folders together, a run directory, and globs of runs;
// one folder is listed exactly as List lists it.
func TestListMany(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	a := filepath.Join(dir, "runs")
	b := filepath.Join(dir, "other", "runs")
	fakeRun(t, a, "pong-s1", rundir.StatusFinished, 1, 1e-3, 5, linear, t0)
	fakeRun(t, a, "pong-s2", rundir.StatusFinished, 2, 1e-3, 5, linear, t0.Add(time.Hour))
	fakeRun(t, a, "cartpole-s1", rundir.StatusFinished, 1, 1e-3, 5, linear, t0.Add(2*time.Hour))
	fakeRun(t, b, "pong-s3", rundir.StatusFinished, 3, 1e-3, 5, linear, t0.Add(3*time.Hour))
	write(t, filepath.Join(a, "notes.txt"), "x")

	names := func(rs []*Run) string {
		var ns []string
		for _, r := range rs {
			ns = append(ns, strings.TrimPrefix(r.Name, filepath.ToSlash(dir)+"/"))
		}
		return strings.Join(ns, " ")
	}
	// One folder: List's result, names relative to it.
	one, sk1, err := ListMany([]string{a})
	want, skw, _ := List(a)
	if err != nil || names(one) != names(want) || len(sk1) != len(skw) {
		t.Errorf("one folder: %s (%v, %v); want %s", names(one), sk1, err, names(want))
	}
	if names(one) != "cartpole-s1 pong-s2 pong-s1" {
		t.Errorf("one folder: %s", names(one))
	}
	// Two folders: both, newest first, named by their paths.
	two, _, err := ListMany([]string{a, b})
	if err != nil || names(two) != "other/runs/pong-s3 runs/cartpole-s1 runs/pong-s2 runs/pong-s1" {
		t.Errorf("two folders: %s, %v", names(two), err)
	}
	// A glob of run directories, as the shell leaves it when quoted.
	g, _, err := ListMany([]string{filepath.Join(a, "pong-*")})
	if err != nil || names(g) != "runs/pong-s2 runs/pong-s1" {
		t.Errorf("glob: %s, %v", names(g), err)
	}
	// A glob across folders, and overlap with a folder: each run once.
	g, _, err = ListMany([]string{filepath.Join(dir, "*", "pong-*"), filepath.Join(dir, "*", "runs", "pong-*"), a})
	if err != nil || names(g) != "other/runs/pong-s3 runs/cartpole-s1 runs/pong-s2 runs/pong-s1" {
		t.Errorf("globs and a folder: %s, %v", names(g), err)
	}
	// A glob matching folders of runs reads each folder.
	g, _, err = ListMany([]string{filepath.Join(dir, "*", "runs")})
	if err != nil || names(g) != "other/runs/pong-s3" {
		t.Errorf("glob of folders: %s, %v", names(g), err)
	}
	// Run directories named one by one (the shell's own expansion of runs/pong-*).
	g, _, err = ListMany([]string{filepath.Join(a, "pong-s1"), filepath.Join(a, "pong-s2")})
	if err != nil || names(g) != "runs/pong-s2 runs/pong-s1" {
		t.Errorf("run directories: %s, %v", names(g), err)
	}
	// Errors: a glob matching nothing, a missing folder among others.
	if _, _, err := ListMany([]string{filepath.Join(a, "breakout-*")}); err == nil || !strings.Contains(err.Error(), "no run or folder matches") {
		t.Errorf("empty glob: %v", err)
	}
	if _, _, err := ListMany([]string{a, filepath.Join(dir, "nope")}); err == nil {
		t.Error("a missing folder among two: no error")
	}
	var out bytes.Buffer
	WriteList(&out, two, nil)
	if !strings.Contains(out.String(), filepath.ToSlash(filepath.Join(b, "pong-s3"))) {
		t.Errorf("list output:\n%s", out.String())
	}
}
