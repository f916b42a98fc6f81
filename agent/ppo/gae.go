package ppo

// Step is one transition of one env as GAE sees it.
type Step struct {
	Reward     float32
	Value      float32 // V(s_t) at acting time
	Terminated bool    // s_{t+1} is terminal: nothing to bootstrap
	Truncated  bool    // the episode was cut short (time limit): bootstrap from FinalValue
	FinalValue float32 // V of the final observation, for truncated steps
}

// GAE computes generalised advantage estimates (Schulman et al. 2016) for one env's
// consecutive transitions, writing advantages and returns (advantage + value).
//
// After a step that ends an episode the next step belongs to a new episode, so the
// recursion is cut there. The one-step target is
//
//	r_t + gamma V(s_{t+1})       within an episode (V(s_{t+1}) = next step's Value,
//	                             or lastValue after the final step),
//	r_t                          when the step terminated,
//	r_t + gamma FinalValue       when it was truncated and bootstrapTruncated is set,
//	r_t                          when truncated without bootstrapping (CleanRL's choice).
func GAE(steps []Step, lastValue float32, gamma, lambda float64, bootstrapTruncated bool, adv, ret []float32) {
	next := float64(lastValue)
	gaeNext := 0.0
	for t := len(steps) - 1; t >= 0; t-- {
		s := steps[t]
		var target float64
		switch {
		case s.Terminated:
			target = float64(s.Reward)
		case s.Truncated:
			target = float64(s.Reward)
			if bootstrapTruncated {
				target += gamma * float64(s.FinalValue)
			}
		default:
			target = float64(s.Reward) + gamma*next
		}
		delta := target - float64(s.Value)
		if s.Terminated || s.Truncated {
			gaeNext = delta
		} else {
			gaeNext = delta + gamma*lambda*gaeNext
		}
		adv[t] = float32(gaeNext)
		ret[t] = float32(gaeNext + float64(s.Value))
		next = float64(s.Value)
	}
}
