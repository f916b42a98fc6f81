package config

import (
	"github.com/rlpool/rlpool/agent/ppo"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

func load(t *testing.T, text string, sets ...string) (*Config, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(p, sets)
}

// Every config error names the key and says what is allowed.
func TestErrorsNameTheKey(t *testing.T) {
	cases := []struct {
		name, text string
		sets       []string
		want       []string // substrings of the error
	}{
		{"unknown key", "[ppo]\nlearning_rat = 1e-3\n", nil, []string{"unknown key ppo.learning_rat", "did you mean ppo.learning_rate"}},
		{"unknown section", "[ppx]\nx = 1\n", nil, []string{"unknown key ppx", "run, env, net, ppo"}},
		{"wrong type", "[ppo]\nnum_steps = \"many\"\n", nil, []string{"ppo.num_steps", "want an integer", "string"}},
		{"fraction for int", "[env]\nnum_envs = 2.5\n", nil, []string{"env.num_envs", "want an integer"}},
		{"bool type", "[ppo]\nnorm_adv = 1\n", nil, []string{"ppo.norm_adv", "true or false"}},
		{"out of range", "[ppo]\nclip_coef = -0.1\n", nil, []string{"ppo.clip_coef = -0.1 is out of range", "> 0"}},
		{"gamma range", "[ppo]\ngamma = 1.5\n", nil, []string{"ppo.gamma", "<= 1"}},
		{"oneof", "[net]\nactivation = \"swish\"\n", nil, []string{"net.activation", "tanh, relu"}},
		{"hidden sizes", "[net]\nhidden = [64, 0]\n", nil, []string{"net.hidden[1]"}},
		{"minibatches", "[env]\nnum_envs = 3\n[ppo]\nnum_steps = 5\nnum_minibatches = 4\n", nil, []string{"ppo.num_minibatches = 4 must divide", "15"}},
		{"batch size", "[env]\nnum_envs = 4\nbatch_size = 3\n", nil, []string{"env.batch_size = 3 must divide env.num_envs = 4"}},
		{"override unknown", "", []string{"ppo.lr=1"}, []string{"unknown key ppo.lr"}},
		{"override type", "", []string{"ppo.num_steps=abc"}, []string{"ppo.num_steps", "integer"}},
		{"override range", "", []string{"env.num_envs=0"}, []string{"env.num_envs = 0 is out of range"}},
		{"override syntax", "", []string{"ppo.gamma"}, []string{"key=value"}},
		{"unknown learner", "[run]\nalgo = \"dqn\"\n", nil, []string{`run.algo = "dqn": use one of ppo, impala`}},
		{"batch above envs", "[env]\nnum_envs = 4\nbatch_size = 8\n", nil, []string{"batch_size = 8", "num_envs (4)"}},
		{"pool key unknown", "[env]\nnum_env = 4\n", nil, []string{"unknown key env.num_env", "did you mean env.num_envs"}},
		{"seed is not an env key", "[env]\nseed = 4\n", nil, []string{"unknown key env.seed"}},
		{"learner section range", "[impala]\nunroll_length = 0\n", nil, []string{"impala.unroll_length = 0 is out of range"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(t, c.text, c.sets...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestOverridesAreTypedBySchema(t *testing.T) {
	c, err := load(t, "[run]\nname = \"a\"\n[ppo]\nlearning_rate = 1e-3\n",
		"ppo.learning_rate=3e-4", "run.name=b", "run.total_steps=1e6", "net.hidden=32,16",
		"ppo.anneal_lr=false", "env.options.frame_skip=4", "env.options.mode=fast", "run.seed=7")
	if err != nil {
		t.Fatal(err)
	}
	if ppoOf(c).LearningRate != 3e-4 || c.Run.Name != "b" || c.Run.TotalSteps != 1_000_000 || ppoOf(c).AnnealLR ||
		len(c.Net.Hidden) != 2 || c.Net.Hidden[0] != 32 || c.Net.Hidden[1] != 16 || c.Run.Seed != 7 {
		t.Errorf("overrides not applied: %+v", c)
	}
	if c.Env.Family["frame_skip"] != int64(4) || c.Env.Family["mode"] != "fast" {
		t.Errorf("env.options = %v", c.Env.Family)
	}
	// A key that takes a string takes the text as written, even when it reads as a
	// TOML number or date; quotes are TOML's own.
	c, err = load(t, "", "run.name=123", "run.dir=2026-01-01", "env.task=\"Pong-v5\"", "env.options.map_name=\"8x8\"")
	if err != nil {
		t.Fatal(err)
	}
	if c.Run.Name != "123" || c.Run.Dir != "2026-01-01" || c.Env.Task != "Pong-v5" || c.Env.Family["map_name"] != "8x8" {
		t.Errorf("string overrides: name %q dir %q task %q options %v", c.Run.Name, c.Run.Dir, c.Env.Task, c.Env.Family)
	}
	// Untouched keys keep their defaults.
	if ppoOf(c).Gamma != ppoOf(ptr(Default())).Gamma || !math.IsNaN(c.Run.TargetReturn) {
		t.Errorf("defaults lost: gamma %v target %v", ppoOf(c).Gamma, c.Run.TargetReturn)
	}
}

// The resolved config reads back to the same config.
func TestEncodeRoundTrip(t *testing.T) {
	c, err := load(t, "[env]\ntask = \"Pendulum-v1\"\n[env.options]\ng = 9.8\n[net]\nhidden = [8]\n", "run.target_return=-200")
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	c2, err := load(t, string(b))
	if err != nil {
		t.Fatalf("resolved config does not load: %v\n%s", err, b)
	}
	b2, _ := c2.Encode()
	if string(b) != string(b2) {
		t.Errorf("round trip changed the config:\n%s\n---\n%s", b, b2)
	}
}

func TestCheckTaskHeadMismatch(t *testing.T) {
	c, err := load(t, "[net]\nhead = \"categorical\"\n")
	if err != nil {
		t.Fatal(err)
	}
	spec := envpool.Spec{TaskID: "Pendulum-v1", ObsSpace: envpool.UniformBox(-1, 1, envpool.Float32, 3),
		ActionSpace: envpool.BoxSpace([]float32{-2}, []float32{2})}
	err = c.CheckTask(&spec)
	if err == nil || !strings.Contains(err.Error(), "net.head") || !strings.Contains(err.Error(), "gaussian") {
		t.Errorf("categorical head on a box: error %v, want one naming net.head and gaussian", err)
	}
}

func TestShippedConfigsLoad(t *testing.T) {
	files, _ := filepath.Glob("../../configs/*.toml")
	if len(files) == 0 {
		t.Skip("no configs/*.toml found")
	}
	for _, f := range files {
		if _, err := Load(f, nil); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestRomsDirReachesTheFamily(t *testing.T) {
	e := EnvConfig{RomsDir: "/roms", Family: map[string]any{"frame_skip": 4}}
	m := e.FamilyOptions()
	if m["roms_dir"] != "/roms" || m["frame_skip"] != 4 || len(e.Family) != 1 {
		t.Fatalf("family options %v (config options %v)", m, e.Family)
	}
	e.Family["roms_dir"] = "/other"
	if e.FamilyOptions()["roms_dir"] != "/other" {
		t.Fatal("an explicit options.roms_dir must win")
	}
}

func ptr[T any](v T) *T { return &v }

// ppoOf returns a config's [ppo] section.
func ppoOf(c *Config) *ppo.Config { return c.Learners[ppo.Algo].(*ppo.Config) }
