package sweep

import (
	"strings"
	"testing"
)

func TestCheckExecutor(t *testing.T) {
	for _, name := range []string{ExecLocal, ExecSlurm} {
		if err := CheckExecutor(name); err != nil {
			t.Errorf("CheckExecutor(%q): %v", name, err)
		}
	}
	for _, name := range []string{"", "Local", "docker"} {
		err := CheckExecutor(name)
		if err == nil || !strings.Contains(err.Error(), `use "local" or "slurm"`) {
			t.Errorf("CheckExecutor(%q) = %v, want an error listing local and slurm", name, err)
		}
	}
}

// Each executor name selects the executor whose settings Options holds, and the
// executor answers to that name.
func TestExecutorOf(t *testing.T) {
	opts := &Options{}
	for _, c := range []struct {
		name string
		want Executor
	}{{ExecLocal, &opts.Local}, {ExecSlurm, &opts.Slurm}} {
		ex, err := executorOf(c.name, opts)
		if err != nil || ex != c.want || ex.Name() != c.name {
			t.Errorf("executorOf(%q) = %v, %v; want the settings in Options named %q", c.name, ex, err, c.name)
		}
	}
}

// A sweep file with an unknown executor is refused when it is read.
func TestSpecUnknownExecutor(t *testing.T) {
	_, err := parse(map[string]any{
		"sweep":  map[string]any{"name": "x", "base": "base.toml", "executor": "docker"},
		"params": map[string]any{"ppo.learning_rate": []any{1e-3}},
	})
	if err == nil || !strings.Contains(err.Error(), `sweep.executor = "docker": use "local" or "slurm"`) {
		t.Errorf("parse: %v, want the unknown executor named", err)
	}
}
