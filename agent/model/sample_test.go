package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSampleCategoricalLogProb(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	logits := []float32{0.5, -1, 2}
	counts := make([]int, 3)
	for range 30000 {
		a, lp := SampleCategorical(logits, rng)
		counts[a]++
		z := math.Exp(0.5) + math.Exp(-1) + math.Exp(2)
		if want := float64(logits[a]) - math.Log(z); math.Abs(float64(lp)-want) > 1e-6 {
			t.Fatalf("log-prob of %d = %v, want %v", a, lp, want)
		}
	}
	z := math.Exp(0.5) + math.Exp(-1) + math.Exp(2)
	for i, c := range counts {
		p := math.Exp(float64(logits[i])) / z
		if math.Abs(float64(c)/30000-p) > 0.015 {
			t.Errorf("action %d drawn %.3f of the time, want %.3f", i, float64(c)/30000, p)
		}
	}
}
