package envpool

import (
	"strings"
	"testing"
)

// TestObsLayoutScalar: a layout entry marked scalar must hold exactly one value.
func TestObsLayoutScalar(t *testing.T) {
	box := BoxSpace(make([]float32, 3), []float32{1, 1, 1})
	ok := Spec{TaskID: "t", ObsSpace: box, ActionSpace: box, ObsLayout: []ObsField{
		{Name: "pos", Offset: 0, Size: 2}, {Name: "height", Offset: 2, Size: 1, Scalar: true}}}
	if err := ok.validate(); err != nil {
		t.Fatalf("one-value scalar refused: %v", err)
	}
	bad := Spec{TaskID: "t", ObsSpace: box, ActionSpace: box, ObsLayout: []ObsField{
		{Name: "pos", Offset: 0, Size: 2, Scalar: true}, {Name: "height", Offset: 2, Size: 1}}}
	if err := bad.validate(); err == nil || !strings.Contains(err.Error(), `"pos" is a scalar but has 2 values`) {
		t.Fatalf("two-value scalar: got %v", err)
	}
	// Stacked: a scalar of 3 frames holds 3 values, a vector's values split into frames.
	stacked := Spec{TaskID: "t", ObsSpace: box, ActionSpace: box, ObsLayout: []ObsField{
		{Name: "height", Offset: 0, Size: 3, Scalar: true, Frames: 3}}}
	if err := stacked.validate(); err != nil {
		t.Fatalf("3-frame scalar refused: %v", err)
	}
	uneven := Spec{TaskID: "t", ObsSpace: box, ActionSpace: box, ObsLayout: []ObsField{
		{Name: "pos", Offset: 0, Size: 3, Frames: 2}}}
	if err := uneven.validate(); err == nil || !strings.Contains(err.Error(), "not a whole number of its 2 frames") {
		t.Fatalf("3 values in 2 frames: got %v", err)
	}
	// A shaped entry: its frames hold the shape's values.
	six := BoxSpace(make([]float32, 6), []float32{1, 1, 1, 1, 1, 1})
	shaped := Spec{TaskID: "t", ObsSpace: six, ActionSpace: box, ObsLayout: []ObsField{
		{Name: "view", Offset: 0, Size: 6, Shape: []int{1, 2, 3}}}}
	if err := shaped.validate(); err != nil {
		t.Fatalf("shape 1x2x3 of 6 values refused: %v", err)
	}
	shaped.ObsLayout[0].Shape = []int{2, 2}
	if err := shaped.validate(); err == nil || !strings.Contains(err.Error(), "not 1 frames of shape [2 2]") {
		t.Fatalf("shape 2x2 of 6 values: got %v", err)
	}
}

// TestInfoArrays: array info keys take InfoLens columns, consecutively in key order, and
// a pool's batches carry the whole width per row, written by the env.
func TestInfoArrays(t *testing.T) {
	box := BoxSpace(make([]float32, 2), []float32{1, 1})
	s := Spec{TaskID: "t", ObsSpace: box, ActionSpace: box,
		InfoKeys: []string{"a", "ram", "b", "q"}, InfoLens: []int{1, 4, 0, 3}}
	if err := s.validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key      string
		first, n int
	}{{"a", 0, 1}, {"ram", 1, 4}, {"b", 5, 1}, {"q", 6, 3}, {"none", -1, 0}} {
		if first, n := s.InfoSpan(c.key); first != c.first || n != c.n || s.InfoIndex(c.key) != c.first {
			t.Errorf("%s: span (%d, %d), want (%d, %d)", c.key, first, n, c.first, c.n)
		}
	}
	if w := s.InfoWidth(); w != 9 {
		t.Errorf("width %d, want 9", w)
	}
	scalars := Spec{InfoKeys: []string{"x", "y"}}
	if w, at := scalars.InfoWidth(), scalars.InfoIndex("y"); w != 2 || at != 1 {
		t.Errorf("scalars only: width %d, y at %d", w, at)
	}
	for _, bad := range []Spec{
		{TaskID: "t", ObsSpace: box, ActionSpace: box, InfoKeys: []string{"a"}, InfoLens: []int{1, 2}},
		{TaskID: "t", ObsSpace: box, ActionSpace: box, InfoKeys: []string{"a"}, InfoLens: []int{-2}},
	} {
		if err := bad.validate(); err == nil || !strings.Contains(err.Error(), "info") {
			t.Errorf("InfoLens %v for keys %v: got %v", bad.InfoLens, bad.InfoKeys, err)
		}
	}
	b := newStateBuffer(&s, 3, false).batch
	if b.InfoSize != 9 || len(b.Info) != 27 || len(b.InfoRow(2)) != 9 {
		t.Fatalf("batch info size %d, %d values, row of %d", b.InfoSize, len(b.Info), len(b.InfoRow(2)))
	}
}
