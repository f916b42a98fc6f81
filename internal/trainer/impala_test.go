package trainer

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/internal/rundir"
)

// TestIMPALARun trains the IMPALA learner through the run loop (run.algo = "impala"):
// the run finishes, metrics.csv carries the learner's throughput and policy-lag columns,
// and the run resumes from its checkpoint.
func TestIMPALARun(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir, "run.algo=impala", "run.total_steps=3000", "run.log_interval=1000",
		"run.checkpoint_interval=0", "env.batch_size=2", "impala.unroll_length=8", "impala.batch_size=4",
		"impala.queue_size=8", "impala.reward_clip=0")
	res := runOnce(t, context.Background(), Options{Config: cfg})
	if res.Status != rundir.StatusFinished || res.EnvSteps < 3000 {
		t.Fatalf("run ended %s at %d env steps", res.Status, res.EnvSteps)
	}
	d, err := rundir.Open(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	header, rows, err := rundir.ReadCSV(d.File(rundir.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	h := strings.Join(header, ",")
	for _, col := range []string{"policy_lag", "actor_fps", "learner_fps", "learner_idle_frac", "baseline_loss"} {
		if !strings.Contains(h, col) {
			t.Errorf("metrics.csv header %q lacks %s", h, col)
		}
	}
	if len(rows) == 0 {
		t.Fatal("metrics.csv has no rows")
	}
	// Every row follows at least one update: the actors' steps after the last update
	// make no row of their own, which would hold no learner statistics.
	lag := slices.Index(header, "policy_lag")
	if lag < 0 {
		t.Fatalf("metrics.csv header %q has no policy_lag column", h)
	}
	for _, row := range rows {
		if row[lag] == "NaN" || row[lag] == "" {
			t.Errorf("metrics.csv row at %s env steps has no learner statistics: %v", row[0], row)
		}
	}
	if !strings.Contains(readFile(t, d.File(rundir.ConfigFile)), "[impala]") {
		t.Error("the resolved config has no [impala] section")
	}
	res2, err := Run(context.Background(), Options{Resume: res.Dir, Overrides: []string{"run.total_steps=5000"}})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Status != rundir.StatusFinished || res2.EnvSteps < 5000 {
		t.Fatalf("resumed run ended %s at %d env steps", res2.Status, res2.EnvSteps)
	}
}
