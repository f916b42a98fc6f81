package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rlpool/rlpool/internal/rundir"
)

// fakeRun writes a run directory: config, meta (status), metrics rows every 1000
// steps at 100 steps/s, and one episode per 100 steps with return ret(i).
func fakeRun(t *testing.T, dir, name, status string, seed int64, lr float64, episodes int, ret func(i int) float64, start time.Time) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("[run]\nalgo = \"ppo\"\nname = %q\nseed = %d\nrecent_episodes = 5\ntarget_return = 100.0\n\n[env]\ntask = \"CartPole-v1\"\n\n[ppo]\nlearning_rate = %g\n", name, seed, lr)
	write(t, filepath.Join(p, rundir.ConfigFile), cfg)
	steps := int64(episodes * 100)
	target := 100.0
	m := rundir.Meta{Version: "test", Algo: "ppo", Task: "CartPole-v1", Seed: seed, StartTime: start, Status: status,
		EnvSteps: steps, WallSeconds: float64(steps) / 100, Target: &target}
	b, _ := json.Marshal(m)
	write(t, filepath.Join(p, rundir.MetaFile), string(b))
	var met, eps strings.Builder
	met.WriteString("env_steps,wall_s,steps_per_s,episodes,return_mean,return_std,return_min,return_max,length_mean,recent_return_mean,policy_loss,approx_kl\n")
	for s := int64(1000); s <= steps; s += 1000 {
		fmt.Fprintf(&met, "%d,%g,100,10,1,0,1,1,100,NaN,-0.01,0.002\n", s, float64(s)/100)
	}
	eps.WriteString("env_step,env_id,return,length\n")
	for i := range episodes {
		fmt.Fprintf(&eps, "%d,0,%g,100\n", (i+1)*100, ret(i))
	}
	write(t, filepath.Join(p, rundir.MetricsFile), met.String())
	write(t, filepath.Join(p, rundir.EpisodesFile), eps.String())
	return p
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func linear(i int) float64 { return float64(10 * i) }

func TestListMessyFolder(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	fakeRun(t, dir, "good", rundir.StatusFinished, 1, 1e-3, 20, linear, t0)
	crashed := fakeRun(t, dir, "crashed", rundir.StatusRunning, 2, 1e-3, 10, linear, t0.Add(time.Hour))
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{rundir.MetaFile, rundir.MetricsFile, rundir.EpisodesFile} {
		os.Chtimes(filepath.Join(crashed, f), old, old)
	}
	trunc := fakeRun(t, dir, "truncated", rundir.StatusFailed, 3, 1e-3, 10, linear, t0.Add(2*time.Hour))
	f, _ := os.OpenFile(filepath.Join(trunc, rundir.MetricsFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("11000,110,10")
	f.Close()
	f, _ = os.OpenFile(filepath.Join(trunc, rundir.EpisodesFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("1100,0,9")
	f.Close()
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	write(t, filepath.Join(dir, "notes.txt"), "not a run")
	nometa := filepath.Join(dir, "nometa")
	os.Mkdir(nometa, 0o755)
	write(t, filepath.Join(nometa, rundir.ConfigFile), "[run]\nname = 'x'\n")
	badmeta := fakeRun(t, dir, "badmeta", rundir.StatusFinished, 4, 1e-3, 3, linear, t0)
	write(t, filepath.Join(badmeta, rundir.MetaFile), "{\"status\": \"fini")
	os.Mkdir(filepath.Join(dir, "junkdir"), 0o755)
	write(t, filepath.Join(dir, "junkdir", "x.txt"), "x")
	sweep := filepath.Join(dir, "sweep1")
	fakeRun(t, sweep, "t00-s1", rundir.StatusFinished, 1, 3e-4, 5, linear, t0.Add(3*time.Hour))
	os.MkdirAll(filepath.Join(sweep, "logs"), 0o755)
	fakeRun(t, sweep, "t01-s1", rundir.StatusInterrupted, 1, 3e-4, 5, linear, t0.Add(-2*time.Hour))
	write(t, filepath.Join(sweep, "sweep.csv"), "trial,status,run_dir\nt00-s1,finished,t00-s1\nt01-s1,pruned,t01-s1\n")
	fakeRun(t, filepath.Join(dir, "sweeps", "deep"), "t01-s1", rundir.StatusFinished, 1, 3e-4, 5, linear, t0.Add(-time.Hour))

	runs, skipped, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, r := range runs {
		status[r.Name] = r.Status
	}
	want := map[string]string{"good": "finished", "crashed": StatusCrashed, "truncated": "failed",
		"nometa": StatusIncomplete, "badmeta": StatusIncomplete, "sweep1/t00-s1": "finished", "sweeps/deep/t01-s1": "finished", "sweep1/t01-s1": "pruned (sweep)"}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("run %s: status %q, want %q (all: %v)", k, status[k], v, status)
		}
	}
	if len(runs) != len(want) {
		t.Errorf("%d runs listed, want %d: %v", len(runs), len(want), status)
	}
	// Newest first by meta.json start time (runs without one sort by folder time).
	var order []string
	for _, r := range runs {
		if r.Meta != nil {
			order = append(order, r.Name)
		}
	}
	if got := strings.Join(order, " "); got != "sweep1/t00-s1 truncated crashed good sweeps/deep/t01-s1 sweep1/t01-s1" {
		t.Errorf("order %s, want newest first", got)
	}
	reasons := map[string]string{}
	for _, s := range skipped {
		reasons[filepath.Base(s.Path)] = s.Reason
	}
	if !strings.Contains(reasons["empty"], "empty") || !strings.Contains(reasons["notes.txt"], "file") || !strings.Contains(reasons["junkdir"], "not a run") {
		t.Errorf("skipped = %v", reasons)
	}

	var tr *Run
	for _, r := range runs {
		if r.Name == "truncated" {
			tr = r
		}
	}
	if len(tr.Metrics.Rows) != 1 || len(tr.Episodes) != 10 {
		t.Errorf("truncated run: %d metrics rows, %d episodes; want the complete ones (1, 10)", len(tr.Metrics.Rows), len(tr.Episodes))
	}
	if !strings.Contains(strings.Join(tr.Problems, ";"), "cut off") {
		t.Errorf("truncated run problems %v do not mention the cut-off line", tr.Problems)
	}

	var out bytes.Buffer
	if err := WriteList(&out, runs, skipped); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"crashed?", "incomplete", "failed", "not a run: ", "empty directory", "good", "170 +- 14.14 (5)"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("list output lacks %q:\n%s", s, out.String())
		}
	}
}

