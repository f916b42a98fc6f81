package agent

import (
	"math"
	"testing"
)

// Explained variance by hand: targets 1, 2, 3, 4 (variance 1.25 about 2.5). Predictions
// off by 1, -1, 1, -1 leave residual variance 1 (mean 0): 1 - 1/1.25 = 0.2. A constant
// prediction explains nothing (0), exact predictions everything (1), and targets that
// do not vary give NaN.
func TestExplainedVariance(t *testing.T) {
	y := []float64{1, 2, 3, 4}
	for _, c := range []struct {
		pred []float64
		want float64
	}{
		{[]float64{0, 3, 2, 5}, 0.2},
		{[]float64{7, 7, 7, 7}, 0},
		{[]float64{1, 2, 3, 4}, 1},
		{[]float64{4, 3, 2, 1}, -3}, // residuals -3,-1,1,3: variance 5, 1 - 5/1.25
	} {
		if got := ExplainedVariance(y, c.pred); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ExplainedVariance(%v, %v) = %g, want %g", y, c.pred, got, c.want)
		}
	}
	if got := ExplainedVariance([]float32{2, 2}, []float32{1, 3}); !math.IsNaN(got) {
		t.Errorf("constant targets: %g, want NaN", got)
	}
}
