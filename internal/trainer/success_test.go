package trainer

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/rundir"
)

// TestSuccessTracking runs a task with a success flag: every episode that reached the
// end (return above 5) passed the flag and counts as a success, some episodes do not,
// and each metrics.csv row's recent success rate is the share of successes among the
// last recent_episodes episodes episodes.csv lists up to that row's step.
func TestSuccessTracking(t *testing.T) {
	res := runOnce(t, context.Background(), Options{Config: testConfig(t, t.TempDir(), "env.task="+goalCorridorTask)})
	d := &rundir.Dir{Path: res.Dir}
	header, rows, err := rundir.ReadCSV(d.File(rundir.EpisodesFile))
	if err != nil || strings.Join(header, ",") != "env_step,env_id,return,length,success" {
		t.Fatalf("episodes.csv header %v, %v", header, err)
	}
	var steps []int64
	var succ []float64
	count := map[float64]int{}
	for _, r := range rows {
		step, _ := strconv.ParseInt(r[0], 10, 64)
		ret, _ := strconv.ParseFloat(r[2], 64)
		s, _ := strconv.ParseFloat(r[4], 64)
		if ret > 5 && s != 1 {
			t.Fatalf("episode %v reached the end without counting as a success", r)
		}
		steps, succ = append(steps, step), append(succ, s)
		count[s]++
	}
	if count[0] == 0 || count[1] == 0 || len(count) != 2 {
		t.Fatalf("success values %v: want both 0 and 1, nothing else", count)
	}
	header, rows, err = rundir.ReadCSV(d.File(rundir.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	cols := map[string]int{}
	for i, h := range header {
		cols[h] = i
	}
	if cols[rundir.ColRecentSuccess] != cols[rundir.ColRecentReturn]+1 {
		t.Fatalf("metrics.csv header %v: want %s after %s", header, rundir.ColRecentSuccess, rundir.ColRecentReturn)
	}
	for _, r := range rows {
		at, _ := strconv.ParseInt(r[cols[rundir.ColEnvSteps]], 10, 64)
		got, _ := strconv.ParseFloat(r[cols[rundir.ColRecentSuccess]], 64)
		n := 0
		for n < len(steps) && steps[n] <= at {
			n++
		}
		window := succ[max(0, n-5):n]
		want := 0.0
		for _, s := range window {
			want += s / float64(len(window))
		}
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("row at %d: recent success %v, want %v (the last %d episodes)", at, got, want, len(window))
		}
	}
}

// TestStopAtTargetSuccess stops a run by its success rate, and refuses a success
// target on a task without a flag, or one outside [0, 1].
func TestStopAtTargetSuccess(t *testing.T) {
	res := runOnce(t, context.Background(), Options{Config: testConfig(t, t.TempDir(), "env.task="+goalCorridorTask,
		"run.target_success=0.4", "run.stop_at_target=true")})
	meta, err := (&rundir.Dir{Path: res.Dir}).ReadMeta()
	if err != nil || res.EnvSteps >= 2048 || meta.TargetSuccess == nil || *meta.TargetSuccess != 0.4 || meta.Target != nil ||
		meta.TargetStep == nil || *meta.TargetStep != res.EnvSteps {
		t.Fatalf("%+v, meta %+v, %v: want an early finish at the success target", res, meta, err)
	}
	if _, err := Run(context.Background(), Options{Config: testConfig(t, t.TempDir(), "run.target_success=0.5")}); err == nil ||
		!strings.Contains(err.Error(), "flags no success") {
		t.Errorf("success target on a task without a flag: %v", err)
	}
	if _, err := config.FromMap(map[string]any{}, []string{"run.target_success=1.5"}, "test"); err == nil ||
		!strings.Contains(err.Error(), "target_success") {
		t.Errorf("success target 1.5: %v", err)
	}
}
