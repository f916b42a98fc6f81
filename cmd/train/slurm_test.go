package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlpool/rlpool/internal/inspect"
	"github.com/rlpool/rlpool/internal/rundir"
	"github.com/rlpool/rlpool/internal/slurm"
	"github.com/rlpool/rlpool/internal/sweep"
	"github.com/rlpool/rlpool/internal/trainer"
)

// The tests in this file submit to a real Slurm cluster: `make test` brings up a
// one-machine cluster with scripts/slurm-local.sh, runs them with RLPOOL_SLURM_TESTS=1
// and SLURM_CONF set, and stops it. The trials are this test binary standing in for
// train (RLPOOL_TRAIN_MAIN=1, passed to the jobs with the environment).

// needSlurm skips a test unless a cluster was set up for the tests.
func needSlurm(t *testing.T) *slurm.Client {
	t.Helper()
	if os.Getenv("RLPOOL_SLURM_TESTS") != "1" {
		t.Skip("no Slurm cluster for the tests: `make test` starts one with scripts/slurm-local.sh and sets RLPOOL_SLURM_TESTS=1")
	}
	cl := &slurm.Client{}
	if err := cl.Check(); err != nil {
		t.Fatalf("RLPOOL_SLURM_TESTS=1 but %v", err)
	}
	if out, err := exec.Command("scontrol", "ping").CombinedOutput(); err != nil || !strings.Contains(string(out), "UP") {
		t.Fatalf("RLPOOL_SLURM_TESTS=1 but slurmctld does not answer: %v %s (scripts/slurm-local.sh status)", err, out)
	}
	t.Setenv("RLPOOL_TRAIN_MAIN", "1")
	return cl
}

