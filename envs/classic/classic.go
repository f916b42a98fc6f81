// Package classic holds Gymnasium's classic-control tasks (CartPole-v1, Acrobot-v1,
// MountainCar-v0, MountainCarContinuous-v0, Pendulum-v1; and Gym's CartPole-v0 and
// Pendulum-v0, which EnvPool also registers) with the dynamics of Gymnasium
// v0.29.1 in the same floating-point operation order, so trajectories match the Python
// ones to the last bit up to libm differences in sin and cos.
//
// Products are kept in separate float64 conversions so that no fused multiply-add is
// formed, and constants that Python computes at run time are computed at run time here.
package classic

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// pi is a variable so that expressions with it are evaluated step by step at run time,
// as Python evaluates them, instead of being folded exactly by the Go compiler.
var pi = math.Pi

const family = "classic"

// uniform draws from U(low, high) as numpy's Generator.uniform does: low + (high-low)*u.
func uniform(r *rand.Rand, low, high float64) float64 {
	return low + float64((high-low)*r.Float64())
}

func clip(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

// register adds a task with its time limit, reward threshold (NaN: none) and
// Gymnasium's metadata["render_fps"], the rate its pictures play at. Its options are the
// struct type O, at the values of defaults until the family option table says otherwise
// (see envs.DecodeOptions); build makes the task's spec and envs under the decoded
// options, or says why it cannot.
func register[O any](id string, maxSteps int, threshold, renderFPS float64, defaults O, build func(o O) (envpool.Spec, func(seed int64) envpool.Env, error)) {
	envs.RegisterStruct(envs.TaskInfo{ID: id, Family: family, MaxEpisodeSteps: maxSteps, RewardThreshold: threshold, RenderFPS: renderFPS}, defaults, build)
}

// noOptions is the options of a task that takes none.
type noOptions struct{}

// cartPoleOptions are CartPole-v1's constructor options (Gymnasium's keyword arguments).
type cartPoleOptions struct {
	SuttonBartoReward bool `toml:"sutton_barto_reward" help:"reward 0 per step and -1 on failure (Sutton and Barto's), not 1 per step"`
}

// mountainCarOptions are the options of both MountainCar tasks.
type mountainCarOptions struct {
	GoalVelocity float64 `toml:"goal_velocity" help:"velocity the car must have at the flag for the episode to end"`
}

// pendulumOptions are Pendulum-v1's options.
type pendulumOptions struct {
	G float64 `toml:"g" help:"acceleration of gravity (positive)"`
}

func init() {
	// CartPole-v0 is the same task with Gym's first time limit and threshold.
	for _, v := range []struct {
		id        string
		steps     int
		threshold float64
	}{{"CartPole-v1", 500, 475}, {"CartPole-v0", 200, 195}} {
		register(v.id, v.steps, v.threshold, 50, cartPoleOptions{}, func(o cartPoleOptions) (envpool.Spec, func(int64) envpool.Env, error) {
			return cartPoleSpec(), func(seed int64) envpool.Env { return newCartPole(seed, o.SuttonBartoReward) }, nil
		})
	}
	register("Acrobot-v1", 500, -100, 15, noOptions{}, func(noOptions) (envpool.Spec, func(int64) envpool.Env, error) {
		return acrobotSpec(), func(seed int64) envpool.Env { return newAcrobot(seed) }, nil
	})
	register("MountainCar-v0", 200, -110, 30, mountainCarOptions{}, func(o mountainCarOptions) (envpool.Spec, func(int64) envpool.Env, error) {
		return mountainCarSpec(), func(seed int64) envpool.Env { return newMountainCar(seed, o.GoalVelocity) }, nil
	})
	register("MountainCarContinuous-v0", 999, 90, 30, mountainCarOptions{}, func(o mountainCarOptions) (envpool.Spec, func(int64) envpool.Env, error) {
		return mountainCarContinuousSpec(), func(seed int64) envpool.Env { return newMountainCarContinuous(seed, o.GoalVelocity) }, nil
	})
	// Pendulum-v0 is Gym's first version: the angle advances by the speed before the
	// speed is clipped (v1 advances it by the clipped speed).
	for _, v := range []struct {
		id          string
		unclippedTh bool
	}{{"Pendulum-v1", false}, {"Pendulum-v0", true}} {
		register(v.id, 200, math.NaN(), 30, pendulumOptions{G: 10}, func(o pendulumOptions) (envpool.Spec, func(int64) envpool.Env, error) {
			// Not a range tag: the message says why, as Gymnasium users know it.
			if !(o.G > 0) {
				return envpool.Spec{}, nil, fmt.Errorf("option g: gravity must be positive, got %v", o.G)
			}
			return pendulumSpec(), func(seed int64) envpool.Env {
				e := newPendulum(seed, o.G)
				e.unclippedTh = v.unclippedTh
				return e
			}, nil
		})
	}
}

// writeObs copies a float64 state into a float32 observation row.
func writeObs(dst []float32, src ...float64) {
	for i, v := range src {
		dst[i] = float32(v)
	}
}
