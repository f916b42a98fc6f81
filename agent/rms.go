package agent

import "math"

// RunningMeanStd tracks the mean and variance of a stream of vectors with the parallel
// (Chan et al.) update that Gymnasium's normalisation wrappers use, in float64.
type RunningMeanStd struct {
	Mean  []float64
	Var   []float64
	Count float64
}

// NewRunningMeanStd starts at mean 0, variance 1 and a tiny count (1e-4), as Gymnasium
// does, so that the first batch dominates without a division by zero.
func NewRunningMeanStd(dim int) *RunningMeanStd {
	r := &RunningMeanStd{Mean: make([]float64, dim), Var: make([]float64, dim), Count: 1e-4}
	for i := range r.Var {
		r.Var[i] = 1
	}
	return r
}

// Update folds a batch of n rows (row-major, len(rows) = n x dim) into the statistics.
func (r *RunningMeanStd) Update(rows []float32, n int) {
	if n == 0 {
		return
	}
	dim := len(r.Mean)
	for j := range dim {
		mean := 0.0
		for i := range n {
			mean += float64(rows[i*dim+j])
		}
		mean /= float64(n)
		v := 0.0
		for i := range n {
			d := float64(rows[i*dim+j]) - mean
			v += d * d
		}
		v /= float64(n)
		r.merge(j, mean, v, float64(n))
	}
	r.Count += float64(n)
}

// UpdateScalars folds a batch of scalars (dim must be 1).
func (r *RunningMeanStd) UpdateScalars(xs []float64) {
	if len(xs) == 0 {
		return
	}
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(xs))
	r.merge(0, mean, v, float64(len(xs)))
	r.Count += float64(len(xs))
}

// merge combines element j's statistics with a batch's (mean, var, count); Count is
// advanced by the caller once per batch.
func (r *RunningMeanStd) merge(j int, bMean, bVar, bCount float64) {
	delta := bMean - r.Mean[j]
	tot := r.Count + bCount
	r.Mean[j] += delta * bCount / tot
	m2 := r.Var[j]*r.Count + bVar*bCount + delta*delta*r.Count*bCount/tot
	r.Var[j] = m2 / tot
}

// Normalize writes clip((x - mean) / sqrt(var + 1e-8), -clip, clip) into dst; clip <= 0
// disables clipping.
func (r *RunningMeanStd) Normalize(x, dst []float32, clip float64) {
	dim := len(r.Mean)
	for i, v := range x {
		j := i % dim
		y := (float64(v) - r.Mean[j]) / math.Sqrt(r.Var[j]+1e-8)
		if clip > 0 {
			y = math.Max(-clip, math.Min(clip, y))
		}
		dst[i] = float32(y)
	}
}
