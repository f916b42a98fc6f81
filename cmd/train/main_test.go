package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigErrorsExitWithTheKey(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(p, []byte("[ppo]\nclip_coef = \"wide\"\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-config", p}, 2, "ppo.clip_coef"},
		{[]string{"-config", "../../configs/cartpole.toml", "-set", "ppo.gama=0.9"}, 2, "did you mean ppo.gamma"},
		{[]string{"-config", "../../configs/cartpole.toml", "-seed", "x"}, 2, "-seed"},
		{[]string{}, 2, "no -config"},
		{[]string{"-config", p, "-resume", "runs/x"}, 2, "not both"},
		{[]string{"stray"}, 2, "unexpected argument"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("train %v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errb.String(), c.code, c.want)
		}
	}
}

func TestSubcommandTableDispatchesBench(t *testing.T) {
	if _, ok := subcommands["bench"]; !ok {
		t.Fatal("no bench subcommand")
	}
}

// TestBenchJSONAndBadFlags runs a tiny CartPole benchmark and checks the JSON it prints
// (warm-up recorded, one run per side, rates positive), and that bad timing flags are
// refused by name.
func TestBenchJSONAndBadFlags(t *testing.T) {
	var errb bytes.Buffer
	noDir := filepath.Join(t.TempDir(), "missing", "cpu.prof")
	for _, bad := range [][]string{{"-warmup", "-1"}, {"-seconds", "0"}, {"-repeat", "0"}, {"-cpuprofile", noDir}} {
		args := append([]string{"bench", "-task", "CartPole-v1"}, bad...)
		if code := run(args, io.Discard, &errb); code != 1 || !strings.Contains(errb.String(), bad[0]) {
			t.Errorf("train %v: exit %d, stderr %q; want exit 1 naming %s", args, code, errb.String(), bad[0])
		}
		errb.Reset()
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	code := run([]string{"bench", "-task", "CartPole-v1", "-num-envs", "4", "-batch-size", "2", "-threads", "1",
		"-seconds", "0.05", "-repeat", "1", "-warmup", "0.05", "-json", "-cpuprofile", prof}, io.Discard, &errb)
	w.Close()
	os.Stdout = stdout
	out, _ := io.ReadAll(r)
	if code != 0 {
		t.Fatalf("bench: exit %d, stderr %q", code, errb.String())
	}
	var res benchResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("bench -json printed %q: %v", out, err)
	}
	if res.WarmupSeconds != 0.05 || len(res.PoolRuns) != 1 || len(res.LoopRuns) != 1 ||
		res.StepsPerSec <= 0 || res.LoopStepsPerSec <= 0 || res.NumEnvs != 4 || res.BatchSize != 2 {
		t.Errorf("bench result %+v", res)
	}
	// A pprof file is gzip data: it starts with gzip's magic bytes.
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("bench -cpuprofile wrote %d bytes (%v), want a gzip-compressed profile", len(b), err)
	}
}
