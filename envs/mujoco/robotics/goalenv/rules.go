package goalenv

import "math"

// Distance is the Euclidean distance between two goals of the same length
// (Gymnasium-Robotics' goal_distance).
func Distance(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return math.Sqrt(s)
}

// DistanceRule is the rule of the tasks whose goals are positions (Fetch, the hand's
// Reach): success when the distance is below Threshold, a sparse reward of -1 until
// then and 0 after, or a dense reward of minus the distance.
type DistanceRule struct {
	Threshold float64
	Dense     bool
}

// Reward is compute_reward: -distance when dense, else -1 when the distance is above
// the threshold and 0 otherwise.
func (r DistanceRule) Reward(achieved, desired []float64) float64 {
	d := Distance(achieved, desired)
	switch {
	case r.Dense:
		return -d
	case d > r.Threshold:
		return -1
	}
	return 0
}

// Success is _is_success: the distance is below the threshold.
func (r DistanceRule) Success(achieved, desired []float64) bool {
	return Distance(achieved, desired) < r.Threshold
}

// Distance is the info's distance: the goals' Euclidean distance.
func (r DistanceRule) Distance(achieved, desired []float64) float64 {
	return Distance(achieved, desired)
}
