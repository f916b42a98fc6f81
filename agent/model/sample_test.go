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

// Temper divides logits by the temperature into dst (in place too), and hands the
// logits back untouched at 1 and 0.
func TestTemper(t *testing.T) {
	logits := []float32{0.5, -1, 2}
	dst := make([]float32, 3)
	got := Temper(dst, logits, 0.25)
	if want := []float32{2, -4, 8}; &got[0] != &dst[0] || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Temper(0.25) = %v into dst %v, want %v in dst", got, dst, want)
	}
	for _, temp := range []float64{1, 0} {
		if got := Temper(dst, logits, temp); &got[0] != &logits[0] || got[2] != 2 {
			t.Errorf("Temper(%g) = %v, want the logits themselves", temp, got)
		}
	}
	Temper(logits, logits, 0.5)
	if logits[0] != 1 || logits[1] != -2 || logits[2] != 4 {
		t.Errorf("in place at 0.5: %v, want [1 -2 4]", logits)
	}
}