// writeCartPoleSweep writes a small CartPole sweep into dir and loads it: random search
// over the learning rate and clip, tiny networks, `extra` added to [sweep],
// `slurmTable` as [sweep.slurm], and the trials' run.checkpoint_interval.
func writeCartPoleSweep(t *testing.T, dir, name, extra, slurmTable string, checkpointInterval int) (string, *sweep.Spec) {
	t.Helper()
	base, err := filepath.Abs("../../configs/cartpole.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".toml")
	src := fmt.Sprintf(`[sweep]
name = %q
base = %q
dir = %q
method = "random"
sample_seed = 7
%s

[sweep.slurm]
cpus_per_task = 1
%s

[params]
"ppo.learning_rate" = { dist = "log_uniform", low = 1e-4, high = 3e-3 }
"ppo.clip_coef" = { dist = "uniform", low = 0.1, high = 0.3 }

[set]
"run.log_interval" = 256
"run.checkpoint_interval" = %d
"net.hidden" = [16, 16]
"ppo.update_epochs" = 4
`, name, base, dir, extra, slurmTable, checkpointInterval)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := sweep.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, s
}

func testSweepOptions(t *testing.T, cl *slurm.Client) sweep.Options {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return sweep.Options{Exe: exe, CPUs: 1, Poll: 100 * time.Millisecond, Local: sweep.LocalExecutor{Grace: time.Minute},
		Slurm: sweep.SlurmExecutor{Client: cl, Prepare: trainer.Prepare, OutputWait: time.Minute}}
}

func loadResults(t *testing.T, specPath string) (*sweep.Spec, []sweep.Record) {
	t.Helper()
	s, err := sweep.Load(specPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := sweep.ReadResults(filepath.Join(s.Folder(), sweep.ResultFile), s)
	if err != nil {
		t.Fatal(err)
	}
	return s, recs
}

// TestSlurmSweepMatchesLocal runs one random-search sweep (4 configurations x 2
// seeds, median pruning) through the local executor and through Slurm: the same
// trials, and the same results, pruned trials included (their standing at the
// checkpoint that pruned them), those stopped through scancel --signal=INT.
func TestSlurmSweepMatchesLocal(t *testing.T) {
	cl := needSlurm(t)
	dir := t.TempDir()
	common := "trials = 4\nseeds = [1, 2]\nparallel = 1\nbudget_steps = 12288\nmetric_episodes = 10\n\n[sweep.prune]\ncheckpoints = [1024, 2048]\nmin_trials = 2\n"
	var results [2][]sweep.Record
	var specs [2]*sweep.Spec
	for i, ex := range []string{"local", "slurm"} {
		p, s := writeCartPoleSweep(t, filepath.Join(dir, ex), "match", "executor = \""+ex+"\"\n"+common, "", 0)
		var out bytes.Buffer
		opts := testSweepOptions(t, cl)
		opts.Stdout = &out
		if _, err := sweep.Run(context.Background(), s, opts); err != nil {
			t.Fatalf("%s sweep: %v\n%s", ex, err, out.String())
		}
		specs[i], results[i] = loadResults(t, p)
		t.Logf("%s:\n%s", ex, out.String())
	}
	local, onSlurm := results[0], results[1]
	if len(local) != 8 || len(onSlurm) != 8 {
		t.Fatalf("%d local and %d Slurm trials recorded, want 8 each", len(local), len(onSlurm))
	}
	pruned := map[string]bool{}
	for i := range local {
		a, b := local[i], onSlurm[i]
		same := a.Trial == b.Trial && strings.Join(a.Values, ",") == strings.Join(b.Values, ",") && a.Status == b.Status &&
			fmt.Sprint(a.Metric) == fmt.Sprint(b.Metric) && a.Episodes == b.Episodes && a.EnvSteps == b.EnvSteps
		if !same {
			t.Errorf("trial %d differs:\nlocal %+v\nslurm %+v", i, a, b)
		}
		if b.Status == sweep.StatusPruned {
			pruned[b.Trial] = true
		}
		if b.Status == sweep.StatusFinished && b.State != "COMPLETED" {
			t.Errorf("finished Slurm trial %s has state %q, want COMPLETED", b.Trial, b.State)
		}
	}
	if len(pruned) == 0 {
		t.Fatal("no trial was pruned: the test no longer covers pruning through Slurm")
	}
	// Every pruned trial got its INT from scancel: a stop in the job log, and its
	// train checkpointed and marked the run interrupted.
	evs, err := sweep.ReadJobLog(specs[1].Folder())
	if err != nil {
		t.Fatal(err)
	}
	stopped := map[string]bool{}
	for _, e := range evs {
		if e.Event == "stop" && e.Reason == sweep.StatusPruned {
			stopped[e.Trial] = true
		}
	}
	if fmt.Sprint(keys(stopped)) != fmt.Sprint(keys(pruned)) {
		t.Errorf("trials stopped through scancel %v, pruned %v", keys(stopped), keys(pruned))
	}
	for _, r := range onSlurm {
		if !pruned[r.Trial] {
			continue
		}
		meta, err := (&rundir.Dir{Path: filepath.Join(specs[1].Folder(), r.RunDir)}).ReadMeta()
		if err != nil || meta.Status != rundir.StatusInterrupted {
			t.Errorf("pruned trial %s: run status %v (%v), want interrupted", r.Trial, meta, err)
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestSlurmControllerKilledAndResumed kills the controller with SIGKILL while its
// trials run on the cluster, resumes it from the folder, and checks that every trial
// was recorded once and no trial was submitted twice.
func TestSlurmControllerKilledAndResumed(t *testing.T) {
	needSlurm(t)
	dir := t.TempDir()
	p, _ := writeCartPoleSweep(t, dir, "killed", "executor = \"slurm\"\ntrials = 4\nseeds = [1]\nparallel = 2\nbudget_steps = 4096\nmetric_episodes = 10\n\n[sweep.prune]\ncheckpoints = [2048]\nmin_trials = 1\n", "", 0)
	exe, _ := os.Executable()
	ctl := exec.Command(exe, "sweep", "-config", p)
	var ctlOut bytes.Buffer
	ctl.Stdout, ctl.Stderr = &ctlOut, &ctlOut
	if err := ctl.Start(); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "killed")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		evs, _ := sweep.ReadJobLog(folder)
		if ids, _ := sweep.Submissions(evs); len(ids) > 0 {
			if rs, _ := filepath.Glob(filepath.Join(folder, "t*", rundir.MetricsFile)); len(rs) > 0 {
				break // submitted, and a trial is training
			}
		}
		if time.Now().After(deadline) {
			ctl.Process.Kill()
			t.Fatalf("the controller submitted nothing that ran within 2 minutes:\n%s", ctlOut.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	ctl.Process.Signal(syscall.SIGKILL)
	ctl.Wait()

	var out bytes.Buffer
	if err := sweepMain([]string{"-resume", folder}, &out); err != nil {
		t.Fatalf("resumed sweep: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "following") {
		t.Errorf("the resumed controller did not re-attach:\n%s", out.String())
	}
	_, recs := loadResults(t, p)
	seen := map[string]int{}
	for _, r := range recs {
		seen[r.Trial]++
		if r.Status != sweep.StatusFinished && r.Status != sweep.StatusPruned {
			t.Errorf("trial %s ended %s (%s)", r.Trial, r.Status, r.State)
		}
	}
	if len(seen) != 4 {
		t.Errorf("%d trials recorded, want 4: %v", len(seen), seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("trial %s recorded %d times", id, n)
		}
	}
	evs, _ := sweep.ReadJobLog(folder)
	submitted := map[string]int{}
	jobs := map[string]int{}
	for _, e := range evs {
		switch e.Event {
		case "submit":
			for _, id := range e.Trials {
				submitted[id]++
			}
		case "submitted":
			jobs[e.Job]++
		}
	}
	for id, n := range submitted {
		if n != 1 {
			t.Errorf("trial %s submitted %d times", id, n)
		}
	}
	for id, n := range jobs {
		if n != 1 {
			t.Errorf("job %s recorded %d times", id, n)
		}
	}
}

// waitFor polls cond every 100 ms until it holds or the time is up.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// runningTask returns the Slurm task of a trial once its run has written metrics.
func runningTask(folder, trial string) string {
	dirs, _ := filepath.Glob(filepath.Join(folder, trial+"-*"))
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, rundir.MetricsFile)); err != nil {
			continue
		}
		if j, _ := (&rundir.Dir{Path: d}).ReadJob(); j != nil {
			return j.ID
		}
	}
	return ""
}

// TestSlurmCancelledAndTimedOutTrials: a trial cancelled by Slurm without INT and one
// past its time limit are recorded failed (CANCELLED) and timeout (TIMEOUT), with their
// logs.
func TestSlurmCancelledAndTimedOutTrials(t *testing.T) {
	needSlurm(t)
	dir := t.TempDir()
	p, s := writeCartPoleSweep(t, dir, "limits", "executor = \"slurm\"\ntrials = 2\nseeds = [1]\nparallel = 2\nbudget_steps = 100_000_000\n", `time = "1"`, 0)
	folder := s.Folder()
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		opts := testSweepOptions(t, nil)
		opts.Stdout = &out
		_, err := sweep.Run(context.Background(), s, opts)
		done <- err
	}()
	var task string
	waitFor(t, "trial t00-s1 to train", time.Minute, func() bool { task = runningTask(folder, "t00-s1"); return task != "" })
	if out, err := exec.Command("scancel", task).CombinedOutput(); err != nil {
		t.Fatalf("scancel %s: %v %s", task, err, out)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("sweep: %v\n%s", err, out.String())
		}
	case <-time.After(4 * time.Minute):
		t.Fatalf("the sweep did not end within 4 minutes:\n%s", out.String())
	}
	_, recs := loadResults(t, p)
	want := map[string][2]string{"t00-s1": {sweep.StatusFailed, "CANCELLED"}, "t01-s1": {sweep.StatusTimeout, "TIMEOUT"}}
	for _, r := range recs {
		w := want[r.Trial]
		if r.Status != w[0] || r.State != w[1] {
			t.Errorf("trial %s: status %s, state %s; want %s, %s", r.Trial, r.Status, r.State, w[0], w[1])
		}
		if st, err := os.Stat(filepath.Join(folder, r.Log)); err != nil || st.Size() == 0 {
			t.Errorf("trial %s: log %s missing or empty: %v", r.Trial, r.Log, err)
		}
	}
	if len(recs) != 2 {
		t.Errorf("%d trials recorded, want 2\n%s", len(recs), out.String())
	}
}

// TestSlurmRequeuedTrialResumes requeues a running trial after its first checkpoint:
// it resumes from the checkpoint and ends with the results of the same trial run
// without interruption by the local executor.
func TestSlurmRequeuedTrialResumes(t *testing.T) {
	cl := needSlurm(t)
	dir := t.TempDir()
	common := "trials = 1\nseeds = [1]\nparallel = 1\nbudget_steps = 8192\nmetric_episodes = 10\n"
	var eps [2]string
	for i, ex := range []string{"local", "slurm"} {
		p, s := writeCartPoleSweep(t, filepath.Join(dir, ex), "requeue", "executor = \""+ex+"\"\n"+common, "", 1024)
		var out bytes.Buffer
		opts := testSweepOptions(t, cl)
		opts.Stdout = &out
		done := make(chan error, 1)
		go func() { _, err := sweep.Run(context.Background(), s, opts); done <- err }()
		if ex == "slurm" {
			var task string
			waitFor(t, "a checkpoint", time.Minute, func() bool {
				task = runningTask(s.Folder(), "t00-s1")
				ck, _ := filepath.Glob(filepath.Join(s.Folder(), "t00-s1-*", rundir.CheckpointsDir, rundir.LatestCheckpoint))
				return task != "" && len(ck) > 0
			})
			if out, err := exec.Command("scontrol", "requeue", task).CombinedOutput(); err != nil {
				t.Fatalf("scontrol requeue %s: %v %s", task, err, out)
			}
			requeued := time.Now()
			// Slurm holds a requeued job for two minutes (BeginTime); let it start now.
			waitFor(t, "the requeued task to wait for its begin time", time.Minute, func() bool {
				q, err := cl.Queue([]string{strings.Split(task, "_")[0]})
				return err == nil && q[task].State == "PENDING" && q[task].Reason == "BeginTime"
			})
			// Start it again only once the first train has written its checkpoint and
			// marked the run interrupted (Slurm's two-minute hold would see to that).
			waitFor(t, "the first start to mark the run interrupted", time.Minute, func() bool {
				dirs, _ := filepath.Glob(filepath.Join(s.Folder(), "t00-s1-*"))
				if len(dirs) == 0 {
					return false
				}
				m, err := (&rundir.Dir{Path: dirs[0]}).ReadMeta()
				return err == nil && m.Status == rundir.StatusInterrupted
			})
			// And only once the first start's processes are gone: Slurm takes a batch
			// script's exit for the job's current start, so an exit that arrives after
			// the second start would end it (what Slurm's hold prevents on real clusters).
			waitFor(t, "the first start's processes to exit", time.Minute, func() bool {
				return !processRunning("slurmstepd: ["+rawJobID(t, task)+".batch]") && !processRunning(s.Folder())
			})
			// slurmd refuses to launch a job again within the second its credential was
			// revoked by the requeue ("Job credential revoked": the job ends FAILED).
			time.Sleep(time.Until(requeued.Add(2 * time.Second)))
			if out, err := exec.Command("scontrol", "update", "JobId="+task, "StartTime=now").CombinedOutput(); err != nil {
				t.Fatalf("scontrol update %s StartTime=now: %v %s", task, err, out)
			}
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s sweep: %v\n%s", ex, err, out.String())
			}
		case <-time.After(4 * time.Minute):
			t.Fatalf("the %s sweep did not end within 4 minutes:\n%s", ex, out.String())
		}
		_, recs := loadResults(t, p)
		if len(recs) != 1 || recs[0].Status != sweep.StatusFinished {
			logs, _ := filepath.Glob(filepath.Join(s.Folder(), sweep.LogsDir, "*"))
			var text strings.Builder
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				fmt.Fprintf(&text, "--- %s\n%s\n", l, b)
			}
			t.Fatalf("%s: %+v\n%s\n%s", ex, recs, out.String(), text.String())
		}
		run, err := inspect.Load(filepath.Join(s.Folder(), recs[0].RunDir))
		if err != nil {
			t.Fatal(err)
		}
		if ex == "slurm" && (run.Meta == nil || len(run.Meta.Resumes) == 0) {
			t.Errorf("the requeued trial did not resume from its checkpoint (meta %+v)", run.Meta)
		}
		eps[i] = string(mustRead(t, filepath.Join(run.Path, rundir.EpisodesFile)))
	}
	if eps[0] != eps[1] {
		t.Errorf("the requeued trial's episodes.csv differs from the uninterrupted local run's")
	}
}

