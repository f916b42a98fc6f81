package rundir

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Columns read a row by name whatever the column order, and say what is missing.
func TestColumns(t *testing.T) {
	c := NewColumns([]string{"return", "env_step", "length"})
	row := []string{"21.5", "4096", "x"}
	if got := c.Field(row, ColEpisodeStep); got != "4096" {
		t.Errorf("Field(env_step) = %q, want 4096", got)
	}
	if got := c.Float(row, ColReturn); got != 21.5 {
		t.Errorf("Float(return) = %v, want 21.5", got)
	}
	if got := c.Float(row, ColLength); !math.IsNaN(got) {
		t.Errorf("Float of a non-number = %v, want NaN", got)
	}
	if got, idx := c.Field(row, ColEnvID), c.Index(ColEnvID); got != "" || idx != -1 {
		t.Errorf("missing column: Field %q, Index %d; want \"\" and -1", got, idx)
	}
	if got := c.Field([]string{"1"}, ColLength); got != "" {
		t.Errorf("Field past a short row's end = %q, want \"\"", got)
	}
	if err := c.Require(EpisodesFile, ColEpisodeStep, ColReturn); err != nil {
		t.Errorf("Require of present columns: %v", err)
	}
	if err := c.Require(EpisodesFile, ColReturn, ColEnvID); err == nil || !strings.Contains(err.Error(), "no column env_id") {
		t.Errorf("Require(env_id) = %v, want an error naming env_id", err)
	}
}

func TestMetricsHeader(t *testing.T) {
	h := MetricsHeader(false, []string{"policy_loss", "entropy"})
	want := "env_steps,wall_s,steps_per_s,cpu_pct,episodes,return_mean,return_std,return_min,return_max,length_mean,recent_return_mean,policy_loss,entropy"
	if got := strings.Join(h, ","); got != want {
		t.Errorf("MetricsHeader = %s, want %s", got, want)
	}
	withSuccess := strings.Join(MetricsHeader(true, []string{"policy_loss"}), ",")
	if want := "length_mean,recent_return_mean,recent_success_rate,policy_loss"; !strings.HasSuffix(withSuccess, want) {
		t.Errorf("MetricsHeader with success = %s, want it to end %s", withSuccess, want)
	}
	if got := strings.Join(EpisodesHeader(true), ","); got != "env_step,env_id,return,length,success" {
		t.Errorf("EpisodesHeader(true) = %s", got)
	}
	h[0] = "changed" // the caller's copy: the next header is untouched
	if MetricsHeader(false, nil)[0] != ColEnvSteps {
		t.Error("MetricsHeader shares its slice with callers")
	}
	for name, fixed := range map[string]bool{ColEnvSteps: true, ColRecentReturn: true, ColRecentSuccess: true, "policy_loss": false} {
		if IsMetricsFixed(name) != fixed {
			t.Errorf("IsMetricsFixed(%s) = %v", name, !fixed)
		}
	}
	for name, group := range map[string]string{ColReturnMean: GroupEpisode, ColEpisodes: GroupEpisode, ColWall: GroupPerf,
		ColStepsPerSec: GroupPerf, ColRecentSuccess: GroupEpisode, "policy_loss": GroupTrain} {
		if got := MetricsGroup(name); got != group {
			t.Errorf("MetricsGroup(%s) = %s, want %s", name, got, group)
		}
	}
}

// TruncateCSV's keep reads rows by name, so it finds the step column wherever the
// file has it.
func TestTruncateCSVByName(t *testing.T) {
	p := filepath.Join(t.TempDir(), EpisodesFile)
	if err := os.WriteFile(p, []byte("return,env_step\n1,10\n2,20\n3,30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := TruncateCSV(p, func(c Columns, r []string) bool { return c.Float(r, ColEpisodeStep) <= 20 })
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "return,env_step\n1,10\n2,20\n" {
		t.Errorf("file after truncating past step 20:\n%s", b)
	}
}
