package main

import (
	"bytes"
	"image/gif"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/sweep"
)

// TestMain lets the test binary stand in for the train binary: a sweep started by a
// test runs its trials as this binary with RLPOOL_TRAIN_MAIN=1, which trains for real.
func TestMain(m *testing.M) {
	if os.Getenv("RLPOOL_TRAIN_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestSweepRunsEvalEndToEnd runs a two-trial CartPole sweep with real training
// processes, then inspects it with train runs and plays the best trial with train eval.
func TestSweepRunsEvalEndToEnd(t *testing.T) {
	t.Setenv("RLPOOL_TRAIN_MAIN", "1")
	dir := t.TempDir()
	base, err := filepath.Abs("../../configs/cartpole.toml")
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "tiny.toml")
	os.WriteFile(spec, []byte(`[sweep]
name = "tiny"
base = "`+base+`"
dir = "`+dir+`"
method = "grid"
seeds = [1]
parallel = 2
budget_steps = 2048
metric_episodes = 5

[params]
"ppo.learning_rate" = [1e-3, 3e-3]

[set]
"run.log_interval" = 1024
"run.checkpoint_interval" = 0
"net.hidden" = [16, 16]
`), 0o644)
	var out bytes.Buffer
	if err := sweepMain([]string{"-config", spec}, &out); err != nil {
		t.Fatalf("sweep: %v\n%s", err, out.String())
	}
	folder := filepath.Join(dir, "tiny")
	s, err := sweep.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := sweep.ReadResults(filepath.Join(folder, sweep.ResultFile), s)
	if err != nil || len(recs) != 2 {
		t.Fatalf("sweep.csv: %d records, %v\n%s", len(recs), err, out.String())
	}
	for _, r := range recs {
		if r.Status != sweep.StatusFinished || r.EnvSteps < 2048 || r.Episodes == 0 {
			t.Errorf("trial %+v did not finish its budget", r)
		}
	}
	if _, err := config.Load(filepath.Join(folder, sweep.BestFile), nil); err != nil {
		t.Errorf("best.toml: %v", err)
	}
	if !strings.Contains(out.String(), "RANK") {
		t.Errorf("no summary table:\n%s", out.String())
	}

	out.Reset()
	if err := runsMain([]string{"list", folder}, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "finished") != 2 || strings.Contains(out.String(), "not a run") {
		t.Errorf("runs list:\n%s", out.String())
	}
	a, b := filepath.Join(folder, recs[0].RunDir), filepath.Join(folder, recs[1].RunDir)
	if ev, _ := filepath.Glob(filepath.Join(a, "events.out.tfevents.*")); len(ev) != 1 {
		t.Errorf("run %s has %d TensorBoard event files, want 1", a, len(ev))
	}
	out.Reset()
	if err := runsMain([]string{"show", a}, &out); err != nil || !slices.Contains(strings.Fields(out.String()), "learning_rate="+recs[0].Values[0]) {
		t.Errorf("runs show: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := runsMain([]string{"compare", a, b}, &out); err != nil || !hasLine(out.String(), "ppo.learning_rate", "0.001", "0.003") {
		t.Errorf("runs compare: %v\n%s", err, out.String())
	}
	png := filepath.Join(dir, "p.png")
	out.Reset()
	if err := runsMain([]string{"plot", a, b, "-x", "time", "-o", png}, &out); err != nil {
		t.Errorf("runs plot: %v", err)
	} else if st, err := os.Stat(png); err != nil || st.Size() == 0 {
		t.Errorf("runs plot wrote no PNG: %v", err)
	}
	if err := runsMain([]string{"plot", a, "-x", "sideways", "-o", png}, &out); err == nil {
		t.Error("runs plot accepted -x sideways")
	}
	if err := runsMain([]string{"show", filepath.Join(dir, "nope")}, &out); err == nil {
		t.Error("runs show of a missing run succeeded")
	}

	gifPath := filepath.Join(dir, "play.gif")
	out.Reset()
	if err := evalMain([]string{"-run", a, "-episodes", "2", "-deterministic", "-gif", gifPath}, &out); err != nil {
		t.Fatalf("eval: %v\n%s", err, out.String())
	}
	if strings.Count(out.String(), "\nepisode ") != 2 || !strings.Contains(out.String(), "mean return") {
		t.Errorf("eval output:\n%s", out.String())
	}
	f, err := os.Open(gifPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if g, err := gif.DecodeAll(f); err != nil || len(g.Image) < 2 {
		t.Errorf("eval GIF: %v", err)
	}

	// -temperature samples at the temperature given, and is refused where there is
	// nothing to sample or no temperature.
	out.Reset()
	if err := evalMain([]string{"-run", a, "-episodes", "1", "-temperature", "0.5"}, &out); err != nil {
		t.Fatalf("eval -temperature 0.5: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "sampled (at temperature 0.5)") {
		t.Errorf("eval -temperature 0.5 does not say it sampled at 0.5:\n%s", out.String())
	}
	for _, args := range [][]string{{"-temperature", "-1"}, {"-temperature", "0.5", "-deterministic"}} {
		if err := evalMain(append([]string{"-run", a, "-episodes", "1"}, args...), &out); err == nil {
			t.Errorf("eval %v was accepted", args)
		}
	}
}

// hasLine reports whether some line of s contains every one of parts.
func hasLine(s string, parts ...string) bool {
	for _, l := range strings.Split(s, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			return true
		}
	}
	return false
}
