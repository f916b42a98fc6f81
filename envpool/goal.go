package envpool

import "fmt"

// Observation entries of a goal-conditioned task (Gymnasium-Robotics' GoalEnv): its
// ObsLayout names these three slices of the flat observation.
const (
	GoalObservation  = "observation"   // the robot's and objects' state
	GoalAchieved     = "achieved_goal" // the goal the current state reaches
	GoalDesired      = "desired_goal"  // the goal the episode asks for
	goalRewardPrefix = "envpool: GoalReward"
)

// GoalRewarder is an optional capability of goal-conditioned envs (Fetch, the Shadow
// hand, PointMaze): ComputeReward returns the reward the env gives when the state
// reaches achieved and the episode's goal is desired, both as laid out in the
// observation's achieved_goal and desired_goal entries. It is Gymnasium's
// compute_reward for one pair: learners that relabel goals after the fact (hindsight
// experience replay) recompute rewards with it without stepping the env. It depends on
// the task (sparse or dense, its distance threshold), never on the env's state, so it
// may be called while the env is in flight.
type GoalRewarder interface {
	ComputeReward(achieved, desired []float32) float32
}

// GoalReward returns env i's reward for reaching achieved when desired is the goal,
// for tasks whose envs are GoalRewarders. Both slices must be as long as the
// observation's achieved_goal entry.
func (p *Pool) GoalReward(i int, achieved, desired []float32) (float32, error) {
	if p.closed {
		return 0, ErrClosed
	}
	if i < 0 || i >= p.opts.NumEnvs {
		return 0, fmt.Errorf("%s: env id %d out of range [0, %d)", goalRewardPrefix, i, p.opts.NumEnvs)
	}
	g, ok := p.envs[i].(GoalRewarder)
	if !ok {
		return 0, fmt.Errorf("%s: task %s is not goal-conditioned (no compute_reward)", goalRewardPrefix, p.spec.TaskID)
	}
	n := -1
	for _, f := range p.spec.ObsLayout {
		if f.Name == GoalAchieved {
			n = f.Size
		}
	}
	if n < 0 {
		return 0, fmt.Errorf("%s: task %s has no %s entry in its observation", goalRewardPrefix, p.spec.TaskID, GoalAchieved)
	}
	if len(achieved) != n || len(desired) != n {
		return 0, fmt.Errorf("%s: goals of %d and %d values, want %d each (the %s entry of %s)", goalRewardPrefix, len(achieved), len(desired), n, GoalAchieved, p.spec.TaskID)
	}
	return g.ComputeReward(achieved, desired), nil
}
