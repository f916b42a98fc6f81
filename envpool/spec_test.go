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
}
