package classic

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// Mountain car constants shared by the discrete and continuous tasks.
var (
	mcMinPos   = -1.2
	mcMaxPos   = 0.6
	mcMaxSpeed = 0.07
	mcForce    = 0.001
	mcGravity  = 0.0025
	mcPower    = 0.0015
)

func mountainCarObsSpace() envpool.Space {
	return envpool.BoxSpace([]float32{float32(mcMinPos), float32(-mcMaxSpeed)}, []float32{float32(mcMaxPos), float32(mcMaxSpeed)})
}

func mountainCarSpec() envpool.Spec {
	return envpool.Spec{ObsSpace: mountainCarObsSpace(), ActionSpace: envpool.DiscreteSpace(3), RenderWidth: 600, RenderHeight: 400}
}

func mountainCarContinuousSpec() envpool.Spec {
	return envpool.Spec{ObsSpace: mountainCarObsSpace(), ActionSpace: envpool.BoxSpace([]float32{-1}, []float32{1}), RenderWidth: 600, RenderHeight: 400}
}

// MountainCar is MountainCar-v0: rock an underpowered car out of a valley (goal x >= 0.5).
type MountainCar struct {
	seeded
	pos, vel      float64
	goalVelocity  float64
	goalPosition  float64
	continuous    bool
	storesFloat32 bool
}

func newMountainCar(seed int64, goalVelocity float64) *MountainCar {
	return &MountainCar{seeded: newSeeded(seed), goalVelocity: goalVelocity, goalPosition: 0.5}
}

// newMountainCarContinuous is MountainCarContinuous-v0: the same valley with a real-valued
// force, goal x >= 0.45, reward 100 at the goal minus 0.1 a^2 per step.
func newMountainCarContinuous(seed int64, goalVelocity float64) *MountainCar {
	return &MountainCar{seeded: newSeeded(seed), goalVelocity: goalVelocity, goalPosition: 0.45, continuous: true}
}

// Reset puts the car at rest at a position drawn from U(-0.6, -0.4).
func (e *MountainCar) Reset() {
	e.pos, e.vel = uniform(e.rng, -0.6, -0.4), 0
}

// Step pushes left, not at all, or right (discrete), or with force clip(a, -1, 1).
func (e *MountainCar) Step(action []float32) envpool.StepResult {
	if e.continuous {
		return e.stepContinuous(action[0])
	}
	pos, vel := e.pos, e.vel
	vel += float64((float64(action[0])-1)*mcForce) + float64(math.Cos(3*pos)*(-mcGravity))
	vel = clip(vel, -mcMaxSpeed, mcMaxSpeed)
	pos += vel
	pos = clip(pos, mcMinPos, mcMaxPos)
	if pos == mcMinPos && vel < 0 {
		vel = 0
	}
	e.pos, e.vel = pos, vel
	terminated := pos >= e.goalPosition && vel >= e.goalVelocity
	return envpool.StepResult{Reward: -1, Terminated: terminated}
}

// stepContinuous follows Gymnasium's NumPy-1.x arithmetic: float64 intermediate values,
// state stored as float32 after every step, penalty on the unclipped action.
func (e *MountainCar) stepContinuous(a float32) envpool.StepResult {
	pos, vel := e.pos, e.vel
	force := math.Min(math.Max(float64(a), -1), 1)
	vel += float64(force*mcPower) - float64(0.0025*math.Cos(3*pos))
	vel = math.Max(math.Min(vel, mcMaxSpeed), -mcMaxSpeed)
	pos += vel
	pos = math.Max(math.Min(pos, mcMaxPos), mcMinPos)
	if pos == mcMinPos && vel < 0 {
		vel = 0
	}
	terminated := pos >= e.goalPosition && vel >= e.goalVelocity
	reward := 0.0
	if terminated {
		reward = 100.0
	}
	reward -= float64(float64(a)*float64(a)) * 0.1
	e.pos, e.vel = float64(float32(pos)), float64(float32(vel))
	return envpool.StepResult{Reward: float32(reward), Terminated: terminated}
}

// Observe writes (position, velocity).
func (e *MountainCar) Observe(obs envpool.Obs, _ []float32) { writeObs(obs.F32, e.pos, e.vel) }
