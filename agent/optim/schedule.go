package optim

// Optimizer is what a learner steps once per minibatch: Adam or RMSProp over the dual
// values (gradients) of a graph's parameters, with global-norm clipping. Step returns
// the gradient norm before clipping.
type Optimizer interface {
	Step() (gradNorm float64, err error)
	SetLR(lr float64)
	LR() float64
	SaveState() State
	LoadState(State) error
}

var (
	_ Optimizer = (*Adam)(nil)
	_ Optimizer = (*RMSProp)(nil)
)

// Schedule is a linearly annealed value (a learning rate, PPO's clip coefficient):
// Base at the start and, with Anneal, Base x (1 - done/Horizon) after done units of
// progress (updates or env steps), never below 0. CleanRL's anneal_lr and IMPALA's
// learning-rate decay are both this schedule. A positive Warmup multiplies that by
// (done+1)/Warmup while done+1 < Warmup: a linear rise over the first Warmup units,
// the first at 1/Warmup of the value.
type Schedule struct {
	Base    float64
	Anneal  bool
	Horizon float64 // units of progress over which an annealed value reaches 0
	Warmup  float64 // units of progress of the linear warm-up; 0: none
}

// At returns the value after done units of progress.
func (s Schedule) At(done float64) float64 {
	v := s.Base
	if s.Anneal && s.Horizon > 0 {
		v *= max(0, 1-done/s.Horizon)
	}
	if s.Warmup > 0 && done+1 < s.Warmup {
		v *= (done + 1) / s.Warmup
	}
	return v
}

// Bounds and factor of AdaptKL (rl_games' AdaptiveScheduler).
const (
	AdaptMinLR  = 1e-6
	AdaptMaxLR  = 1e-2
	AdaptFactor = 1.5
)

// AdaptKL is rl_games' adaptive learning-rate schedule: the next epoch's rate from this
// epoch's mean approximate KL. Above twice the target the rate is divided by 1.5, below
// half of it multiplied by 1.5, within [1e-6, 1e-2]; in between it stays.
func AdaptKL(lr, kl, target float64) float64 {
	switch {
	case kl > 2*target:
		return max(lr/AdaptFactor, AdaptMinLR)
	case kl < target/2:
		return min(lr*AdaptFactor, AdaptMaxLR)
	}
	return lr
}
