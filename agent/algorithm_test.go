package agent

import (
	"strings"
	"testing"

	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

type toyConfig struct{ Rate float64 }

// Erase hands each typed function the learner's own section, checks its type, and
// treats a missing Check or CheckSpec as "nothing to check".
func TestAlgorithmOfErase(t *testing.T) {
	var got *toyConfig
	a := AlgorithmOf[toyConfig]{
		Name:     "toy",
		Defaults: func() toyConfig { return toyConfig{Rate: 0.5} },
		New: func(_ Setup, c *toyConfig) (Learner, error) {
			got = c
			return nil, nil
		},
		Policy: func(c *toyConfig, _ model.NetConfig, _ *envpool.Spec, _ *Checkpoint) (*Trained, error) {
			got = c
			return &Trained{}, nil
		},
	}.Erase()
	cfg := a.NewConfig()
	if c, ok := cfg.(*toyConfig); !ok || c.Rate != 0.5 {
		t.Fatalf("NewConfig = %#v, want *toyConfig with the defaults", cfg)
	}
	if _, err := a.New(Setup{}, cfg); err != nil || got != cfg {
		t.Fatalf("New got section %p (err %v), want %p", got, err, cfg)
	}
	if err := a.Check(cfg, envpool.Options{}); err != nil {
		t.Errorf("Check without a check function: %v", err)
	}
	if err := a.CheckSpec(cfg, model.NetConfig{}, &envpool.Spec{}); err != nil {
		t.Errorf("CheckSpec without a check function: %v", err)
	}
	if _, err := a.Policy(cfg, model.NetConfig{}, &envpool.Spec{}, nil); err != nil || got != cfg {
		t.Fatalf("Policy got section %p (err %v)", got, err)
	}
	wrong := &struct{}{}
	for name, err := range map[string]error{
		"New":       func() error { _, err := a.New(Setup{}, wrong); return err }(),
		"Check":     a.Check(wrong, envpool.Options{}),
		"CheckSpec": a.CheckSpec(wrong, model.NetConfig{}, &envpool.Spec{}),
		"Policy":    func() error { _, err := a.Policy(wrong, model.NetConfig{}, nil, nil); return err }(),
	} {
		if err == nil || !strings.Contains(err.Error(), "learner toy got a config section") {
			t.Errorf("%s with another learner's section: %v", name, err)
		}
	}
}
