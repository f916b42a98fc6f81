package config

import (
	"strings"
	"testing"
)

// TestEntriesCoverTheSchema checks that Entries lists every key the loader accepts
// (learner sections included), each with a type, a default and help, and that each
// entry's key can be set with -set.
func TestEntriesCoverTheSchema(t *testing.T) {
	es := Entries()
	seen := map[string]bool{}
	for _, e := range es {
		if seen[e.Key] {
			t.Errorf("%s listed twice", e.Key)
		}
		seen[e.Key] = true
		if e.Help == "" || e.Type == "" || e.Default == "" {
			t.Errorf("entry %+v lacks help, type or default", e)
		}
	}
	for _, a := range Algorithms {
		if !seen[a.Name+".learning_rate"] && !hasPrefix(es, a.Name+".") {
			t.Errorf("no keys of learner section [%s]", a.Name)
		}
	}
	for _, k := range []string{"run.total_steps", "env.num_envs", "env.options", "net.hidden", "ppo.clip_coef"} {
		if !seen[k] {
			t.Errorf("Entries lacks %s", k)
		}
	}
	// Every scalar key takes its own default back through -set.
	for _, e := range es {
		if e.Type == "table" {
			continue
		}
		v := strings.Trim(e.Default, `"`)
		if strings.HasPrefix(e.Default, "[") {
			v = strings.Trim(e.Default, "[]")
		}
		if _, err := applyOverrideOnly(e.Key + "=" + v); err != nil {
			t.Errorf("-set %s=%s: %v", e.Key, v, err)
		}
	}
}

func applyOverrideOnly(o string) (map[string]any, error) {
	raw := map[string]any{}
	return raw, applyOverride(raw, o)
}

func hasPrefix(es []Entry, p string) bool {
	for _, e := range es {
		if strings.HasPrefix(e.Key, p) {
			return true
		}
	}
	return false
}

func TestDescribe(t *testing.T) {
	es, err := Describe("ppo.clip_coef")
	if err != nil || len(es) != 1 || es[0].Key != "ppo.clip_coef" || es[0].Allowed == "" {
		t.Errorf("Describe(ppo.clip_coef) = %+v, %v", es, err)
	}
	if es, err := Describe("run"); err != nil || len(es) < 5 {
		t.Errorf("Describe(run) = %d entries, %v", len(es), err)
	}
	if _, err := Describe("ppo.clip_cof"); err == nil || !strings.Contains(err.Error(), "did you mean ppo.clip_coef") {
		t.Errorf("Describe(ppo.clip_cof): %v", err)
	}
	if _, err := Describe("nett.hidden"); err == nil || !strings.Contains(err.Error(), "did you mean net") {
		t.Errorf("Describe(nett.hidden): %v", err)
	}
}
