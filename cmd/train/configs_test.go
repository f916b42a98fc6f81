package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/agent/ppo"
	"github.com/rlpool/rlpool/configs"
	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/rundir"
)

// trainIn runs the train binary (this test binary standing in for it, see TestMain)
// in dir and returns its stdout, stderr and error.
func trainIn(t *testing.T, dir string, args ...string) (string, string, error) {
	t.Helper()
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RLPOOL_TRAIN_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// TestBundledConfigFromEmptyFolder trains the bundled cartpole config from a folder
// with no configs/ in it and checks the run lands there, says where its config came
// from and finishes; then checks that train configs lists every bundled file.
func TestBundledConfigFromEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	out, errs, err := trainIn(t, dir, "-config", "cartpole.toml", "-set", "run.total_steps=4096", "-set", "run.dir=runs",
		"-set", "run.log_interval=1024", "-set", "run.checkpoint_interval=2048", "-set", "net.hidden=16,16")
	if err != nil {
		t.Fatalf("train: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "runs", "cartpole-*"))
	if len(runs) != 1 {
		t.Fatalf("want one run under %s/runs, got %v", dir, runs)
	}
	cfgText, err := os.ReadFile(filepath.Join(runs[0], rundir.ConfigFile))
	if err != nil || !strings.Contains(string(cfgText), "# From: bundled configs/cartpole.toml\n") {
		t.Errorf("config.toml header does not name the bundled config (%v):\n%.300s", err, cfgText)
	}
	if cfg, err := config.Load(filepath.Join(runs[0], rundir.ConfigFile), nil); err != nil || cfg.Run.TotalSteps != 4096 || cfg.Env.Task != "CartPole-v1" {
		t.Errorf("run config: %v", err)
	}
	var meta rundir.Meta
	b, err := os.ReadFile(filepath.Join(runs[0], rundir.MetaFile))
	if err == nil {
		err = json.Unmarshal(b, &meta)
	}
	if err != nil || meta.Status != rundir.StatusFinished {
		t.Errorf("meta.json: status %q, %v", meta.Status, err)
	}
	if rows, _ := os.ReadFile(filepath.Join(runs[0], "metrics.csv")); strings.Count(string(rows), "\n") < 3 {
		t.Errorf("metrics.csv has too few rows:\n%s", rows)
	}

	// An unknown name lists the bundled configs; a file path still wins over a name.
	_, errs, err = trainIn(t, dir, "-config", "nope")
	if err == nil || !strings.Contains(errs, "pong") || !strings.Contains(errs, "cartpole") {
		t.Errorf("train -config nope: %v, stderr %q; want a failure listing the bundled names", err, errs)
	}
	os.WriteFile(filepath.Join(dir, "cartpole.toml"), []byte("[run]\ntotal_steps = 77\n"), 0o644)
	out, errs, err = trainIn(t, dir, "-config", "cartpole.toml", "-print")
	if err != nil || !strings.Contains(out, "total_steps = 77") || !strings.Contains(out, "# From: "+filepath.Join(dir, "cartpole.toml")) {
		t.Errorf("a local cartpole.toml did not win over the bundled one: %v\n%s%s", err, out, errs)
	}

	out, errs, err = trainIn(t, dir, "configs")
	if err != nil {
		t.Fatalf("train configs: %v\n%s", err, errs)
	}
	listed := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Fields(l)
		listed[f[0]] = strings.TrimSpace(strings.TrimPrefix(l, f[0]))
	}
	names := configs.Names()
	if len(listed) != len(names) {
		t.Errorf("train configs lists %d configs, %d are bundled:\n%s", len(listed), len(names), out)
	}
	for _, n := range names {
		want := shorten(configs.Purpose(n), purposeWidth)
		if p := listed[strings.TrimSuffix(n, ".toml")]; p == "" || p != want {
			t.Errorf("train configs: %s listed with purpose %q, want %q", n, p, want)
		}
	}
}

// TestConfigHelpCoversTheSchema checks that train config prints one line per schema
// key, each with its help, and no line that is not a key.
func TestConfigHelpCoversTheSchema(t *testing.T) {
	var out bytes.Buffer
	if err := configMain(nil, &out); err != nil {
		t.Fatal(err)
	}
	entries := config.Entries()
	want := map[string]config.Entry{}
	for _, e := range entries {
		want[e.Key] = e
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(out.String(), "\n") {
		if l == "" || (strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]")) {
			continue // section headers
		}
		key := strings.Fields(l)[0]
		e, ok := want[key]
		if !ok {
			t.Errorf("line for no key: %q", l)
			continue
		}
		if seen[key] {
			t.Errorf("%s printed twice", key)
		}
		seen[key] = true
		if e.Help == "" || !strings.HasSuffix(l, e.Help) || !strings.Contains(l, "default "+e.Default) || !strings.Contains(l, e.Type) {
			t.Errorf("%s: line %q lacks its type, default or help %+v", key, l, e)
		}
	}
	for _, e := range entries {
		if !seen[e.Key] {
			t.Errorf("train config does not print %s", e.Key)
		}
	}
	for _, k := range []string{"run.total_steps", "env.num_envs", "net.hidden", "ppo.clip_coef", "impala.entropy_cost"} {
		if !seen[k] {
			t.Errorf("train config does not print %s", k)
		}
	}
}

func TestConfigHelpOneKeyAndPrint(t *testing.T) {
	var out bytes.Buffer
	if err := configMain([]string{"ppo.clip_coef"}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != "[ppo]" || !strings.HasPrefix(lines[1], "ppo.clip_coef ") || !strings.Contains(lines[1], "default 0.2") ||
		!strings.Contains(lines[1], "> 0") {
		t.Errorf("train config ppo.clip_coef:\n%s", out.String())
	}
	if err := configMain([]string{"ppo.clip_cof"}, &out); err == nil || !strings.Contains(err.Error(), "did you mean ppo.clip_coef") {
		t.Errorf("train config ppo.clip_cof: %v", err)
	}
	var errb bytes.Buffer
	if code := run([]string{"config", "run.totl_steps"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "did you mean run.total_steps") {
		t.Errorf("train config run.totl_steps: exit %d, %q", code, errb.String())
	}

	// -print returns before training: a Pong run would start (and here, without ROMs,
	// fail), so exit 0 says it printed and stopped.
	out.Reset()
	errb.Reset()
	if code := run([]string{"-config", "pong", "-set", "ppo.clip_coef=0.15", "-set", "run.name=printed", "-print"}, &out, &errb); code != 0 {
		t.Fatalf("train -print: exit %d, %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "# From: bundled configs/pong.toml\n") {
		t.Errorf("-print header:\n%.200s", out.String())
	}
	cfg, err := config.Parse(out.Bytes(), "printed", nil)
	if err != nil {
		t.Fatalf("-print output does not load: %v\n%s", err, out.String())
	}
	if cfg.Env.Task != "Pong-v5" || cfg.Run.Name != "printed" || cfg.Learners["ppo"].(*ppo.Config).ClipCoef != 0.15 {
		t.Errorf("-print: %+v", cfg.Run)
	}
}

// shorten cuts at the last word boundary that leaves room for the ellipsis, and
// leaves text that fits alone.
func TestShorten(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  string
	}{
		{"PPO on Pong-v5 from pixels.", 40, "PPO on Pong-v5 from pixels."},
		{"PPO on Pong-v5 from pixels.", 27, "PPO on Pong-v5 from pixels."},
		{"PPO on Pong-v5 from pixels.", 26, "PPO on Pong-v5 from…"},
		{"PPO on Pong-v5 from pixels.", 20, "PPO on Pong-v5 from…"},
		{"PPO on Pong-v5 from pixels.", 19, "PPO on Pong-v5…"},
		{"PPO on CartPole-v1, with tuned settings", 22, "PPO on CartPole-v1…"}, // no dangling comma
		{"Supercalifragilistic words", 10, "Supercali…"},                       // one long word is cut within
		{"Grid search: äöü weiter und weiter", 18, "Grid search: äöü…"},        // width counts characters
	} {
		got := shorten(c.text, c.width)
		if got != c.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
		if n := len([]rune(got)); n > c.width {
			t.Errorf("shorten(%q, %d) is %d characters long", c.text, c.width, n)
		}
	}
}

// A bundled sweep resolves by the name train configs lists (and by its bare name),
// as a bundled run config does: the dry run plans the same trials as the file's, and
// a sweep that is to run keeps the bundled sweep and its base in its folder, where
// the trials and a resumed sweep read them.
func TestBundledSweepByName(t *testing.T) {
	fromFile, err := filepath.Abs("../../configs/sweeps/cartpole-lr-clip.toml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	var want bytes.Buffer
	if err := sweepMain([]string{"-config", fromFile, "-dry-run"}, &want); err != nil || want.Len() == 0 {
		t.Fatalf("dry run of the sweep file: %v", err)
	}
	for _, name := range []string{"sweeps/cartpole-lr-clip", "cartpole-lr-clip", "configs/sweeps/cartpole-lr-clip.toml"} {
		var got bytes.Buffer
		if err := sweepMain([]string{"-config", name, "-dry-run"}, &got); err != nil || got.String() != want.String() {
			t.Errorf("train sweep -config %s -dry-run: %v\n%s\nwant\n%s", name, err, got.String(), want.String())
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("a dry run wrote %d entries into the working directory", len(entries))
	}

	spec, err := loadSweep("sweeps/cartpole-lr-clip", true)
	if err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(spec.Folder(), bundledSweepDir)
	for p, bundled := range map[string]string{spec.Path: "sweeps/cartpole-lr-clip.toml", spec.Base: "cartpole.toml"} {
		b, _ := configs.Read(bundled)
		if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, b) || !strings.HasPrefix(p, kept) {
			t.Errorf("%s: %v; want the bundled %s in %s", p, err, bundled, kept)
		}
	}

	var out bytes.Buffer
	err = sweepMain([]string{"-config", "sweeps/nope"}, &out)
	if err == nil || !strings.Contains(err.Error(), "sweeps/cartpole-lr-clip") {
		t.Errorf("an unknown sweep name: %v, want an error listing the bundled sweeps", err)
	}
}
