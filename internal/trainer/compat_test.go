package trainer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/rlpool/rlpool/envs/classic"
	"github.com/rlpool/rlpool/internal/play"
	"github.com/rlpool/rlpool/internal/rundir"
)

// copyDir copies the files of a run directory (one level of subfolders) into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Run directories written before the network kind moved to net.network (their
// config.toml sets ppo.network and impala.network) still resume: the old key is read
// with a note printed and kept in meta.json, the checkpoint's weights, optimiser state
// and env states load, training goes on for a few more updates, and the resumed run's
// policy plays.
func TestResumeRunOfEarlierLayout(t *testing.T) {
	for _, c := range []struct {
		dir, algo string
		steps     int64
	}{
		{"ppo-cartpole", "ppo", 2048},
		{"impala-cartpole", "impala", 2624},
	} {
		t.Run(c.dir, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.dir)
			copyDir(t, filepath.Join("testdata", "compat", c.dir), dir)
			total := c.steps + 1024
			var stderr bytes.Buffer
			res, err := Run(context.Background(), Options{Resume: dir, Stderr: &stderr,
				Overrides: []string{"run.total_steps=" + strconv.FormatInt(total, 10), "run.threads=1"}})
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			if res.Status != rundir.StatusFinished || res.EnvSteps < total {
				t.Fatalf("resumed run ended %s at %d env steps, want finished at %d or more\n%s", res.Status, res.EnvSteps, total, stderr.String())
			}
			note := c.algo + ".network is deprecated: read as net.network"
			if !strings.Contains(stderr.String(), note) {
				t.Errorf("no deprecation note %q on stderr:\n%s", note, stderr.String())
			}
			// PPO saved its envs' states: its resume is exact and warns of nothing else.
			if n := strings.Count(stderr.String(), "warning:"); c.algo == "ppo" && n != 1 {
				t.Errorf("%d warnings, want only the deprecation note:\n%s", n, stderr.String())
			}
			if !strings.Contains(stderr.String(), "network backend: go (an MLP policy") {
				t.Errorf("start line does not name the MLP policy's backend:\n%s", stderr.String())
			}
			d, err := rundir.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			meta, err := d.ReadMeta()
			if err != nil {
				t.Fatal(err)
			}
			if len(meta.Resumes) != 1 || meta.Backend != "go" || !strings.Contains(strings.Join(meta.Notes, "\n"), note) {
				t.Errorf("meta.json: resumes %v, backend %q, notes %q", meta.Resumes, meta.Backend, meta.Notes)
			}
			a, err := play.Load(dir, "latest")
			if err != nil {
				t.Fatal(err)
			}
			if a.EnvSteps <= c.steps {
				t.Errorf("latest checkpoint at %d env steps, not past the %d it resumed from", a.EnvSteps, c.steps)
			}
			eps, err := a.Play(play.Options{Episodes: 2, Seed: 3, Deterministic: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range eps {
				if e.Length < 1 || e.Return != float64(e.Length) {
					t.Errorf("episode %+v: CartPole pays 1 per step", e)
				}
			}
		})
	}
}
