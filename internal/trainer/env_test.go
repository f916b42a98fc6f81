package trainer

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// corridor is a small test task: walk right (action 1) to reach the end at position 6
// (terminated, reward 10); every step costs a little and may slip at random; episodes
// are cut at 12 steps by the time limit. It saves its state, so resumed runs continue
// exactly.
type corridor struct {
	pcg *rand.PCG
	rng *rand.Rand
	pos float64
}

const corridorTask = "TestCorridor-v0"

func init() {
	envs.Register(envs.Task{ID: corridorTask, Family: "test", New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		if len(m) > 0 {
			return envpool.Spec{}, nil, errors.New("corridor takes no options")
		}
		spec := envpool.Spec{TaskID: corridorTask, ObsSpace: envpool.UniformBox(-10, 10, envpool.Float32, 2),
			ActionSpace: envpool.DiscreteSpace(2), MaxEpisodeSteps: 12, FrameSkip: 1, RewardThreshold: math.NaN()}
		return spec, func(_ int, seed int64) (envpool.Env, error) {
			pcg := rand.NewPCG(uint64(seed), 99)
			return &corridor{pcg: pcg, rng: rand.New(pcg)}, nil
		}, nil
	}})
}

func (c *corridor) Reset() { c.pos = c.rng.Float64() }

func (c *corridor) Step(a []float32) envpool.StepResult {
	move := 2*float64(a[0]) - 1
	if c.rng.Float64() < 0.2 {
		move = -move
	}
	c.pos += move
	if c.pos >= 6 {
		return envpool.StepResult{Reward: 10, Terminated: true}
	}
	return envpool.StepResult{Reward: -0.1}
}

func (c *corridor) Observe(obs envpool.Obs, _ []float32) {
	obs.F32[0] = float32(c.pos)
	obs.F32[1] = float32(c.rng.NormFloat64())
}

func (c *corridor) MarshalBinary() ([]byte, error) {
	b, err := c.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return append(binary.LittleEndian.AppendUint64(nil, math.Float64bits(c.pos)), b...), nil
}

func (c *corridor) UnmarshalBinary(b []byte) error {
	if len(b) < 8 {
		return errors.New("corridor: short state")
	}
	c.pos = math.Float64frombits(binary.LittleEndian.Uint64(b))
	return c.pcg.UnmarshalBinary(b[8:])
}

// brokenTask's envs panic on their 300th step: the run must end marked failed.
const brokenTask = "TestBroken-v0"

type broken struct{ corridor }

func (b *broken) Step(a []float32) envpool.StepResult {
	if b.pos += 0.001; b.pos > 0.3 {
		panic("broken env")
	}
	return envpool.StepResult{Reward: 1}
}

func (b *broken) Reset() {}

func init() {
	envs.Register(envs.Task{ID: brokenTask, Family: "test", New: func(map[string]any) (envpool.Spec, envpool.Factory, error) {
		spec := envpool.Spec{TaskID: brokenTask, ObsSpace: envpool.UniformBox(-10, 10, envpool.Float32, 2),
			ActionSpace: envpool.DiscreteSpace(2), RewardThreshold: math.NaN()}
		return spec, func(_ int, seed int64) (envpool.Env, error) {
			pcg := rand.NewPCG(uint64(seed), 1)
			return &broken{corridor{pcg: pcg, rng: rand.New(pcg)}}, nil
		}, nil
	}})
}

// goalCorridorTask is the corridor with a success flag in its info: set while the
// walker stands at 3 or beyond, which every episode that reaches the end passes.
const goalCorridorTask = "TestGoalCorridor-v0"

type goalCorridor struct{ corridor }

func (g *goalCorridor) Observe(obs envpool.Obs, info []float32) {
	g.corridor.Observe(obs, nil)
	info[0] = 0
	if g.pos >= 3 {
		info[0] = 1
	}
}

func init() {
	envs.Register(envs.Task{ID: goalCorridorTask, Family: "test", New: func(map[string]any) (envpool.Spec, envpool.Factory, error) {
		spec := envpool.Spec{TaskID: goalCorridorTask, ObsSpace: envpool.UniformBox(-10, 10, envpool.Float32, 2),
			ActionSpace: envpool.DiscreteSpace(2), MaxEpisodeSteps: 12, FrameSkip: 1, RewardThreshold: math.NaN(),
			InfoKeys: []string{"success"}}
		return spec, func(_ int, seed int64) (envpool.Env, error) {
			pcg := rand.NewPCG(uint64(seed), 99)
			return &goalCorridor{corridor{pcg: pcg, rng: rand.New(pcg)}}, nil
		}, nil
	}})
}
