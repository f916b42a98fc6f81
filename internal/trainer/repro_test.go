package trainer

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlpool/rlpool/agent/dnnl"
	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/rundir"
)

// reproCase is a bundled config cut to reproUpdates updates on a sync pool with one
// worker thread: the pool mode whose runs depend only on the seed (async pools hand
// out rows in the order envs finish, which follows the scheduler).
type reproCase struct {
	name   string
	config string   // bundled config
	sets   []string // what makes each update small
	roms   bool     // the task needs RLPOOL_ROMS
	dnnl   bool     // the case needs oneDNN's library
}

const reproUpdates = 50

var reproCases = []reproCase{
	{name: "mlp", config: "cartpole", sets: []string{
		"env.num_envs=4", "ppo.num_steps=16", "ppo.num_minibatches=2", "ppo.update_epochs=2",
		"net.backend=go"}},
	{name: "nature_cnn-go", config: "pong", roms: true, sets: []string{
		"env.num_envs=2", "ppo.num_steps=8", "ppo.num_minibatches=1", "ppo.update_epochs=1", "env.options.max_episode_steps=60",
		"net.network=nature_cnn", "net.backend=go"}},
	{name: "nature_cnn-onednn", config: "pong", roms: true, dnnl: true, sets: []string{
		"env.num_envs=2", "ppo.num_steps=8", "ppo.num_minibatches=1", "ppo.update_epochs=1", "env.options.max_episode_steps=60",
		"net.network=nature_cnn", "net.backend=onednn"}},
}

// stepsPerUpdate is num_envs x num_steps of the case's settings.
func (c reproCase) stepsPerUpdate() int {
	envs, steps := 0, 0
	for _, s := range c.sets {
		fmt.Sscanf(s, "env.num_envs=%d", &envs)
		fmt.Sscanf(s, "ppo.num_steps=%d", &steps)
	}
	return envs * steps
}

