package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rlpool/rlpool/internal/rundir"
)

// startTraining starts train on CartPole for far more steps than the test waits for,
// with a CPU profile and sets, and returns the process once the run is under way.
func startTraining(t *testing.T, stderr io.Writer, sets ...string) (cmd *exec.Cmd, runDir, prof string) {
	t.Helper()
	dir := t.TempDir()
	prof = filepath.Join(dir, "cpu.prof")
	args := []string{"-config", "../../configs/cartpole.toml", "-cpuprofile", prof,
		"-set", "run.dir=" + dir, "-set", "run.name=sig", "-set", "run.total_steps=100000000",
		"-set", "run.log_interval=512", "-set", "run.checkpoint_interval=0", "-set", "run.stop_at_target=false"}
	for _, s := range sets {
		args = append(args, "-set", s)
	}
	cmd = exec.Command(os.Args[0], args...)
	cmd.Stderr = stderr
	cmd.Env = append(os.Environ(), "RLPOOL_TRAIN_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m, _ := filepath.Glob(filepath.Join(dir, "sig-*", "meta.json")); len(m) == 1 {
			time.Sleep(300 * time.Millisecond) // into the first rollout's update
			return cmd, filepath.Dir(m[0]), prof
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("train started no run within a minute")
	return
}

// exitCode waits for cmd and returns its exit status.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode()
}

// Two SIGINTs a moment apart, as timeout(1) sends them (to the process and to its
// process group), are one interruption: the run finishes its update, writes a
// checkpoint and says it was interrupted, and the CPU profile is complete.
func TestInterruptTwiceAtOnceIsOneInterruption(t *testing.T) {
	cmd, runDir, prof := startTraining(t, nil)
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(50 * time.Millisecond) // timeout(1)'s second signal comes a moment later
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCode(t, cmd); code != 130 {
		t.Fatalf("exit status %d, want 130 (interrupted)", code)
	}
	d, err := rundir.Open(runDir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.ReadMeta()
	if err != nil || m.Status != rundir.StatusInterrupted {
		t.Fatalf("meta.json: %+v (%v), want status %q", m, err, rundir.StatusInterrupted)
	}
	if _, err := os.Stat(filepath.Join(runDir, "checkpoints", "latest.ckpt")); err != nil {
		t.Errorf("no checkpoint after the interruption: %v", err)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("CPU profile not written (%v)", err)
	}
}

// A second SIGINT a while after the first quits at once, during an update far longer
// than the wait, and still completes the CPU profile.
func TestInterruptAgainQuitsAtOnce(t *testing.T) {
	var stderr bytes.Buffer
	cmd, _, prof := startTraining(t, &stderr, "ppo.update_epochs=1000", "ppo.num_steps=2048")
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(1100 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatalf("the run ended before the second interruption: %v\n%s", err, stderr.Bytes())
	}
	if code := exitCode(t, cmd); code != 130 || !bytes.Contains(stderr.Bytes(), []byte("quitting at once")) {
		t.Fatalf("exit status %d, want 130 after quitting at once:\n%s", code, stderr.Bytes())
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("CPU profile not written (%v)", err)
	}
}

const lateSignalChild = "RLPOOL_TEST_LATE_SIGNAL_CHILD"

// The second signal of one interruption can arrive after the run has ended and stop
// has released the signals (a short update, a busy machine): it must not kill the
// process before it exits with its status. The child interrupts itself, ends the run,
// signals itself again and must live to say so.
func TestLateSecondSignalDoesNotKill(t *testing.T) {
	if os.Getenv(lateSignalChild) != "" {
		var msgs bytes.Buffer
		ctx, stop := interruptContext(&msgs, "interrupted", nil)
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("the first SIGINT did not cancel the context")
		}
		stop()
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		time.Sleep(200 * time.Millisecond) // time for a default action to kill us
		os.Stdout.WriteString("survived\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLateSecondSignalDoesNotKill$", "-test.v")
	cmd.Env = append(os.Environ(), lateSignalChild+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("survived")) {
		t.Fatalf("the child died of the late signal (%v):\n%s", err, out)
	}
}