// rawJobID is the job id Slurm gives an array task (its steps are named by it).
func rawJobID(t *testing.T, task string) string {
	t.Helper()
	out, err := exec.Command("scontrol", "-o", "show", "job", task).Output()
	if err != nil {
		t.Fatalf("scontrol show job %s: %v", task, err)
	}
	for _, f := range strings.Fields(string(out)) {
		if id, ok := strings.CutPrefix(f, "JobId="); ok {
			return id
		}
	}
	t.Fatalf("scontrol show job %s printed no JobId: %s", task, out)
	return ""
}

// processRunning reports whether a live process's command line contains s.
func processRunning(s string) bool {
	cmds, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, c := range cmds {
		b, err := os.ReadFile(c)
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s) {
			return true
		}
	}
	return false
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSlurmSubmit submits one run with train submit, sees its Slurm state in train
// runs list, and waits for it to finish.
func TestSlurmSubmit(t *testing.T) {
	cl := needSlurm(t)
	dir := t.TempDir()
	var out bytes.Buffer
	err := submitMain([]string{"-config", "../../configs/cartpole.toml", "-set", "run.dir=" + dir, "-set", "run.total_steps=2048",
		"-set", "net.hidden=16,16", "-cpus-per-task", "1", "-time", "10"}, &out, cl)
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "submitted Slurm job ") || !strings.Contains(out.String(), dir) {
		t.Errorf("submit printed:\n%s", out.String())
	}
	out.Reset()
	if err := runsMain([]string{"list", dir}, &out); err != nil || !strings.Contains(out.String(), "slurm ") {
		t.Errorf("runs list of a submitted run shows no Slurm state: %v\n%s", err, out.String())
	}
	waitFor(t, "the submitted run to finish", 3*time.Minute, func() bool {
		rs, _, _ := inspect.List(dir)
		return len(rs) == 1 && rs[0].Status == rundir.StatusFinished
	})
	for _, bad := range [][]string{{"-partition", "nosuch"}, {"-time", "soon"}, {"-binary", "/nonexistent/train"}} {
		args := append([]string{"-config", "../../configs/cartpole.toml", "-set", "run.dir=" + dir}, bad...)
		if err := submitMain(args, &out, cl); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(bad[1], "-")) {
			t.Errorf("submit %v: %v, want an error naming %s", bad, err, bad[1])
		}
	}
	if rs, _, _ := inspect.List(dir); len(rs) != 1 {
		t.Errorf("refused submissions left %d runs, want 1", len(rs))
	}
}
