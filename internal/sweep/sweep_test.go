package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/rundir"

	"github.com/rlpool/rlpool/agent/ppo"
)

// The tests run trials as real child processes: the test binary re-executed as a fake
// `train` (RLPOOL_FAKE_TRAIN=1) that writes a run directory in the real layout. Its
// episode returns are learning_rate x 1e5, one episode per 100 env steps, a metrics
// row every 1000 steps. It appends "<run name> new|resume" to $RLPOOL_FAKE_LOG when it
// starts. RLPOOL_FAKE_BLOCK names a trial that, after its first metrics row, waits for
// SIGINT; RLPOOL_FAKE_WAIT_BELOW makes trials whose return is below it wait there for
// a signal (up to 30 s) so that pruning can catch them.
func TestMain(m *testing.M) {
	if os.Getenv("RLPOOL_FAKE_TRAIN") == "1" {
		os.Exit(fakeTrain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeTrain(args []string) int {
	sets := map[string]string{}
	resume := ""
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "-set":
			k, v, _ := strings.Cut(args[i+1], "=")
			sets[k] = v
		case "-resume":
			resume = args[i+1]
		}
	}
	var dir *rundir.Dir
	var err error
	mode := "new"
	if resume != "" {
		mode = "resume"
		dir = &rundir.Dir{Path: resume}
		b, _ := os.ReadFile(filepath.Join(resume, "fake-sets.json"))
		json.Unmarshal(b, &sets)
	} else {
		seed, _ := strconv.ParseInt(sets["run.seed"], 10, 64)
		dir, err = rundir.Create(sets["run.dir"], sets["run.name"], seed, time.Now())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		b, _ := json.Marshal(sets)
		os.WriteFile(dir.File("fake-sets.json"), b, 0o644)
		os.WriteFile(dir.File(rundir.ConfigFile), []byte(fmt.Sprintf("[run]\nname = %q\nrecent_episodes = 5\n\n[ppo]\nlearning_rate = %s\n", sets["run.name"], sets["ppo.learning_rate"])), 0o644)
		os.WriteFile(dir.File(rundir.MetricsFile), []byte("env_steps,wall_s\n"), 0o644)
		os.WriteFile(dir.File(rundir.EpisodesFile), []byte("env_step,env_id,return,length\n"), 0o644)
	}
	name := sets["run.name"]
	if f, err := os.OpenFile(os.Getenv("RLPOOL_FAKE_LOG"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintf(f, "%s %s\n", name, mode)
		f.Close()
	}
	lr, _ := strconv.ParseFloat(sets["ppo.learning_rate"], 64)
	ret := lr * 1e5
	if lr == 0.5 {
		fmt.Fprintln(os.Stderr, "fake train: learning rate 0.5 fails")
		return 1
	}
	total, _ := strconv.ParseInt(sets["run.total_steps"], 10, 64)
	meta := rundir.NewMeta("none", time.Now())
	meta.Task, meta.Algo = "Fake-v0", "ppo"
	dir.WriteMeta(meta)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	start := int64(0)
	if b, err := os.ReadFile(dir.Checkpoint(rundir.LatestCheckpoint)); err == nil {
		start, _ = strconv.ParseInt(string(b), 10, 64)
	}
	appendTo := func(file, s string) {
		f, _ := os.OpenFile(dir.File(file), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(s)
		f.Close()
	}
	interrupted := func(step int64) int {
		os.WriteFile(dir.Checkpoint(rundir.LatestCheckpoint), []byte(strconv.FormatInt(step, 10)), 0o644)
		meta.Status, meta.EnvSteps = rundir.StatusInterrupted, step
		dir.WriteMeta(meta)
		return 130
	}
	waitBelow, _ := strconv.ParseFloat(os.Getenv("RLPOOL_FAKE_WAIT_BELOW"), 64)
	for step := start + 1000; step <= total; step += 1000 {
		var eps strings.Builder
		for e := step - 900; e <= step; e += 100 {
			fmt.Fprintf(&eps, "%d,0,%g,100\n", e, ret)
		}
		appendTo(rundir.EpisodesFile, eps.String())
		appendTo(rundir.MetricsFile, fmt.Sprintf("%d,%g\n", step, float64(step)/1e4))
		block := name == os.Getenv("RLPOOL_FAKE_BLOCK") || ret < waitBelow
		if block {
			select {
			case <-sig:
				return interrupted(step)
			case <-time.After(30 * time.Second):
			}
		}
		select {
		case <-sig:
			return interrupted(step)
		default:
		}
	}
	end := time.Now()
	meta.Status, meta.EndTime, meta.EnvSteps = rundir.StatusFinished, &end, total
	dir.WriteMeta(meta)
	return 0
}

// writeSweep writes a base config and a sweep file into dir and loads the sweep.
func writeSweep(t *testing.T, dir, extra string) *Spec {
	t.Helper()
	base := filepath.Join(dir, "base.toml")
	if err := os.WriteFile(base, []byte("[run]\nname = \"base\"\ntotal_steps = 1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf(`[sweep]
name = "s"
base = "base.toml"
dir = %q
method = "grid"
seeds = [1]
parallel = 1
budget_steps = 3000
metric_episodes = 5
%s
[params]
"ppo.learning_rate" = [1e-4, 3e-4, 1e-3, 3e-3]
`, filepath.Join(dir, "sweeps"), extra)
	p := filepath.Join(dir, "sweep.toml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func fakeOptions(t *testing.T, dir string, env ...string) Options {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Exe: exe, CPUs: 2, Poll: 10 * time.Millisecond, Local: LocalExecutor{Grace: 30 * time.Second},
		Env: append([]string{"RLPOOL_FAKE_TRAIN=1", "RLPOOL_FAKE_LOG=" + filepath.Join(dir, "invocations.log")}, env...)}
}

func invocations(t *testing.T, dir string) []string {
	b, _ := os.ReadFile(filepath.Join(dir, "invocations.log"))
	return strings.Fields(strings.ReplaceAll(string(b), "\n", " | "))
}

func TestInterruptedSweepResumes(t *testing.T) {
	dir := t.TempDir()
	s := writeSweep(t, dir, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := fakeOptions(t, dir, "RLPOOL_FAKE_BLOCK=t02-s1")
	// Cancel (as Ctrl-C would) once the third trial has started and logged a row.
	go func() {
		for ctx.Err() == nil {
			if strings.Contains(strings.Join(invocations(t, dir), " "), "t02-s1") {
				if m, _ := filepath.Glob(filepath.Join(s.Folder(), "t02-s1-*", rundir.MetricsFile)); len(m) > 0 {
					if b, _ := os.ReadFile(m[0]); strings.Count(string(b), "\n") >= 2 {
						cancel()
						return
					}
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	recs, err := Run(ctx, s, opts)
	if err != context.Canceled {
		t.Fatalf("interrupted sweep returned %v, want context.Canceled", err)
	}
	if len(recs) != 2 || recs[0].Trial != "t00-s1" || recs[1].Trial != "t01-s1" {
		t.Fatalf("after the interrupt: %+v, want t00 and t01 done", recs)
	}
	// A crash mid-write leaves a partial line: it must be ignored.
	f, _ := os.OpenFile(filepath.Join(s.Folder(), ResultFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("t02-s1,2,1,0.001,10")
	f.Close()

	var out strings.Builder
	opts = fakeOptions(t, dir)
	opts.Stdout = &out
	recs, err = Run(context.Background(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(invocations(t, dir), " ")
	want := "t00-s1 new | t01-s1 new | t02-s1 new | t02-s1 resume | t03-s1 new |"
	if got != want {
		t.Errorf("invocations:\n%s\nwant\n%s", got, want)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	for i, r := range recs {
		wantRet := []float64{10, 30, 100, 300}[i]
		if r.Status != StatusFinished || math.Abs(r.Metric-wantRet) > 1e-9 || r.EnvSteps != 3000 || r.Episodes != 5 {
			t.Errorf("record %d = %+v, want finished with metric %v over 5 episodes at 3000 steps", i, r, wantRet)
		}
	}
	if !strings.Contains(out.String(), "resuming: 2 of 4 trials already done, 2 to run") {
		t.Errorf("output lacks the resume line:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "1     t03     0.003") {
		t.Errorf("summary does not rank t03 first:\n%s", out.String())
	}
	cfg, err := config.Load(filepath.Join(s.Folder(), BestFile), nil)
	if err != nil {
		t.Fatalf("best.toml is not a loadable config: %v", err)
	}
	if lr := cfg.Section().(*ppo.Config).LearningRate; lr != 3e-3 || cfg.Run.TotalSteps != 1000 {
		t.Errorf("best config: learning_rate %v total_steps %d, want 0.003 and the base's 1000", lr, cfg.Run.TotalSteps)
	}
	// A third run has nothing left to do.
	before := len(invocations(t, dir))
	if _, err := Run(context.Background(), s, fakeOptions(t, dir)); err != nil {
		t.Fatal(err)
	}
	if after := len(invocations(t, dir)); after != before {
		t.Errorf("a finished sweep ran %d more trial(s)", (after-before)/3)
	}
}

func TestMedianPruning(t *testing.T) {
	dir := t.TempDir()
	// Best trials first, so the worse ones meet a median at the checkpoint.
	s := writeSweep(t, dir, "[sweep.prune]\ncheckpoints = [1000]\nmin_trials = 2\n")
	s.Params[0].Values = []any{3e-3, 1e-3, 1e-4, 2e-3}
	recs, err := Run(context.Background(), s, fakeOptions(t, dir, "RLPOOL_FAKE_WAIT_BELOW=50"))
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, r := range recs {
		status[r.Trial] = r.Status
	}
	// t02 (return 10) is below the median of 300 and 100 at step 1000; t03 (200) is
	// not below the median of 300, 100 and 10 (100).
	want := map[string]string{"t00-s1": StatusFinished, "t01-s1": StatusFinished, "t02-s1": StatusPruned, "t03-s1": StatusFinished}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("%s: %s, want %s", k, status[k], v)
		}
	}
	best, ok := Best(s, recs)
	if !ok || best.Config != 0 {
		t.Errorf("best = %+v", best)
	}
}

func TestShouldPrune(t *testing.T) {
	for _, c := range []struct {
		v      float64
		others []float64
		min    int
		want   bool
	}{
		{1, []float64{2, 3}, 3, false}, // too few to judge
		{1, []float64{2, 3, 4}, 3, true},
		{3, []float64{2, 3, 4}, 3, false}, // at the median: kept
		{2.4, []float64{1, 2, 3, 4}, 3, true},
		{2.5, []float64{1, 2, 3, 4}, 3, false},
		{math.NaN(), []float64{1, 2, 3}, 1, false},
	} {
		if got := ShouldPrune(c.v, c.others, c.min); got != c.want {
			t.Errorf("ShouldPrune(%v, %v, %d) = %v", c.v, c.others, c.min, got)
		}
	}
}

func TestPlan(t *testing.T) {
	raw := map[string]any{
		"sweep": map[string]any{"name": "x", "base": "b.toml", "method": "random", "trials": int64(50), "seeds": []any{int64(1), int64(2)}},
		"params": map[string]any{
			"ppo.learning_rate": map[string]any{"dist": "log_uniform", "low": 1e-4, "high": 1e-2},
			"ppo.clip_coef":     map[string]any{"dist": "uniform", "low": 0.1, "high": 0.3},
			"ppo.update_epochs": map[string]any{"dist": "int", "low": int64(4), "high": int64(6)},
			"net.activation":    map[string]any{"dist": "choice", "values": []any{"tanh", "relu"}},
			"ppo.num_steps":     []any{int64(16), int64(32)},
		},
		"set": map[string]any{"run.log_interval": int64(500)},
	}
	s, err := parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	plan := s.Plan()
	if len(plan) != 100 || plan[0].ID != "t00-s1" || plan[1].ID != "t00-s2" || plan[99].ID != "t49-s2" {
		t.Fatalf("plan of %d trials, first %s %s, last %s", len(plan), plan[0].ID, plan[1].ID, plan[len(plan)-1].ID)
	}
	// Params are sorted: net.activation, ppo.clip_coef, ppo.learning_rate, ppo.num_steps, ppo.update_epochs.
	seen := map[string]bool{}
	for _, tr := range plan {
		a, clip, lr, ns, ep := tr.Values[0].(string), tr.Values[1].(float64), tr.Values[2].(float64), tr.Values[3].(int64), tr.Values[4].(int64)
		if clip < 0.1 || clip > 0.3 || lr < 1e-4 || lr > 1e-2 || (ns != 16 && ns != 32) || ep < 4 || ep > 6 {
			t.Fatalf("trial %s values %v out of their space", tr.ID, tr.Values)
		}
		seen[a] = true
		seen[fmt.Sprint(ep)] = true
	}
	if !seen["tanh"] || !seen["relu"] || !seen["4"] || !seen["6"] {
		t.Errorf("50 draws never hit some choices: %v", seen)
	}
	again := s.Plan()
	for i := range plan {
		if fmt.Sprint(plan[i].Values) != fmt.Sprint(again[i].Values) {
			t.Fatal("the plan is not reproducible")
		}
	}
	if got := plan[0].Overrides(s.Params); !strings.HasPrefix(got[2], "ppo.learning_rate=") || len(s.Set) != 1 || s.Set[0] != "run.log_interval=500" {
		t.Errorf("overrides %v, set %v", got, s.Set)
	}

	grid, err := parse(map[string]any{
		"sweep":  map[string]any{"name": "g", "base": "b.toml", "method": "grid", "seeds": []any{int64(7)}},
		"params": map[string]any{"a.x": []any{int64(1), int64(2)}, "a.y": []any{"p", "q", "r"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	gp := grid.Plan()
	if len(gp) != 6 || fmt.Sprint(gp[5].Values) != "[2 r]" || gp[5].ID != "t05-s7" {
		t.Errorf("grid plan: %d trials, last %v %s", len(gp), gp[len(gp)-1].Values, gp[len(gp)-1].ID)
	}
}

func TestSpecErrors(t *testing.T) {
	for _, c := range []struct {
		raw  map[string]any
		want string
	}{
		{map[string]any{}, "no [sweep] table"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b"}}, "[params] is empty"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "method": "grid"},
			"params": map[string]any{"ppo.lr": map[string]any{"dist": "uniform", "low": 0.1, "high": 1.0}}}, "grid search takes lists"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b"},
			"params": map[string]any{"ppo.lr": map[string]any{"dist": "log_uniform", "low": 0.0, "high": 1.0}}}, "low > 0"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "parallel": int64(0)},
			"params": map[string]any{"ppo.lr": []any{1.0}}}, "sweep.parallel"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "budget": int64(5)},
			"params": map[string]any{"ppo.lr": []any{1.0}}}, "unknown key sweep.budget"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "prune": map[string]any{"min_trials": int64(2)}},
			"params": map[string]any{"ppo.lr": []any{1.0}}}, "checkpoints is missing"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "paralel": int64(2)},
			"params": map[string]any{"ppo.lr": []any{1.0}}}, "did you mean sweep.parallel?"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "seeds": []any{int64(1), int64(1)}},
			"params": map[string]any{"ppo.lr": []any{1.0}}}, "sweep.seeds: 1 is listed twice"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "trials": "many"},
			"params": map[string]any{"ppo.lr": []any{1.0}}}, `sweep.trials = "many": want an integer`},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "method": "bayes"},
			"params": map[string]any{"ppo.lr": []any{1.0}}}, `sweep.method = "bayes": use one of grid, random`},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b"}, "prams": map[string]any{}}, "unknown key prams: a sweep file takes: sweep, params, set (did you mean params?)"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b"},
			"params": map[string]any{"ppo.lr": map[string]any{"dist": "uniform", "low": 0.1, "hgh": 1.0}}}, "unknown key params.ppo.lr.hgh: a distribution takes: dist, low, high, values (did you mean params.ppo.lr.high?)"},
		{map[string]any{"sweep": map[string]any{"name": "x", "base": "b", "slurm": map[string]any{"partiton": "cpu"}},
			"params": map[string]any{"ppo.lr": []any{1.0}}}, "did you mean sweep.slurm.partition?"},
	} {
		_, err := parse(c.raw)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parse(%v) = %v, want an error containing %q", c.raw, err, c.want)
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.toml")); err == nil {
		t.Error("loading a missing sweep file succeeded")
	}
}

func TestChangedSweepFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := writeSweep(t, dir, "")
	if _, err := Run(context.Background(), s, fakeOptions(t, dir)); err != nil {
		t.Fatal(err)
	}
	s.Source = append(s.Source, []byte("# changed\n")...)
	if _, err := Run(context.Background(), s, fakeOptions(t, dir)); err == nil || !strings.Contains(err.Error(), "different sweep file") {
		t.Fatalf("a changed sweep file was accepted: %v", err)
	}
}

// TestExampleSweepFiles loads every sweep in configs/sweeps and checks that each
// planned trial's overrides make a valid run config.
func TestExampleSweepFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "configs", "sweeps", "*.toml"))
	if len(files) == 0 {
		t.Fatal("no example sweep files in configs/sweeps")
	}
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, tr := range s.Plan() {
			sets := append(append([]string(nil), s.Set...), tr.Overrides(s.Params)...)
			if _, err := config.Load(s.Base, sets); err != nil {
				t.Errorf("%s trial %s: %v", f, tr.ID, err)
				break
			}
		}
	}
}

func TestTimeoutAndFailedTrials(t *testing.T) {
	dir := t.TempDir()
	s := writeSweep(t, dir, "budget_seconds = 5\n")
	s.Params[0].Values = []any{1e-3, 0.5, 3e-3}
	var out strings.Builder
	opts := fakeOptions(t, dir, "RLPOOL_FAKE_BLOCK=t02-s1")
	opts.Stdout = &out
	recs, err := Run(context.Background(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]Record{}
	for _, r := range recs {
		status[r.Trial] = r
	}
	if r := status["t00-s1"]; r.Status != StatusFinished || r.Metric != 100 {
		t.Errorf("t00: %+v", r)
	}
	if r := status["t01-s1"]; r.Status != StatusFailed || !math.IsNaN(r.Metric) {
		t.Errorf("t01 (fails at start): %+v", r)
	}
	// t02 blocks after 1000 steps until the 5 s budget interrupts it.
	if r := status["t02-s1"]; r.Status != StatusTimeout || r.Metric != 300 || r.EnvSteps != 1000 {
		t.Errorf("t02 (over budget): %+v", r)
	}
	if !strings.Contains(out.String(), "see ") || !strings.Contains(out.String(), "t01-s1.log") {
		t.Errorf("the failed trial's line does not point at its log:\n%s", out.String())
	}
	log, _ := os.ReadFile(filepath.Join(s.Folder(), LogsDir, "t01-s1.log"))
	if !strings.Contains(string(log), "learning rate 0.5 fails") {
		t.Errorf("log of the failed trial: %q", log)
	}
	best, ok := Best(s, recs)
	if !ok || best.Config != 2 {
		t.Errorf("best = %+v: a timed-out trial still ran to its budget", best)
	}
	// Resuming runs nothing; with RetryFailed the failed trial runs (and fails) again.
	n := len(invocations(t, dir))
	if _, err := Run(context.Background(), s, fakeOptions(t, dir)); err != nil || len(invocations(t, dir)) != n {
		t.Errorf("a resumed sweep reran trials (%v)", err)
	}
	opts = fakeOptions(t, dir)
	opts.RetryFailed = true
	again, err := Run(context.Background(), s, opts)
	if err != nil || len(invocations(t, dir)) != n+3 || len(again) != 3 { // 3 tokens per invocation line
		t.Errorf("RetryFailed: %d trials rerun, %d records (%v)", (len(invocations(t, dir))-n)/3, len(again), err)
	}
	// The child got the sweep's overrides, its share of the cores for GOMAXPROCS and
	// for the pool (the base config leaves env.num_threads at 0).
	b, _ := os.ReadFile(filepath.Join(s.Folder(), status["t00-s1"].RunDir, "fake-sets.json"))
	var sets map[string]string
	json.Unmarshal(b, &sets)
	if sets["run.threads"] != "2" || sets["env.num_threads"] != "2" || sets["run.total_steps"] != "3000" || sets["ppo.learning_rate"] != "0.001" {
		t.Errorf("trial overrides %v", sets)
	}
}

func TestFinishedRunWithoutRowIsRecorded(t *testing.T) {
	dir := t.TempDir()
	s := writeSweep(t, dir, "")
	if _, err := Run(context.Background(), s, fakeOptions(t, dir)); err != nil {
		t.Fatal(err)
	}
	// Lose sweep.csv's last two rows, as if the sweep died before writing them.
	p := filepath.Join(s.Folder(), ResultFile)
	b, _ := os.ReadFile(p)
	lines := strings.SplitAfter(string(b), "\n")
	os.WriteFile(p, []byte(strings.Join(lines[:3], "")), 0o644)
	before := len(invocations(t, dir))
	recs, err := Run(context.Background(), s, fakeOptions(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || len(invocations(t, dir)) != before {
		t.Errorf("%d records; %d trials rerun", len(recs), len(invocations(t, dir))-before)
	}
}
