package trainer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestFlattenConfig(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	text, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	hp, err := flattenConfig(text)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{
		"run.algo": "ppo", "run.seed": int64(3), "run.total_steps": int64(2048), "env.task": corridorTask,
		"env.num_envs": int64(4), "ppo.learning_rate": 3e-3, "ppo.norm_obs": true, "net.hidden": "[16, 16]",
	} {
		if got, ok := hp[k]; !ok || got != want {
			t.Errorf("hparams[%q] = %#v (present %v), want %#v", k, got, ok, want)
		}
	}
	for k, v := range hp {
		switch v.(type) {
		case bool, string, int64, float64:
		default:
			t.Errorf("hparams[%q] = %#v is not a scalar", k, v)
		}
	}
}

// The run's event file carries its config as text and its hyperparameters; the
// tensorboard package's tests decode both summaries field by field.
func TestEventsHaveConfig(t *testing.T) {
	dir := t.TempDir()
	res := runOnce(t, context.Background(), Options{Config: testConfig(t, dir)})
	files, _ := filepath.Glob(filepath.Join(res.Dir, "events.out.tfevents.*"))
	if len(files) != 1 {
		t.Fatalf("event files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	text, err := testConfig(t, dir).Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][]byte{text, []byte("```toml\n"), []byte("text"), []byte("_hparams_/session_start_info"),
		[]byte("hparams"), []byte("ppo.learning_rate"), []byte("env.task"), []byte(corridorTask)} {
		if !bytes.Contains(b, want) {
			t.Errorf("event file lacks %q", want)
		}
	}
}
