package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rlpool/rlpool/agent/dnnl"
)

// train -cpuprofile works while the network runs on oneDNN: the profiler's SIGPROF
// must never reach one of oneDNN's OpenMP threads, which a program built without cgo
// (as train is, and as make test builds its tests) cannot handle: the process crashed
// with a segmentation fault.
func TestCPUProfileWithOneDNN(t *testing.T) {
	if err := dnnl.Load(); err != nil {
		t.Skipf("oneDNN is not available: %v", err)
	}
	if os.Getenv("RLPOOL_ROMS") == "" {
		t.Skip("RLPOOL_ROMS is not set: no Pong ROM")
	}
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.prof")
	cmd := exec.Command(os.Args[0], "-config", "../../configs/pong.toml", "-cpuprofile", prof,
		"-set", "net.backend=onednn", "-set", "run.dir="+dir, "-set", "run.total_steps=2048",
		"-set", "run.log_interval=1024", "-set", "run.checkpoint_interval=0", "-set", "ppo.update_epochs=1")
	cmd.Env = append(os.Environ(), "RLPOOL_TRAIN_MAIN=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("train -cpuprofile with onednn: %v\n%s", err, out)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Fatalf("no CPU profile written (%v)", err)
	}
}
