package impala

import (
	"fmt"
	"math"
)

// VTraceParams are the truncation levels of V-trace (Espeholt et al. 2018, section 4.1):
// rho_bar bounds the importance weights of the TD errors (it sets which policy's value
// function v_s estimates), c_bar bounds the trace-cutting weights (how far corrections
// propagate), rho_bar_pg bounds the weights of the policy-gradient advantages. The
// paper's defaults are all 1.
type VTraceParams struct {
	RhoBar   float64
	CBar     float64
	RhoBarPG float64
}

// VTraceBatch is one batch of B unrolls of length T, time-major: element t*B+b is step t
// of unroll b. Every slice but Bootstrap holds T*B values.
type VTraceBatch struct {
	T, B int
	// LogRho is log rho_t = log pi(a_t|x_t) - log mu(a_t|x_t): target over behaviour.
	LogRho []float64
	// Discount is gamma_t = gamma (1 - done_t): 0 where the step ended an episode, which
	// cuts the trace at the episode boundary.
	Discount []float64
	// Reward is r_t, the reward of taking a_t in x_t.
	Reward []float64
	// Value is V(x_t) under the learner's current value function.
	Value []float64
	// Bootstrap is V(x_T) of each unroll (B values): the value after its last step.
	Bootstrap []float64
}

// VTrace computes the V-trace value targets v_s and the policy-gradient advantages
// A_s of a batch, writing T*B values into vs and pgAdv (docs/design/algorithms.md):
//
//	rho_t     = pi(a_t|x_t) / mu(a_t|x_t)
//	rho_bar_t = min(rho_bar, rho_t),  c_t = min(c_bar, rho_t)
//	delta_t   = rho_bar_t (r_t + gamma_t V(x_{t+1}) - V(x_t))
//	v_s - V(x_s) = delta_s + gamma_s c_s (v_{s+1} - V(x_{s+1})),  v_T = V(x_T)
//	A_s       = min(rho_bar_pg, rho_s) (r_s + gamma_s v_{s+1} - V(x_s))
//
// The recursion runs backwards over time; everything is float64 so that long unrolls
// lose no precision. Both outputs are constants for the gradient (the learner's loss
// treats them so).
func VTrace(p VTraceParams, in VTraceBatch, vs, pgAdv []float64) error {
	T, B := in.T, in.B
	n := T * B
	if T < 1 || B < 1 {
		return fmt.Errorf("impala: V-trace needs T >= 1 and B >= 1, got T=%d B=%d", T, B)
	}
	for _, s := range [][]float64{in.LogRho, in.Discount, in.Reward, in.Value, vs, pgAdv} {
		if len(s) != n {
			return fmt.Errorf("impala: V-trace slices must hold T*B = %d values, got %d", n, len(s))
		}
	}
	if len(in.Bootstrap) != B {
		return fmt.Errorf("impala: V-trace bootstrap must hold B = %d values, got %d", B, len(in.Bootstrap))
	}
	for b := range B {
		// acc is v_{t+1} - V(x_{t+1}); it is 0 past the end, where v_T = V(x_T).
		acc := 0.0
		for t := T - 1; t >= 0; t-- {
			i := t*B + b
			rho := math.Exp(in.LogRho[i])
			rhoBar := math.Min(p.RhoBar, rho)
			c := math.Min(p.CBar, rho)
			gamma := in.Discount[i]
			vNext := in.Bootstrap[b] // V(x_{t+1})
			if t+1 < T {
				vNext = in.Value[i+B]
			}
			delta := rhoBar * (in.Reward[i] + gamma*vNext - in.Value[i])
			acc = delta + gamma*c*acc
			vs[i] = in.Value[i] + acc
		}
		for t := range T {
			i := t*B + b
			vsNext := in.Bootstrap[b] // v_{t+1}, with v_T = V(x_T)
			if t+1 < T {
				vsNext = vs[i+B]
			}
			rhoPG := math.Min(p.RhoBarPG, math.Exp(in.LogRho[i]))
			pgAdv[i] = rhoPG * (in.Reward[i] + in.Discount[i]*vsNext - in.Value[i])
		}
	}
	return nil
}
