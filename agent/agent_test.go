package agent

import (
	"math"
	"testing"
)

func TestRunningMeanStd(t *testing.T) {
	r := NewRunningMeanStd(2)
	data := []float32{1, 10, 2, 20, 3, 30, 4, 40}
	r.Update(data[:4], 2)
	r.Update(data[4:], 2)
	// Mean and population variance of {1,2,3,4} and {10,20,30,40}, up to the 1e-4 prior.
	if math.Abs(r.Mean[0]-2.5) > 1e-3 || math.Abs(r.Mean[1]-25) > 1e-2 {
		t.Errorf("mean %v", r.Mean)
	}
	if math.Abs(r.Var[0]-1.25) > 1e-3 || math.Abs(r.Var[1]-125) > 1e-1 {
		t.Errorf("var %v", r.Var)
	}
	dst := make([]float32, 2)
	r.Normalize([]float32{100, 25}, dst, 5)
	if dst[0] != 5 || math.Abs(float64(dst[1])) > 1e-3 {
		t.Errorf("normalize: %v, want [5 (clipped) ~0]", dst)
	}
}