// config loads the case's bundled config into dir: a metrics row every update and a
// checkpoint every ten.
func (c reproCase) load(t *testing.T, dir string) *config.Config {
	t.Helper()
	per := c.stepsPerUpdate()
	sets := append([]string{
		"run.dir=" + dir, "run.name=repro", "run.seed=7", "run.threads=2", "run.stop_at_target=false",
		fmt.Sprintf("run.total_steps=%d", reproUpdates*per), fmt.Sprintf("run.log_interval=%d", per),
		fmt.Sprintf("run.checkpoint_interval=%d", 10*per), "run.recent_episodes=5",
		"env.batch_size=0", "env.num_threads=1", "ppo.warmup_steps=0",
	}, c.sets...)
	cfg, err := config.Load(filepath.Join("..", "..", "configs", c.config+".toml"), sets)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// skipUnlessAvailable skips a case whose ROMs or library this machine lacks, saying
// which.
func (c reproCase) skipUnlessAvailable(t *testing.T) {
	t.Helper()
	if c.roms && os.Getenv("RLPOOL_ROMS") == "" {
		t.Skip("needs Atari ROMs: set RLPOOL_ROMS to a folder of them")
	}
	if c.dnnl {
		if err := dnnl.Load(); err != nil {
			t.Skipf("needs oneDNN's library (make deps installs libdnnl2): %v", err)
		}
	}
}

// Two runs with the same seed write the same episodes.csv and metrics.csv (but for the
// wall-clock columns) over 50 updates, for an MLP policy and for the Nature CNN on each
// network backend; and a run killed with SIGKILL between checkpoints, then resumed,
// writes the uninterrupted run's files. The learners' parallel kernels must therefore
// sum in the same order on every run whatever the scheduler does.
func TestRunsAreReproducible(t *testing.T) {
	for _, c := range reproCases {
		t.Run(c.name, func(t *testing.T) {
			c.skipUnlessAvailable(t)
			dir := t.TempDir()
			var runs []string
			for range 2 {
				res := runOnce(t, context.Background(), Options{Config: c.load(t, dir)})
				if res.Status != rundir.StatusFinished {
					t.Fatalf("status %s", res.Status)
				}
				runs = append(runs, res.Dir)
			}
			metrics := dropTimingColumns(t, filepath.Join(runs[0], rundir.MetricsFile))
			if rows := strings.Count(metrics, "\n") - 1; rows < reproUpdates {
				t.Fatalf("metrics.csv has %d rows, want one per update (%d)", rows, reproUpdates)
			}
			episodes := readFile(t, filepath.Join(runs[0], rundir.EpisodesFile))
			if strings.Count(episodes, "\n") < 3 {
				t.Fatalf("too few episodes to compare:\n%s", episodes)
			}
			sameRunFiles(t, "second run", runs[0], runs[1])

			killed := killMidRun(t, c)
			res, err := Run(context.Background(), Options{Resume: killed})
			if err != nil || res.Status != rundir.StatusFinished {
				t.Fatalf("resume after SIGKILL: %+v %v", res, err)
			}
			sameRunFiles(t, "killed and resumed run", runs[0], killed)
		})
	}
}

// sameRunFiles reports where run b's episodes.csv or metrics.csv (but for wall time)
// differ from run a's.
func sameRunFiles(t *testing.T, what, a, b string) {
	t.Helper()
	if ea, eb := readFile(t, filepath.Join(a, rundir.EpisodesFile)), readFile(t, filepath.Join(b, rundir.EpisodesFile)); ea != eb {
		t.Errorf("%s: episodes.csv differs: %s", what, firstDifference(ea, eb))
	}
	if ma, mb := dropTimingColumns(t, filepath.Join(a, rundir.MetricsFile)), dropTimingColumns(t, filepath.Join(b, rundir.MetricsFile)); ma != mb {
		t.Errorf("%s: metrics.csv differs: %s", what, firstDifference(ma, mb))
	}
}

// firstDifference names the first line where a and b differ, with both versions.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for len(la) < len(lb) {
		la = append(la, "(end of file)")
	}
	for len(lb) < len(la) {
		lb = append(lb, "(end of file)")
	}
	for i := range la {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d is\n  %s\nnot\n  %s", i+1, lb[i], la[i])
		}
	}
	return "no line differs"
}

const reproChildEnv = "RLPOOL_TEST_REPRO_CHILD"

// killMidRun runs case c in a child process that stops after 25 updates (between the
// checkpoints at 20 and 30) and kills it with SIGKILL there; it returns the run folder.
func killMidRun(t *testing.T, c reproCase) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperReproChild$")
	cmd.Env = append(os.Environ(), reproChildEnv+"="+c.name+":"+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	ready := false
	for sc := bufio.NewScanner(out); sc.Scan(); {
		if sc.Text() == "stopped" {
			ready = true
			break
		}
		lines = append(lines, sc.Text())
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !ready {
		t.Fatalf("child ended before it reached the update to be killed at:\n%s", strings.Join(lines, "\n"))
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "repro-*"))
	if len(runs) != 1 {
		t.Fatalf("child left run folders %v, want one", runs)
	}
	return runs[0]
}

// TestHelperReproChild is the child of killMidRun: it trains the named case and, once 25
// updates are done, says "stopped" and waits to be killed.
func TestHelperReproChild(t *testing.T) {
	arg := os.Getenv(reproChildEnv)
	if arg == "" {
		t.Skip("helper process for TestRunsAreReproducible")
	}
	name, dir, _ := strings.Cut(arg, ":")
	for _, c := range reproCases {
		if c.name != name {
			continue
		}
		stopAt := int64(25 * c.stepsPerUpdate())
		Run(context.Background(), Options{Config: c.load(t, dir), Stdout: os.Stderr, Stderr: os.Stderr, afterIterate: func(steps int64) {
			if steps >= stopAt {
				fmt.Println("stopped")
				time.Sleep(time.Hour)
			}
		}})
	}
	t.Fatalf("no case %q, or its run ended", name)
}
