package envs_test

import (
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envs"
	_ "github.com/rlpool/rlpool/envs/all"
)

// TestLookupSuggests checks that a mistyped task id names the nearest ids instead of
// listing every task.
func TestLookupSuggests(t *testing.T) {
	cases := []struct {
		id   string
		want []string // must appear in the message
	}{
		{"Pong-v4", []string{`unknown task "Pong-v4"`, "did you mean Pong-v5?"}},
		{"pong-v5", []string{"did you mean Pong-v5?"}},
		// The nearest id first; Gym's CartPole-v0 is one edit further.
		{"cartpole-v1", []string{"did you mean CartPole-v1, CartPole-v0?"}},
		{"Breakot-v5", []string{"did you mean Breakout-v5?"}},
		{"pong", []string{"did you mean Pong-v5?"}},
		{"Cartpole", []string{"did you mean CartPole-v0, CartPole-v1?"}},
	}
	for _, c := range cases {
		_, err := envs.Lookup(c.id)
		if err == nil {
			t.Fatalf("Lookup(%q) succeeded", c.id)
		}
		msg := err.Error()
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("Lookup(%q) = %q; want it to contain %q", c.id, msg, w)
			}
		}
		if !strings.Contains(msg, "train bench -list") {
			t.Errorf("Lookup(%q) = %q; want a pointer to `train bench -list`", c.id, msg)
		}
		if strings.Count(msg, "-v") > 4 {
			t.Errorf("Lookup(%q) = %q: more than 3 suggestions", c.id, msg)
		}
	}
	// Far from everything: no suggestion, still the pointer to the list.
	_, err := envs.Lookup("NoSuchThingAtAll-v9")
	if err == nil || strings.Contains(err.Error(), "did you mean") || !strings.Contains(err.Error(), "train bench -list") {
		t.Errorf("Lookup of a far id = %v", err)
	}
	// At most three, nearest first.
	_, err = envs.Lookup("Pong-v")
	if msg := err.Error(); !strings.Contains(msg, "did you mean Pong-v5") {
		t.Errorf("Lookup(Pong-v) = %q", msg)
	} else if n := strings.Count(msg[strings.Index(msg, "did you mean"):], ","); n > 2 {
		t.Errorf("Lookup(Pong-v) = %q: more than 3 suggestions", msg)
	}
}
