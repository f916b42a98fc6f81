package slurm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOptionsSetAndDirectives(t *testing.T) {
	var o Options
	for k, v := range map[string]string{"partition": "cpu", "account": "rl", "qos": "normal", "time": "1-02:00",
		"cpus_per_task": "4", "mem": "8G", "extra": "--constraint=avx2; --exclusive", "setup": "module load go"} {
		if err := o.Set(k, v); err != nil {
			t.Fatalf("Set(%s, %s): %v", k, v, err)
		}
	}
	want := []string{"#SBATCH --partition=cpu", "#SBATCH --account=rl", "#SBATCH --qos=normal", "#SBATCH --time=1-02:00",
		"#SBATCH --cpus-per-task=4", "#SBATCH --mem=8G", "#SBATCH --constraint=avx2", "#SBATCH --exclusive"}
	if got := o.Directives(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("directives:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := (&Options{}).Directives(); len(d) != 1 || d[0] != "#SBATCH --cpus-per-task=1" {
		t.Errorf("default directives %v, want one CPU", d)
	}
	for _, bad := range [][2]string{{"time", "an hour"}, {"time", "1:2:3:4"}, {"cpus_per_task", "0"}, {"cpus_per_task", "two"},
		{"mem", "lots"}, {"mem", "4GB"}, {"extra", "constraint=avx2"}, {"gpus", "1"}} {
		if err := o.Set(bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("Set(%s, %q) = %v, want an error naming %s", bad[0], bad[1], err, bad[0])
		}
	}
}

func TestApplyEnv(t *testing.T) {
	o := Options{Partition: "cpu", CPUsPerTask: 2}
	env := map[string]string{"RLPOOL_SLURM_PARTITION": "gpu", "RLPOOL_SLURM_TIME": "30"}
	used, err := o.ApplyEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil || o.Partition != "gpu" || o.Time != "30" || o.CPUsPerTask != 2 || len(used) != 2 {
		t.Errorf("ApplyEnv: %+v, used %v, %v", o, used, err)
	}
	env["RLPOOL_SLURM_CPUS_PER_TASK"] = "many"
	if _, err := o.ApplyEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }); err == nil || !strings.Contains(err.Error(), "RLPOOL_SLURM_CPUS_PER_TASK") {
		t.Errorf("bad variable: %v, want an error naming it", err)
	}
}

func TestParseElapsedAndStates(t *testing.T) {
	for s, want := range map[string]time.Duration{"0:05": 5 * time.Second, "12:34": 12*time.Minute + 34*time.Second,
		"1:02:03": time.Hour + 2*time.Minute + 3*time.Second, "2-00:00:10": 48*time.Hour + 10*time.Second} {
		if got := parseElapsed(s); got != want {
			t.Errorf("parseElapsed(%q) = %v, want %v", s, got, want)
		}
	}
	if baseState("CANCELLED by 0") != "CANCELLED" || baseState("COMPLETED+") != "COMPLETED" {
		t.Error("baseState keeps qualifiers")
	}
	for _, s := range []string{"PENDING", "RUNNING", "REQUEUED", "COMPLETING"} {
		if (Task{State: s}).Ended() {
			t.Errorf("%s counted as ended", s)
		}
	}
	for _, s := range []string{"COMPLETED", "FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "CANCELLED"} {
		if !(Task{State: s}).Ended() {
			t.Errorf("%s not counted as ended", s)
		}
	}
}

// TestBatchScript runs a written batch script with bash, as a node would: it starts
// the binary on the run directory with the job's threads, appending to the log, and
// refuses with a clear message when the binary or the run is missing.
func TestBatchScript(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "train")
	os.WriteFile(fake, []byte("#!/bin/bash\necho \"args $* threads $GOMAXPROCS setup $SETUP\"\n"), 0o755)
	run := filepath.Join(dir, "run it")
	os.Mkdir(run, 0o755)
	o := &Options{CPUsPerTask: 3, Setup: "export SETUP=done"}
	b := Batch{Comment: "test", Directives: []string{"--job-name=x"}, Options: o,
		Vars: "run=" + Quote(run) + "\nlog=" + Quote(filepath.Join(dir, "train.log")), Binary: fake}
	exec1 := func(script string) (string, error) {
		p := filepath.Join(dir, "job.sh")
		os.WriteFile(p, []byte(script), 0o755)
		out, err := exec.Command("bash", p).CombinedOutput()
		return string(out), err
	}
	if out, err := exec1(b.String()); err != nil {
		t.Fatalf("script failed: %v\n%s", err, out)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "train.log"))
	if !strings.Contains(string(log), "args -resume "+run+" threads 3 setup done") || !strings.Contains(string(log), "restart 0") {
		t.Errorf("train.log:\n%s", log)
	}
	for _, w := range []string{"#SBATCH --job-name=x", "#SBATCH --requeue", "#SBATCH --open-mode=append", "#SBATCH --cpus-per-task=3"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("script lacks %q", w)
		}
	}
	b.Binary = filepath.Join(dir, "nope")
	if out, err := exec1(b.String()); err == nil || !strings.Contains(out, "no train binary at") {
		t.Errorf("missing binary: %v %s", err, out)
	}
	b.Binary, b.Vars = fake, "run=/nonexistent/run\nlog=/dev/null"
	if out, err := exec1(b.String()); err == nil || !strings.Contains(out, "filesystem the compute nodes share") {
		t.Errorf("missing run: %v %s", err, out)
	}
	if err := CheckBinary("train"); err == nil {
		t.Error("CheckBinary took a relative path")
	}
	if err := CheckBinary(fake); err != nil {
		t.Errorf("CheckBinary(%s): %v", fake, err)
	}
}

func TestQuote(t *testing.T) {
	out, err := exec.Command("bash", "-c", "printf %s "+Quote(`it's a "dir" $HOME`)).Output()
	if err != nil || string(out) != `it's a "dir" $HOME` {
		t.Errorf("Quote round trip: %q, %v", out, err)
	}
}
