package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/rundir"
)

// fakeSlurm puts stand-ins for Slurm's commands first on PATH: sbatch hands out job
// ids 100, 101, ... (or fails with $FAKE_SBATCH_FAIL), squeue knows no jobs but task
// 100_0 in the state written to $FAKE_DIR/state (or, asked about job ids, fails with
// $FAKE_SQUEUE_FAIL), sinfo lists the partitions debug and short, and scancel and
// scontrol log their arguments. Without withSbatch, PATH holds no Slurm commands but
// these.
func fakeSlurm(t *testing.T, withSbatch bool) string {
	t.Helper()
	bin := t.TempDir()
	cmds := map[string]string{
		"squeue": `case " $* " in *" -j "*) if [ -n "${FAKE_SQUEUE_FAIL:-}" ]; then echo "$FAKE_SQUEUE_FAIL" >&2; exit 1; fi
  if [ -s "$FAKE_DIR/state" ]; then echo "100_0|$(cat "$FAKE_DIR/state")|0:05|vm"; fi;; esac`,
		"sinfo":    `printf 'debug\nshort\n'`,
		"scancel":  `echo "scancel $*" >> "$FAKE_LOG"`,
		"scontrol": `echo "scontrol $*" >> "$FAKE_LOG"; echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1`,
	}
	if withSbatch {
		cmds["sbatch"] = `if [ -n "${FAKE_SBATCH_FAIL:-}" ]; then echo "$FAKE_SBATCH_FAIL" >&2; exit 1; fi
n=$(cat "$FAKE_DIR/next" 2>/dev/null || echo 100); echo $((n+1)) > "$FAKE_DIR/next"
echo "sbatch $*" >> "$FAKE_LOG"; echo "$n"`
	}
	for name, body := range cmds {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/bash\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := bin + string(os.PathListSeparator) + "/usr/bin:/bin"
	if !withSbatch {
		path = bin
	}
	t.Setenv("PATH", path)
	t.Setenv("FAKE_DIR", bin)
	t.Setenv("FAKE_LOG", filepath.Join(bin, "calls.log"))
	return bin
}

// prepareQueued stands in for train.Prepare: a run directory with the config and a
// queued meta.json.
func prepareQueued(cfg *config.Config, source string) (*rundir.Dir, error) {
	d, err := rundir.Create(cfg.Run.Dir, cfg.Run.Name, cfg.Run.Seed, time.Now())
	if err != nil {
		return nil, err
	}
	b, err := cfg.Encode()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(d.File(rundir.ConfigFile), b, 0o644); err != nil {
		return nil, err
	}
	m := rundir.NewMeta("", time.Now())
	m.Status = rundir.StatusQueued
	return d, d.WriteMeta(m)
}

func slurmOptions(t *testing.T) Options {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Exe: exe, Poll: 10 * time.Millisecond, Slurm: SlurmExecutor{QueueGrace: 300 * time.Millisecond, Prepare: prepareQueued}}
}

// assertIntact checks that a failed start left the sweep folder usable: the sweep
// file's copy and sweep.csv with its header.
func assertIntact(t *testing.T, s *Spec) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(s.Folder(), SpecFile)); err != nil {
		t.Errorf("sweep folder lost its %s: %v", SpecFile, err)
	}
	if _, err := ReadResults(filepath.Join(s.Folder(), ResultFile), s); err != nil {
		t.Errorf("sweep.csv unreadable: %v", err)
	}
}

