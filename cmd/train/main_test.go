package main

import (
	"bytes"
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
