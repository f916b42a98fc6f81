package trainer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/rundir"
)

// testConfig is a short single-threaded corridor run.
func testConfig(t *testing.T, dir string, sets ...string) *config.Config {
	t.Helper()
	base := []string{
		"run.dir=" + dir, "run.name=t", "run.seed=3", "run.total_steps=2048", "run.threads=1",
		"run.log_interval=512", "run.checkpoint_interval=512", "run.recent_episodes=5",
		"env.task=" + corridorTask, "env.num_envs=4", "env.num_threads=1",
		"net.hidden=16,16", "ppo.num_steps=64", "ppo.num_minibatches=4", "ppo.update_epochs=2",
		"ppo.norm_obs=true", "ppo.norm_reward=true", "ppo.learning_rate=3e-3",
	}
	cfg, err := config.FromMap(map[string]any{}, append(base, sets...), "test")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func runOnce(t *testing.T, ctx context.Context, opts Options) *Result {
	t.Helper()
	res, err := Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// runInterrupted runs the test config in dir and interrupts it (as Ctrl-C does) after
// the first update that reaches at env steps.
func runInterrupted(t *testing.T, dir string, at int64) *Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return runOnce(t, ctx, Options{Config: testConfig(t, dir), afterIterate: func(steps int64) {
		if steps >= at {
			cancel()
		}
	}})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dropTimingColumns removes metrics.csv's timing-dependent columns (wall_s,
// steps_per_s, cpu_pct).
func dropTimingColumns(t *testing.T, path string) string {
	t.Helper()
	header, rows, err := rundir.ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	skip := map[int]bool{}
	for i, h := range header {
		if h == rundir.ColWall || h == rundir.ColStepsPerSec || h == rundir.ColCPU {
			skip[i] = true
		}
	}
	if len(skip) != 3 {
		t.Fatalf("metrics.csv header %v lacks wall_s, steps_per_s or cpu_pct", header)
	}
	var sb strings.Builder
	for _, r := range append([][]string{header}, rows...) {
		for i, v := range r {
			if !skip[i] {
				sb.WriteString(v + ",")
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// Two runs with the same seed on one thread write the same metrics (but for the
// wall-clock columns) and the same episodes.
func TestSameSeedSameMetrics(t *testing.T) {
	dir := t.TempDir()
	var dirs []string
	for range 2 {
		res := runOnce(t, context.Background(), Options{Config: testConfig(t, dir)})
		if res.Status != rundir.StatusFinished {
			t.Fatalf("status %s", res.Status)
		}
		dirs = append(dirs, res.Dir)
	}
	m0 := dropTimingColumns(t, filepath.Join(dirs[0], rundir.MetricsFile))
	m1 := dropTimingColumns(t, filepath.Join(dirs[1], rundir.MetricsFile))
	if m0 != m1 {
		t.Errorf("metrics differ:\n%s\n---\n%s", m0, m1)
	}
	if strings.Count(m0, "\n") < 5 {
		t.Errorf("metrics.csv has too few rows:\n%s", m0)
	}
	e0 := readFile(t, filepath.Join(dirs[0], rundir.EpisodesFile))
	if e0 != readFile(t, filepath.Join(dirs[1], rundir.EpisodesFile)) {
		t.Error("episodes.csv differ")
	}
	if strings.Count(e0, "\n") < 40 {
		t.Errorf("only %d episodes", strings.Count(e0, "\n"))
	}
	for _, f := range []string{rundir.ConfigFile, rundir.MetaFile, rundir.CurvesFile,
		filepath.Join(rundir.CheckpointsDir, rundir.LatestCheckpoint), filepath.Join(rundir.CheckpointsDir, rundir.BestCheckpoint)} {
		if _, err := os.Stat(filepath.Join(dirs[0], f)); err != nil {
			t.Errorf("run directory lacks %s", f)
		}
	}
	meta, err := (&rundir.Dir{Path: dirs[0]}).ReadMeta()
	if err != nil || meta.Status != rundir.StatusFinished || meta.EndTime == nil || meta.BLAS == "" || meta.EnvSteps < 2048 {
		t.Errorf("meta.json: %+v, %v", meta, err)
	}
	// A different seed gives different episodes (the comparison above is not vacuous).
	other := runOnce(t, context.Background(), Options{Config: testConfig(t, dir, "run.seed=4")})
	if readFile(t, filepath.Join(other.Dir, rundir.EpisodesFile)) == e0 {
		t.Error("seed 4 wrote the same episodes as seed 3")
	}
}

// A run interrupted part way and resumed writes the same episodes.csv (and metrics but
// for wall time) as a run that was never interrupted.
func TestInterruptAndResumeMatchesUninterrupted(t *testing.T) {
	dir := t.TempDir()
	full := runOnce(t, context.Background(), Options{Config: testConfig(t, dir)})

	cut := runInterrupted(t, dir, 1280) // between checkpoints and log rows
	if cut.Status != rundir.StatusInterrupted {
		t.Fatalf("status %s, want interrupted", cut.Status)
	}
	meta, _ := (&rundir.Dir{Path: cut.Dir}).ReadMeta()
	if meta.Status != rundir.StatusInterrupted {
		t.Errorf("meta.json status %q", meta.Status)
	}
	resumed := runOnce(t, context.Background(), Options{Resume: cut.Dir})
	if resumed.Status != rundir.StatusFinished || resumed.EnvSteps != full.EnvSteps {
		t.Fatalf("resumed run: %+v, want finished at %d", resumed, full.EnvSteps)
	}
	want := readFile(t, filepath.Join(full.Dir, rundir.EpisodesFile))
	if got := readFile(t, filepath.Join(cut.Dir, rundir.EpisodesFile)); got != want {
		t.Errorf("episodes.csv after resume differs from the uninterrupted run:\n%s\n---\n%s", got, want)
	}
	if a, b := dropTimingColumns(t, filepath.Join(full.Dir, rundir.MetricsFile)), dropTimingColumns(t, filepath.Join(cut.Dir, rundir.MetricsFile)); a != b {
		t.Errorf("metrics.csv after resume differs:\n%s\n---\n%s", b, a)
	}
	if _, err := Run(context.Background(), Options{Resume: cut.Dir}); err == nil {
		t.Error("resuming a finished run: no error")
	}
}

// A run written by a version that logged one statistic fewer (simulated by dropping
// the last column, PPO's sampling temperature, and its running sum) resumes: its old
// rows get NaN in the new column, and the first row after the resume averages only
// the updates it saw (the temperature is 1 in every update, so any other value means
// a wrong count).
func TestResumeAfterNewStatistic(t *testing.T) {
	dir := t.TempDir()
	cut := runInterrupted(t, dir, 1280) // one update into the interval of the row at 1536
	d := &rundir.Dir{Path: cut.Dir}
	header, rows, err := rundir.ReadCSV(d.File(rundir.MetricsFile))
	if err != nil || header[len(header)-1] != "temperature" {
		t.Fatalf("metrics.csv: %v, last column %q", err, header[len(header)-1])
	}
	if err := rundir.WriteAtomic(d.File(rundir.MetricsFile), func(w io.Writer) error {
		for _, r := range append([][]string{header}, rows...) {
			fmt.Fprintln(w, strings.Join(r[:len(r)-1], ","))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ck := d.Checkpoint(rundir.LatestCheckpoint)
	c, err := agent.ReadCheckpointFile(ck)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(c.Bytes["run.state"], &st); err != nil {
		t.Fatal(err)
	}
	sums := st["stat_sums"].([]any)
	if st["stat_count"].(float64) != 1 {
		t.Fatalf("checkpoint's interval holds %v updates, want 1", st["stat_count"])
	}
	st["stat_sums"] = sums[:len(sums)-1]
	if c.Bytes["run.state"], err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	if err := rundir.WriteAtomic(ck, c.Write); err != nil {
		t.Fatal(err)
	}

	resumed := runOnce(t, context.Background(), Options{Resume: cut.Dir})
	if resumed.Status != rundir.StatusFinished {
		t.Fatalf("resumed run: %+v", resumed)
	}
	header, rows, err = rundir.ReadCSV(d.File(rundir.MetricsFile))
	if err != nil || header[len(header)-1] != "temperature" {
		t.Fatalf("metrics.csv after resume: %v, header %v", err, header)
	}
	cols := rundir.NewColumns(header)
	for _, r := range rows {
		want := "1"
		steps := cols.Field(r, rundir.ColEnvSteps)
		if n, _ := strconv.ParseInt(steps, 10, 64); n <= 1024 { // written before the cut
			want = "NaN"
		}
		if got := cols.Field(r, "temperature"); got != want {
			t.Errorf("row at %s env steps: temperature %s, want %s", steps, got, want)
		}
	}
}

const childEnv = "RLPOOL_TEST_CHECKPOINT_CHILD"

// A process killed while it writes a checkpoint leaves the previous one loadable.
func TestKilledMidCheckpointKeepsPrevious(t *testing.T) {
	res := runOnce(t, context.Background(), Options{Config: testConfig(t, t.TempDir(), "run.total_steps=1024")})
	latest := filepath.Join(res.Dir, rundir.CheckpointsDir, rundir.LatestCheckpoint)
	before := readFile(t, latest)

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriteCheckpointSlowly$")
	cmd.Env = append(os.Environ(), childEnv+"="+latest)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the child has written part of the new checkpoint, then kill it.
	sc := bufio.NewScanner(out)
	ready := false
	for sc.Scan() {
		if sc.Text() == "half written" {
			ready = true
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !ready {
		t.Fatal("child never reported writing")
	}
	if readFile(t, latest) != before {
		t.Fatal("latest checkpoint changed although its writer was killed")
	}
	if _, err := agent.ReadCheckpointFile(latest); err != nil {
		t.Fatalf("previous checkpoint does not load: %v", err)
	}
	// A leftover temporary file does not confuse a resume.
	r2, err := Run(context.Background(), Options{Resume: res.Dir, Overrides: []string{"run.total_steps=2048"}})
	if err != nil || r2.Status != rundir.StatusFinished {
		t.Fatalf("resume after the kill: %+v %v", r2, err)
	}
}

// TestHelperWriteCheckpointSlowly is the child of TestKilledMidCheckpointKeepsPrevious:
// it starts replacing the checkpoint, writes half of a new one and waits to be killed.
func TestHelperWriteCheckpointSlowly(t *testing.T) {
	path := os.Getenv(childEnv)
	if path == "" {
		t.Skip("helper process for TestKilledMidCheckpointKeepsPrevious")
	}
	c := agent.NewCheckpoint("ppo", corridorTask, 1)
	c.F32["junk"] = make([]float32, 1<<20)
	var buf bytes.Buffer
	c.Write(&buf)
	rundir.WriteAtomic(path, func(w io.Writer) error {
		w.Write(buf.Bytes()[:buf.Len()/2])
		if f, ok := w.(interface{ Flush() error }); ok {
			f.Flush()
		}
		fmt.Println("half written")
		time.Sleep(time.Minute)
		return nil
	})
}

// Async mode (batch_size < num_envs, rows carry env ids) trains to the step budget,
// and with one worker thread it is repeatable too.
func TestAsyncModeRuns(t *testing.T) {
	dir := t.TempDir()
	var eps []string
	for range 2 {
		res := runOnce(t, context.Background(), Options{Config: testConfig(t, dir, "env.num_envs=8", "env.batch_size=2",
			"ppo.num_steps=32", "run.total_steps=2048")})
		if res.Status != rundir.StatusFinished || res.EnvSteps != 2048 {
			t.Fatalf("async run: %+v", res)
		}
		eps = append(eps, readFile(t, filepath.Join(res.Dir, rundir.EpisodesFile)))
	}
	if eps[0] != eps[1] {
		t.Error("two one-thread async runs with the same seed wrote different episodes")
	}
	if strings.Count(eps[0], "\n") < 20 {
		t.Errorf("async run finished only %d episodes", strings.Count(eps[0], "\n")-1)
	}
}

// Every metrics row reports the process's CPU use over its interval: a training run
// keeps at least part of a core busy and cannot use more than every core.
func TestMetricsCPUColumn(t *testing.T) {
	res := runOnce(t, context.Background(), Options{Config: testConfig(t, t.TempDir())})
	header, rows, err := rundir.ReadCSV(filepath.Join(res.Dir, rundir.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	col := rundir.NewColumns(header).Index(rundir.ColCPU)
	if col < 0 {
		t.Fatalf("metrics.csv header %v has no %s", header, rundir.ColCPU)
	}
	if len(rows) < 3 {
		t.Fatalf("%d metrics rows, want one per 512-step interval of 2048", len(rows))
	}
	limit := 100*float64(runtime.NumCPU()) + 5
	for i, r := range rows {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil || !(v > 0 && v <= limit) {
			t.Errorf("row %d: cpu_pct %q, want a percentage in (0, %g]", i, r[col], limit)
		}
	}
}

// An env that fails mid-run marks the run failed, with the reason, in meta.json.
func TestFailureIsRecorded(t *testing.T) {
	res, err := Run(context.Background(), Options{Config: testConfig(t, t.TempDir(), "env.task="+brokenTask)})
	if err == nil || !strings.Contains(err.Error(), "broken env") {
		t.Fatalf("error %v, want the env's panic", err)
	}
	meta, merr := (&rundir.Dir{Path: res.Dir}).ReadMeta()
	if merr != nil || meta.Status != rundir.StatusFailed || !strings.Contains(meta.Reason, "broken env") || meta.EndTime == nil {
		t.Errorf("meta.json: %+v %v", meta, merr)
	}
}

// A config that does not fit its task fails before a run directory is made.
func TestTaskMismatchMakesNoRunDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Run(context.Background(), Options{Config: testConfig(t, dir, "net.head=gaussian")})
	if err == nil || !strings.Contains(err.Error(), "net.head") {
		t.Fatalf("error %v, want one naming net.head", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("run directory made for a bad config: %v", entries)
	}
}

// With stop_at_target the run ends once the recent mean return reaches the target, and
// meta.json records when.
func TestStopAtTarget(t *testing.T) {
	res := runOnce(t, context.Background(), Options{Config: testConfig(t, t.TempDir(), "run.target_return=-1000", "run.stop_at_target=true")})
	if res.Status != rundir.StatusFinished || res.EnvSteps >= 2048 {
		t.Fatalf("%+v: want an early finish", res)
	}
	meta, err := (&rundir.Dir{Path: res.Dir}).ReadMeta()
	if err != nil || meta.TargetStep == nil || *meta.TargetStep != res.EnvSteps || !strings.Contains(meta.Reason, "target") {
		t.Errorf("meta.json: %+v %v", meta, err)
	}
}

// A log interval's statistics are the means over its updates, and NaN, not zero, when
// it had none.
func TestStatMeans(t *testing.T) {
	got := statMeans([]float64{3, -1.5}, 2)
	if got[0] != 1.5 || got[1] != -0.75 {
		t.Errorf("means of sums 3 and -1.5 over 2 updates: %v, want [1.5 -0.75]", got)
	}
	for _, v := range statMeans([]float64{0, 0}, 0) {
		if !math.IsNaN(v) {
			t.Errorf("an interval without updates has statistic %v, want NaN", v)
		}
	}
}