func TestSlurmBadInput(t *testing.T) {
	cases := []struct {
		name      string
		sbatch    bool
		extra     string
		env       []string
		want      []string
		submitted int // "submitted" events in the job log
	}{
		{"no sbatch", false, "", nil, []string{"sbatch not found on PATH", "local executor"}, 0},
		{"unknown partition", true, "partition = \"gpu\"\n", nil, []string{`partition "gpu"`, "debug, short"}, 0},
		{"binary unreachable", true, "binary = \"/nonexistent/train\"\n", nil, []string{"/nonexistent/train", "filesystem they share"}, 0},
		{"binary relative", true, "binary = \"bin/train\"\n", nil, []string{"bin/train", "absolute path"}, 0},
		{"sbatch refuses", true, "", []string{"FAKE_SBATCH_FAIL=sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified"},
			[]string{"Invalid account", "run the sweep again"}, 0},
		{"squeue fails", true, "", []string{"FAKE_SQUEUE_FAIL=slurm_load_jobs error: Unable to contact slurm controller (connect failure)"},
			[]string{"squeue", "Unable to contact slurm controller", "train sweep -resume"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fakeSlurm(t, c.sbatch)
			for _, e := range c.env {
				k, v, _ := strings.Cut(e, "=")
				t.Setenv(k, v)
			}
			dir := t.TempDir()
			s := writeSweep(t, dir, "executor = \"slurm\"\n[sweep.slurm]\n"+c.extra)
			_, err := Run(context.Background(), s, slurmOptions(t))
			if err == nil {
				t.Fatal("the sweep ran")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			assertIntact(t, s)
			evs, _ := ReadJobLog(s.Folder())
			ids, _ := Submissions(evs)
			if len(ids) != c.submitted {
				t.Errorf("job log has %d submissions, want %d: %+v", len(ids), c.submitted, evs)
			}
		})
	}
}

// TestSlurmRefusedSubmissionIsRetriedOnce: a submission sbatch refused leaves an
// intent without a job id in the job log; the next run looks the job up by name (the
// fake squeue knows none), submits the trials once, and sets the queued directories
// of the refused submission aside.
func TestSlurmRefusedSubmissionIsRetriedOnce(t *testing.T) {
	fakeSlurm(t, true)
	dir := t.TempDir()
	s := writeSweep(t, dir, "executor = \"slurm\"\n")
	t.Setenv("FAKE_SBATCH_FAIL", "sbatch: error: Batch job submission failed: Requested time limit is invalid")
	if _, err := Run(context.Background(), s, slurmOptions(t)); err == nil {
		t.Fatal("the refused submission passed")
	}
	t.Setenv("FAKE_SBATCH_FAIL", "")
	t.Setenv("FAKE_SQUEUE_FAIL", "slurm_load_jobs error: Unable to contact slurm controller")
	if _, err := Run(context.Background(), s, slurmOptions(t)); err == nil || !strings.Contains(err.Error(), "squeue") {
		t.Fatalf("want the squeue failure after the submission, got %v", err)
	}
	evs, _ := ReadJobLog(s.Folder())
	var submits int
	for _, e := range evs {
		if e.Event == "submit" {
			submits++
		}
	}
	ids, trials := Submissions(evs)
	if submits != 2 || len(ids) != 1 || len(trials[ids[0]]) != 4 {
		t.Fatalf("job log: %d submit intents, submitted %v with %v; want 2 intents, one job of 4 trials", submits, ids, trials)
	}
	queued, _ := filepath.Glob(filepath.Join(s.Folder(), "t*-s1-*"))
	abandoned, _ := filepath.Glob(filepath.Join(s.Folder(), ".abandoned-t*"))
	if len(queued) != 4 || len(abandoned) != 4 {
		t.Errorf("%d run directories and %d set aside, want 4 and 4", len(queued), len(abandoned))
	}
	script, err := os.ReadFile(evs[len(evs)-1].scriptOf(evs))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"#SBATCH --array=0-3%1", "#SBATCH --requeue", "#SBATCH --cpus-per-task=1", "-resume \"$run\"", "export GOMAXPROCS=1"} {
		if !strings.Contains(string(script), w) {
			t.Errorf("batch script lacks %q:\n%s", w, script)
		}
	}
}

// scriptOf returns the batch script of the submission a submitted event completes.
func (e jobEvent) scriptOf(evs []jobEvent) string {
	for _, x := range evs {
		if x.Event == "submit" && x.Name == e.Name {
			return x.Script
		}
	}
	return fmt.Sprintf("(no submission named %s)", e.Name)
}

