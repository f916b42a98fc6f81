package agent

import "math"

// ExplainedVariance returns 1 - Var(targets - preds) / Var(targets), the share of the
// targets' variance a value function accounts for: 1 is perfect, 0 no better than a
// constant, negative worse; NaN when the targets do not vary. Both learners log it.
func ExplainedVariance[T float32 | float64](targets, preds []T) float64 {
	n := float64(len(targets))
	var my, md float64
	for i, y := range targets {
		my += float64(y)
		md += float64(y - preds[i])
	}
	my, md = my/n, md/n
	var vy, vd float64
	for i, y := range targets {
		dy := float64(y) - my
		d := float64(y-preds[i]) - md
		vy += dy * dy
		vd += d * d
	}
	if vy == 0 {
		return math.NaN()
	}
	return 1 - vd/vy
}
