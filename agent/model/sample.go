package model

import (
	"math"
	"math/rand/v2"
)

// Sample draws an action for one row of head outputs (logits or means), writes it into
// act (1 element for categorical, ActDim for Gaussian) and returns its log-probability.
// Gaussian actions are left unclipped: they are clipped to the action space only when
// sent to the env, so the stored action matches its log-probability.
func (p *Policy) Sample(out []float32, rng *rand.Rand, act []float32) float32 {
	if p.Head == HeadCategorical {
		a, lp := SampleCategorical(out, rng)
		act[0] = float32(a)
		return lp
	}
	ls := p.LogStd.F32()
	lp := 0.0
	for i, mu := range out {
		z := rng.NormFloat64()
		act[i] = float32(float64(mu) + math.Exp(float64(ls[i]))*z)
		// log-prob of the stored (float32) action, as the training graph will see it.
		zz := (float64(act[i]) - float64(mu)) / math.Exp(float64(ls[i]))
		lp += -0.5*zz*zz - float64(ls[i]) - 0.5*math.Log(2*math.Pi)
	}
	return float32(lp)
}

// Greedy writes the most likely action of one row (argmax or the mean) into act.
func (p *Policy) Greedy(out []float32, act []float32) {
	if p.Head == HeadCategorical {
		best := 0
		for i, v := range out {
			if v > out[best] {
				best = i
			}
		}
		act[0] = float32(best)
		return
	}
	copy(act, out)
}

// Temper returns a row of logits as a policy at sampling temperature t samples from
// them: logits / t written into dst, or logits itself at t = 1 (and at 0, no
// temperature set). dst may be logits.
func Temper(dst, logits []float32, t float64) []float32 {
	if t == 1 || t == 0 {
		return logits
	}
	for i, v := range logits {
		dst[i] = float32(float64(v) / t)
	}
	return dst[:len(logits)]
}

// SampleCategorical draws from softmax(logits) by inverse CDF and returns the index and
// its log-probability.
func SampleCategorical(logits []float32, rng *rand.Rand) (int, float32) {
	m, sum := SoftmaxShift(logits)
	lse := m + math.Log(sum)
	u := rng.Float64()
	c := 0.0
	a := len(logits) - 1
	for i, v := range logits {
		c += math.Exp(float64(v) - lse)
		if u < c {
			a = i
			break
		}
	}
	return a, float32(float64(logits[a]) - lse)
}

// SoftmaxShift returns the largest logit m and the sum of exp(logit - m): softmax(z)
// is exp(z - m) / sum without overflow, and log softmax(z)[a] is z[a] - m - log(sum).
func SoftmaxShift(logits []float32) (m, sum float64) {
	m = math.Inf(-1)
	for _, v := range logits {
		m = math.Max(m, float64(v))
	}
	for _, v := range logits {
		sum += math.Exp(float64(v) - m)
	}
	return m, sum
}
