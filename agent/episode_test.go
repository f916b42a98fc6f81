package agent

import (
	"math"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

// TestSuccessTracker checks both conventions on the same flags: with "success" an
// episode that set the flag at any step succeeded; with "is_success" only its last
// step counts. Tasks without a flag report NaN.
func TestSuccessTracker(t *testing.T) {
	flags := [][]float32{{0, 1, 0}, {0, 0, 1}, {0, 0, 0}, {1, 1, 1}}
	for _, c := range []struct {
		key  string
		want []float64
	}{{"success", []float64{1, 1, 0, 1}}, {"is_success", []float64{0, 1, 0, 1}}} {
		spec := &envpool.Spec{InfoKeys: []string{"distance", c.key}}
		tr := NewSuccessTracker(spec, 2)
		for ep, f := range flags {
			for _, v := range f {
				tr.Step(1, []float32{0.5, v})
			}
			if got := tr.Take(1); got != c.want[ep] {
				t.Errorf("%s: episode of flags %v counted %v, want %v", c.key, f, got, c.want[ep])
			}
		}
		tr.Step(0, []float32{0, 1})
		st := tr.State()
		tr2 := NewSuccessTracker(spec, 2)
		tr2.Restore(st)
		if st[0] != 1 || st[1] != 0 || tr2.Take(0) != 1 {
			t.Errorf("%s: state %v did not round-trip", c.key, st)
		}
	}
	none := NewSuccessTracker(&envpool.Spec{InfoKeys: []string{"distance"}}, 1)
	none.Step(0, []float32{1})
	if !math.IsNaN(none.Take(0)) {
		t.Error("a task without a success flag reported a success")
	}
}
