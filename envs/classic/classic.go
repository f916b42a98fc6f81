// Package classic holds Gymnasium's classic-control tasks (CartPole-v1, Acrobot-v1,
// MountainCar-v0, MountainCarContinuous-v0, Pendulum-v1) with the dynamics of Gymnasium
// v0.29.1 in the same floating-point operation order, so trajectories match the Python
// ones to the last bit up to libm differences in sin and cos.
//
// Products are kept in separate float64 conversions so that no fused multiply-add is
// formed, and constants that Python computes at run time are computed at run time here.
package classic

import (
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
// Gymnasium's metadata["render_fps"], the rate its pictures play at.
func register(id string, maxSteps int, threshold, renderFPS float64, build func(o *envs.FamilyOptions) (envpool.Spec, func(seed int64) envpool.Env)) {
	envs.Register(envs.Task{ID: id, Family: family, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		o := envs.NewFamilyOptions(m)
		spec, mk := build(o)
		if err := o.Err(); err != nil {
			return envpool.Spec{}, nil, err
		}
		spec.TaskID, spec.MaxEpisodeSteps, spec.FrameSkip, spec.RewardThreshold = id, maxSteps, 1, threshold
		spec.RenderFPS = renderFPS
		return spec, func(_ int, seed int64) (envpool.Env, error) { return mk(seed), nil }, nil
	}})
}

func init() {
	register("CartPole-v1", 500, 475, 50, func(o *envs.FamilyOptions) (envpool.Spec, func(int64) envpool.Env) {
		sb := o.Bool("sutton_barto_reward", false)
		return cartPoleSpec(), func(seed int64) envpool.Env { return newCartPole(seed, sb) }
	})
	register("Acrobot-v1", 500, -100, 15, func(o *envs.FamilyOptions) (envpool.Spec, func(int64) envpool.Env) {
		return acrobotSpec(), func(seed int64) envpool.Env { return newAcrobot(seed) }
	})
	register("MountainCar-v0", 200, -110, 30, func(o *envs.FamilyOptions) (envpool.Spec, func(int64) envpool.Env) {
		gv := o.Float("goal_velocity", 0)
		return mountainCarSpec(), func(seed int64) envpool.Env { return newMountainCar(seed, gv) }
	})
	register("MountainCarContinuous-v0", 999, 90, 30, func(o *envs.FamilyOptions) (envpool.Spec, func(int64) envpool.Env) {
		gv := o.Float("goal_velocity", 0)
		return mountainCarContinuousSpec(), func(seed int64) envpool.Env { return newMountainCarContinuous(seed, gv) }
	})
	register("Pendulum-v1", 200, math.NaN(), 30, func(o *envs.FamilyOptions) (envpool.Spec, func(int64) envpool.Env) {
		g := o.Float("g", 10.0)
		o.Check(g > 0, "g", "gravity must be positive, got %v", g)
		return pendulumSpec(), func(seed int64) envpool.Env { return newPendulum(seed, g) }
	})
}

// writeObs copies a float64 state into a float32 observation row.
func writeObs(dst []float32, src ...float64) {
	for i, v := range src {
		dst[i] = float32(v)
	}
}