// A task that ends NODE_FAIL (or PREEMPTED) may be requeued by Slurm: the controller
// waits for it to come back before recording the end. Requeued and finished, the trial
// is finished; never back, it is failed with Slurm's state and its log.
func TestSlurmNodeFailWaitsForRequeue(t *testing.T) {
	for _, comesBack := range []bool{true, false} {
		dir := fakeSlurm(t, true)
		state := func(s string) { // atomically: the fake squeue must never read a half-written file
			tmp := filepath.Join(dir, "state.tmp")
			os.WriteFile(tmp, []byte(s), 0o644)
			os.Rename(tmp, filepath.Join(dir, "state"))
		}
		state("RUNNING")
		work := t.TempDir()
		s := writeSweep(t, work, "executor = \"slurm\"\n")
		s.Params[0].Values = s.Params[0].Values[:1] // one trial: t0-s1, task 100_0
		opts := slurmOptions(t)
		opts.Slurm.QueueGrace, opts.Slurm.RequeueWait = 10*time.Second, 500*time.Millisecond
		done := make(chan []Record, 1)
		go func() {
			recs, err := Run(context.Background(), s, opts)
			if err != nil {
				t.Error(err)
			}
			done <- recs
		}()
		time.Sleep(200 * time.Millisecond)
		state("NODE_FAIL")
		time.Sleep(200 * time.Millisecond) // within RequeueWait
		if comesBack {
			state("PENDING")
			time.Sleep(700 * time.Millisecond) // past RequeueWait: still followed
			state("RUNNING")
			runDir, _ := filepath.Glob(filepath.Join(s.Folder(), "t*-s1-*"))
			d := &rundir.Dir{Path: runDir[0]}
			m, _ := d.ReadMeta()
			m.Status = rundir.StatusFinished
			d.WriteMeta(m)
			time.Sleep(100 * time.Millisecond)
			state("COMPLETED")
		}
		var recs []Record
		select {
		case recs = <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the sweep did not end")
		}
		want, wantState := StatusFinished, "COMPLETED"
		if !comesBack {
			want, wantState = StatusFailed, "NODE_FAIL"
		}
		if len(recs) != 1 || recs[0].Status != want || recs[0].State != wantState || recs[0].Log != filepath.Join(LogsDir, recs[0].Trial+".log") {
			t.Errorf("requeued %v: records %+v, want one %s with state %s and its log", comesBack, recs, want, wantState)
		}
	}
}

// The Slurm executor applies the RLPOOL_SLURM_* variables over [sweep.slurm] and says
// which it used; a bad value is an error naming the variable, before any folder is
// made.
func TestSlurmSettingsFromEnvironment(t *testing.T) {
	fakeSlurm(t, true)
	t.Setenv("RLPOOL_SLURM_PARTITION", "gpu")
	s := writeSweep(t, t.TempDir(), "executor = \"slurm\"\n[sweep.slurm]\npartition = \"debug\"\n")
	var out strings.Builder
	opts := slurmOptions(t)
	opts.Stdout = &out
	if _, err := Run(context.Background(), s, opts); err == nil || !strings.Contains(err.Error(), `partition "gpu"`) {
		t.Errorf("with RLPOOL_SLURM_PARTITION=gpu: %v, want the fake cluster to refuse partition gpu", err)
	}
	if !strings.Contains(out.String(), "Slurm settings from the environment: RLPOOL_SLURM_PARTITION") {
		t.Errorf("output does not name the variable applied:\n%s", out.String())
	}

	t.Setenv("RLPOOL_SLURM_CPUS_PER_TASK", "many")
	s = writeSweep(t, t.TempDir(), "executor = \"slurm\"\n")
	if _, err := Run(context.Background(), s, slurmOptions(t)); err == nil || !strings.Contains(err.Error(), "RLPOOL_SLURM_CPUS_PER_TASK") {
		t.Errorf("with RLPOOL_SLURM_CPUS_PER_TASK=many: %v, want an error naming the variable", err)
	}
	if _, err := os.Stat(s.Folder()); !os.IsNotExist(err) {
		t.Errorf("a sweep refused for its settings made its folder (%v)", err)
	}
}
