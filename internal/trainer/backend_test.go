package trainer

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/agent/dnnl"
	"github.com/rlpool/rlpool/agent/model"
	_ "github.com/rlpool/rlpool/envs/all" // the bundled configs' tasks
	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/rundir"
)

// shortRun shrinks a bundled config to a few updates of either learner.
var shortRun = []string{
	"run.total_steps=64", "run.log_interval=32", "run.checkpoint_interval=0", "run.threads=2",
	"ppo.num_steps=4", "ppo.num_minibatches=1", "ppo.update_epochs=1",
	"impala.unroll_length=2", "impala.batch_size=2", "impala.queue_size=4", "impala.num_actors=1",
}

// Without oneDNN's library every bundled config trains on the Go kernels, and the run's
// start line and meta.json say so. The library is made unloadable for a child process
// (RLPOOL_DNNL names a missing file), because a process loads it at most once.
func TestEveryConfigTrainsWithoutOneDNN(t *testing.T) {
	if os.Getenv("RLPOOL_TEST_NO_DNNL_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestEveryConfigTrainsWithoutOneDNN$", "-test.v")
		cmd.Env = append(os.Environ(), "RLPOOL_TEST_NO_DNNL_CHILD=1", "RLPOOL_DNNL=/nonexistent/libdnnl.so.2")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		t.Logf("child:\n%s", out)
		return
	}
	files, err := filepath.Glob("../../configs/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled configs found (%v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			sets := append([]string{"run.dir=" + t.TempDir(), "run.stop_at_target=false"}, shortRun...)
			cfg, err := config.Load(f, sets)
			if err != nil {
				t.Fatal(err)
			}
			spec, _, err := resolveTask(cfg)
			if err != nil && strings.Contains(err.Error(), "ROM") && os.Getenv("RLPOOL_ROMS") == "" {
				t.Skipf("%s needs ROMs: set RLPOOL_ROMS (%v)", cfg.Env.Task, err)
			}
			var stderr bytes.Buffer
			res, err := Run(context.Background(), Options{Config: cfg, Stderr: &stderr})
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			if res.Status != rundir.StatusFinished {
				t.Fatalf("status %s", res.Status)
			}
			line := stderr.String()
			if !strings.Contains(line, "network backend: go") {
				t.Errorf("start line does not say the network runs on go:\n%s", line)
			}
			d, err := rundir.Open(res.Dir)
			if err != nil {
				t.Fatal(err)
			}
			meta, err := d.ReadMeta()
			if err != nil || meta.Backend != "go" {
				t.Errorf("meta.json network_backend = %q (%v), want go", meta.Backend, err)
			}
			if cfg.Net.Backend == "auto" && model.IsImageSpace(spec.ObsSpace) && !strings.Contains(line, "oneDNN is not available") {
				t.Errorf("a pixel task's start line does not say why oneDNN was not used:\n%s", line)
			}
		})
	}
}

// With oneDNN's library present, a pixel task's network runs on it under the default
// net.backend = auto, in either precision, and the start line and meta.json say so.
func TestPixelRunUsesOneDNN(t *testing.T) {
	if os.Getenv("RLPOOL_TEST_NO_DNNL_CHILD") != "" {
		t.Skip("the child process of TestEveryConfigTrainsWithoutOneDNN has no oneDNN")
	}
	if err := dnnl.Load(); err != nil {
		t.Skipf("oneDNN is not available: %v", err)
	}
	if os.Getenv("RLPOOL_ROMS") == "" {
		t.Skip("RLPOOL_ROMS is not set: no Pong ROM")
	}
	for _, prec := range []string{"fp32", "bf16"} {
		t.Run(prec, func(t *testing.T) {
			cfg, err := config.Load("../../configs/pong.toml", append([]string{"run.dir=" + t.TempDir(), "net.precision=" + prec}, shortRun...))
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			res, err := Run(context.Background(), Options{Config: cfg, Stderr: &stderr})
			if prec == "bf16" && err != nil && strings.Contains(err.Error(), "no fast bfloat16") {
				t.Skipf("this CPU has no fast bf16 kernels: %v", err)
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "network backend: onednn") ||
				strings.Contains(stderr.String(), "computing in bf16") != (prec == "bf16") {
				t.Errorf("start line:\n%s", stderr.String())
			}
			d, err := rundir.Open(res.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if meta, err := d.ReadMeta(); err != nil || meta.Backend != "onednn" || meta.Precision != prec {
				t.Errorf("meta.json network_backend = %q, network_precision = %q (%v), want onednn, %s", meta.Backend, meta.Precision, err, prec)
			}
		})
	}
}
