package envs

import (
	"strings"
	"testing"
)

// DecodeOptions names a family's keys as options of "this task".
func TestDecodeOptionsWording(t *testing.T) {
	type opts struct {
		FrameSkip int  `toml:"frame_skip" range:"[1,1000]"`
		Sticky    bool `toml:"sticky"`
	}
	o := opts{FrameSkip: 4}
	err := DecodeOptions(map[string]any{"frame_skp": 2, "sticky": "yes"}, &o)
	for _, w := range []string{
		"unknown option frame_skp: this task takes: frame_skip, sticky (did you mean frame_skip?)",
		`option sticky = "yes": want true or false, got a string`,
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v lacks %q", err, w)
		}
	}
	if o.FrameSkip != 4 || o.Sticky {
		t.Errorf("defaults changed by a failed decode: %+v", o)
	}
	if err := DecodeOptions(map[string]any{"frame_skip": 0}, &o); err == nil || !strings.Contains(err.Error(), "option frame_skip = 0 is out of range: allowed >= 1 and <= 1000") {
		t.Errorf("frame_skip 0: %v", err)
	}
}

// FamilyOptions decodes each option it is asked for with the same rules, and calls
// every option no read asked for unknown.
func TestFamilyOptions(t *testing.T) {
	o := NewFamilyOptions(map[string]any{"scale": int64(2), "steps": 3.0, "range": []any{0.5, int64(1)},
		"name": 7, "ctrl_cost_weigth": 0.1})
	if got := o.Float("scale", 1); got != 2 {
		t.Errorf("scale = %v, want 2", got)
	}
	if got := o.Int("steps", 1); got != 3 {
		t.Errorf("steps = %v, want 3", got)
	}
	pair := [2]float64{-1, 1}
	if !o.Decode("range", &pair) || pair != [2]float64{0.5, 1} {
		t.Errorf("range = %v", pair)
	}
	if got := o.String("name", "x"); got != "x" {
		t.Errorf("a wrongly typed option gave %q, want the default", got)
	}
	o.Float("ctrl_cost_weight", 0.5)
	o.Check(false, "scale", "%v: too big", 2)
	err := o.Err()
	for _, w := range []string{
		"option name = 7: want a string, got an integer",
		"option scale: 2: too big",
		"unknown option ctrl_cost_weigth: this task takes: ctrl_cost_weight, name, range, scale, steps (did you mean ctrl_cost_weight?)",
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v lacks %q", err, w)
		}
	}
	if err := NewFamilyOptions(nil).Err(); err != nil {
		t.Errorf("no options: %v", err)
	}
}

// DecodeStruct reads a tagged struct's keys with their ranges, leaves absent keys at
// their defaults, and counts the struct's keys as known.
func TestFamilyOptionsDecodeStruct(t *testing.T) {
	type group struct {
		Size  int  `toml:"size" range:"[1,10]"`
		Stack int  `toml:"stack" range:"[1,4]"`
		Fast  bool `toml:"fast"`
	}
	o := NewFamilyOptions(map[string]any{"size": int64(5), "stack": int64(0), "other": 1})
	g := group{Size: 3, Stack: 2}
	o.DecodeStruct(&g)
	if g.Size != 5 || g.Fast {
		t.Errorf("decoded %+v, want size 5 and fast at its default", g)
	}
	err := o.Err()
	for _, w := range []string{"option stack = 0 is out of range", "unknown option other: this task takes: fast, size, stack"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v lacks %q", err, w)
		}
	}
}
