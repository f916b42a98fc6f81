package config

import (
	"strings"
	"testing"
)

// The network kind moved from the learner sections to [net]: the old keys are still
// read (from a file and from -set), each with one note, from run.algo's section only;
// a file that sets the old and the new key to different values is an error naming
// both, and a later -set still wins over the file.
func TestDeprecatedNetworkKey(t *testing.T) {
	cases := []struct {
		name, text string
		sets       []string
		want       string // net.network after loading
		notes      []string
		err        []string
	}{
		{name: "ppo.network", text: "[ppo]\nnetwork = \"mlp\"\n", want: "mlp", notes: []string{"ppo.network is deprecated: read as net.network"}},
		{name: "same value twice", text: "[ppo]\nnetwork = \"mlp\"\n[net]\nnetwork = \"mlp\"\n", want: "mlp", notes: []string{"ppo.network is deprecated"}},
		{name: "impala.network under impala", text: "[run]\nalgo = \"impala\"\n[impala]\nnetwork = \"mlp\"\n[ppo]\nnetwork = \"nature_cnn\"\n",
			want: "mlp", notes: []string{"impala.network is deprecated"}},
		{name: "another learner's key is dropped", text: "[impala]\nnetwork = \"nature_cnn\"\n", want: "auto"},
		{name: "-set ppo.network", sets: []string{"ppo.network=small_cnn"}, want: "small_cnn", notes: []string{"ppo.network is deprecated"}},
		{name: "-set wins over the file", text: "[ppo]\nnetwork = \"mlp\"\n", sets: []string{"net.network=nature_cnn"}, want: "nature_cnn",
			notes: []string{"ppo.network is deprecated"}},
		{name: "new key", text: "[net]\nnetwork = \"mlp\"\n", want: "mlp"},
		{name: "both keys, different values", text: "[ppo]\nnetwork = \"mlp\"\n[net]\nnetwork = \"nature_cnn\"\n",
			err: []string{`ppo.network = "mlp" and net.network = "nature_cnn" disagree`, "set net.network only"}},
	}
	for _, c := range cases {
		cfg, err := load(t, c.text, c.sets...)
		if c.err != nil {
			if err == nil {
				t.Errorf("%s: no error", c.name)
				continue
			}
			for _, w := range c.err {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: error %q does not say %q", c.name, err, w)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if cfg.Net.Network != c.want {
			t.Errorf("%s: net.network = %q, want %q", c.name, cfg.Net.Network, c.want)
		}
		if len(cfg.Notes) != len(c.notes) {
			t.Errorf("%s: notes %q, want %d", c.name, cfg.Notes, len(c.notes))
			continue
		}
		for i, w := range c.notes {
			if !strings.Contains(cfg.Notes[i], w) {
				t.Errorf("%s: note %q does not say %q", c.name, cfg.Notes[i], w)
			}
		}
		// The config a run writes names the network in [net] only.
		text, err := cfg.Encode()
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(text, "encoded", nil)
		if err != nil {
			t.Errorf("%s: re-read encoded config: %v", c.name, err)
		} else if again.Net.Network != c.want || len(again.Notes) != 0 {
			t.Errorf("%s: re-read encoded config: net.network %q, notes %q", c.name, again.Net.Network, again.Notes)
		}
	}
}