func TestListMissingFolderIsAnError(t *testing.T) {
	if _, _, err := List(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("listing a missing folder succeeded")
	}
}

func TestLoadRejectsNonRuns(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil {
		t.Error("an empty directory loaded as a run")
	}
	f := filepath.Join(dir, "f")
	write(t, f, "x")
	if _, err := Load(f); err == nil {
		t.Error("a file loaded as a run")
	}
}

func TestStatistics(t *testing.T) {
	dir := t.TempDir()
	p := fakeRun(t, dir, "r", rundir.StatusFinished, 1, 1e-3, 20, linear, time.Now())
	r, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Recent != 5 {
		t.Fatalf("Recent = %d, want 5 from run.recent_episodes", r.Recent)
	}
	// Last 5 returns: 150..190 -> mean 170, population std sqrt(200).
	if m, s, n := r.FinalReturn(0); m != 170 || math.Abs(s-math.Sqrt(200)) > 1e-12 || n != 5 {
		t.Errorf("FinalReturn = %v %v %d", m, s, n)
	}
	// Episodes ending at or before step 1000: returns 0..90, the last 5 are 50..90.
	if m, n := r.ReturnAt(1000, 5); m != 70 || n != 5 {
		t.Errorf("ReturnAt(1000) = %v, %d", m, n)
	}
	if w := r.WallAt(1500); w != 15 {
		t.Errorf("WallAt(1500) = %v, want 15", w)
	}
	// The moving mean of 5 first reaches 100 at episode index 12 (returns 80..120).
	got := r.TimeTo([]float64{100, 1e9})
	if !got[0].OK || got[0].Step != 1300 || got[0].Wall != 13 || got[1].OK {
		t.Errorf("TimeTo = %+v", got)
	}
	var out bytes.Buffer
	WriteShow(&out, r, nil)
	for _, s := range []string{"[ppo] learning_rate=0.001", "policy_loss (last)", "time to threshold"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("show output lacks %q:\n%s", s, out.String())
		}
	}
	// This run's metrics.csv predates the cpu_pct column: the line says it is unknown.
	if !regexp.MustCompile(`(?m)^\s*CPU % of one core \(last interval\)\s+-$`).MatchString(out.String()) {
		t.Errorf("show output lacks an unknown CPU line:\n%s", out.String())
	}
}

func TestCompareAndPlot(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	a1 := fakeRun(t, dir, "a1", rundir.StatusFinished, 1, 1e-3, 20, linear, now)
	a2 := fakeRun(t, dir, "a2", rundir.StatusFinished, 2, 1e-3, 20, func(i int) float64 { return float64(10*i) + 20 }, now)
	b1 := fakeRun(t, dir, "b1", rundir.StatusFinished, 1, 3e-4, 20, func(i int) float64 { return float64(i) }, now)
	var rs []*Run
	for _, p := range []string{a1, a2, b1} {
		r, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	groups := GroupBySeed(rs)
	if len(groups) != 2 || len(groups[0].Runs) != 2 || !strings.Contains(groups[0].Label, "learning_rate=0.001") {
		t.Fatalf("groups = %+v", groups)
	}
	b := GroupBand(groups[0], AxisSteps, 11)
	// At the end (step 2000) the two seeds' moving means are 170 and 190.
	last := len(b.X) - 1
	if b.X[last] != 2000 || b.Mean[last] != 180 || b.Hi[last] != 190 || b.Lo[last] != 170 {
		t.Errorf("band end = x %v mean %v [%v, %v]", b.X[last], b.Mean[last], b.Lo[last], b.Hi[last])
	}
	for _, axis := range []Axis{AxisSteps, AxisTime} {
		var png1 bytes.Buffer
		if err := WritePlot(&png1, rs, axis); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&png1)
		if err != nil || img.Bounds().Dx() < 400 {
			t.Fatalf("plot is not a usable PNG: %v", err)
		}
	}
	var out bytes.Buffer
	WriteCompare(&out, rs[0], rs[2])
	for _, s := range []string{"ppo.learning_rate", "0.001", "0.0003", "run.seed", "time to 100"} {
		if s == "run.seed" {
			if strings.Contains(out.String(), s) {
				t.Errorf("compare shows run.seed, which is equal:\n%s", out.String())
			}
			continue
		}
		if !strings.Contains(out.String(), s) {
			t.Errorf("compare output lacks %q:\n%s", s, out.String())
		}
	}
}
