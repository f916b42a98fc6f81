package impala

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestVTraceHandComputed checks V-trace on two unrolls worked out by hand.
//
// Unroll 0 has rho > 1 (clipped by rho_bar = 1.5 and by c_bar = 1.2 at t=0; c = 1.1
// unclipped at t=1) and an episode boundary at t=2 (gamma_2 = 0), gamma = 0.9:
//
//	rho      = [2.0, 1.1, 0.5, 1.3]   rho_bar_t = [1.5, 1.1, 0.5, 1.3]
//	c_t      = [1.2, 1.1, 0.5, 1.2]   min(rho_bar_pg=1, rho) = [1, 1, 0.5, 1]
//	gamma_t  = [0.9, 0.9, 0, 0.9]     r = [1, 0, 2, -1]
//	V(x_t)   = [0.5, 1, 1.5, 2]       V(x_4) = 3
//	delta_0 = 1.5 (1 + 0.9*1   - 0.5) =  2.1
//	delta_1 = 1.1 (0 + 0.9*1.5 - 1)   =  0.385
//	delta_2 = 0.5 (2 + 0*2     - 1.5) =  0.25
//	delta_3 = 1.3 (-1 + 0.9*3  - 2)   = -0.39
//	v_3 = 2   - 0.39                          = 1.61
//	v_2 = 1.5 + 0.25 + 0*0.5*(-0.39)          = 1.75   (the boundary cuts the trace)
//	v_1 = 1   + 0.385 + 0.9*1.1*0.25          = 1.6325
//	v_0 = 0.5 + 2.1 + 0.9*1.2*0.6325          = 3.2831
//	A_0 = 1   (1 + 0.9*1.6325 - 0.5)          = 1.96925
//	A_1 = 1   (0 + 0.9*1.75 - 1)              = 0.575
//	A_2 = 0.5 (2 + 0*1.61 - 1.5)              = 0.25
//	A_3 = 1   (-1 + 0.9*3 - 2)                = -0.3
//
// Unroll 1 is on-policy (rho = 1) with r = 1 at every step, V = [1, 2, 3, 4] and
// V(x_4) = 10: every v_s is the n-step return 1 + 0.9*10 = 10, and A_s = 10 - V(x_s).
func TestVTraceHandComputed(t *testing.T) {
	const T, B = 4, 2
	in := VTraceBatch{T: T, B: B,
		// Time-major: element t*B + b.
		LogRho:    []float64{math.Log(2.0), 0, math.Log(1.1), 0, math.Log(0.5), 0, math.Log(1.3), 0},
		Discount:  []float64{0.9, 0.9, 0.9, 0.9, 0, 0.9, 0.9, 0.9},
		Reward:    []float64{1, 1, 0, 1, 2, 1, -1, 1},
		Value:     []float64{0.5, 1, 1, 2, 1.5, 3, 2, 4},
		Bootstrap: []float64{3, 10},
	}
	vs, adv := make([]float64, T*B), make([]float64, T*B)
	if err := VTrace(VTraceParams{RhoBar: 1.5, CBar: 1.2, RhoBarPG: 1}, in, vs, adv); err != nil {
		t.Fatal(err)
	}
	wantVS := [][]float64{{3.2831, 1.6325, 1.75, 1.61}, {10, 10, 10, 10}}
	wantAdv := [][]float64{{1.96925, 0.575, 0.25, -0.3}, {9, 8, 7, 6}}
	for b := range B {
		for s := range T {
			i := s*B + b
			if math.Abs(vs[i]-wantVS[b][s]) > 1e-12 {
				t.Errorf("unroll %d: v_%d = %.10g, want %g", b, s, vs[i], wantVS[b][s])
			}
			if math.Abs(adv[i]-wantAdv[b][s]) > 1e-12 {
				t.Errorf("unroll %d: A_%d = %.10g, want %g", b, s, adv[i], wantAdv[b][s])
			}
		}
	}
}

// TestVTraceOnPolicyIsNStepReturn checks that with pi = mu (rho = 1, so no truncation
// applies) the targets are the n-step bootstrapped returns
// G_s = r_s + gamma_s G_{s+1}, G_T = V(x_T), and A_s = G_s - V(x_s), on random unrolls
// with random episode ends.
func TestVTraceOnPolicyIsNStepReturn(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		T, B := 1+rng.IntN(30), 1+rng.IntN(5)
		gamma := 0.5 + 0.5*rng.Float64()
		in := VTraceBatch{T: T, B: B, LogRho: make([]float64, T*B), Discount: make([]float64, T*B),
			Reward: make([]float64, T*B), Value: make([]float64, T*B), Bootstrap: make([]float64, B)}
		for i := range T * B {
			in.Discount[i] = gamma
			if rng.Float64() < 0.15 {
				in.Discount[i] = 0
			}
			in.Reward[i] = rng.NormFloat64()
			in.Value[i] = rng.NormFloat64()
		}
		for b := range B {
			in.Bootstrap[b] = rng.NormFloat64()
		}
		vs, adv := make([]float64, T*B), make([]float64, T*B)
		if err := VTrace(VTraceParams{RhoBar: 1, CBar: 1, RhoBarPG: 1}, in, vs, adv); err != nil {
			t.Fatal(err)
		}
		for b := range B {
			G := in.Bootstrap[b]
			for s := T - 1; s >= 0; s-- {
				i := s*B + b
				G = in.Reward[i] + in.Discount[i]*G
				if math.Abs(vs[i]-G) > 1e-9 {
					t.Fatalf("trial %d (T=%d B=%d) unroll %d: v_%d = %g, n-step return %g", trial, T, B, b, s, vs[i], G)
				}
				if math.Abs(adv[i]-(G-in.Value[i])) > 1e-9 {
					t.Fatalf("trial %d unroll %d: A_%d = %g, want G - V = %g", trial, b, s, adv[i], G-in.Value[i])
				}
			}
		}
	}
}

// TestVTraceRejectsBadShapes checks that mismatched slices are an error, not a panic.
func TestVTraceRejectsBadShapes(t *testing.T) {
	in := VTraceBatch{T: 2, B: 1, LogRho: make([]float64, 2), Discount: make([]float64, 2),
		Reward: make([]float64, 1), Value: make([]float64, 2), Bootstrap: make([]float64, 1)}
	if err := VTrace(VTraceParams{1, 1, 1}, in, make([]float64, 2), make([]float64, 2)); err == nil {
		t.Fatal("VTrace accepted a reward slice of the wrong length")
	}
}
