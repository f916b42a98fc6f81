// Package box2d holds Gymnasium's Box2D tasks as EnvPool 1.2.4 registers them:
// LunarLander-v2/-v3, LunarLanderContinuous-v2/-v3, BipedalWalker-v3,
// BipedalWalkerHardcore-v3 and CarRacing-v2/-v3. The rigid-body physics is
// github.com/ByteArena/box2d, a pure-Go port of Box2D 2.3 (the generation that box2d-py,
// and so Gymnasium, binds); the envs around it follow Gymnasium's Python sources: the
// same terrain and track generators, bodies, joints, motors, engines, rewards and
// terminations, with the random draws in the same order. Box2D computes in float32
// where this port computes in float64, so trajectories agree with Gymnasium's in
// distribution and behaviour, not to the last bit (docs/design/box2d.md).
package box2d

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	b2 "github.com/ByteArena/box2d"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

const family = "box2d"

// fps is the rate of every Box2D task's clock (Gymnasium's FPS and metadata["render_fps"]).
const fps = 50

// register adds a task with its time limit and reward threshold. Its options are the
// struct type O, at the values of defaults until the family option table says
// otherwise; build checks them and makes the task's spec and envs.
func register[O any](id string, maxSteps int, threshold float64, defaults O, build func(o O) (envpool.Spec, func(seed int64) envpool.Env, error)) {
	envs.Register(envs.Task{ID: id, Family: family, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		o := defaults
		if err := envs.DecodeOptions(m, &o); err != nil {
			return envpool.Spec{}, nil, err
		}
		spec, mk, err := build(o)
		if err != nil {
			return envpool.Spec{}, nil, err
		}
		spec.TaskID, spec.MaxEpisodeSteps, spec.FrameSkip, spec.RewardThreshold = id, maxSteps, 1, threshold
		spec.RenderFPS = fps
		return spec, func(_ int, seed int64) (envpool.Env, error) { return mk(seed), nil }, nil
	}})
}

// vec is a Box2D vector.
func vec(x, y float64) b2.B2Vec2 { return b2.B2Vec2{X: x, Y: y} }

// clip bounds x to [lo, hi]; NaN stays NaN, as numpy's clip leaves it.
func clip(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// finite maps NaN and infinities to 0, so that an action the pool would refuse cannot
// poison the physics when an env is stepped directly.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// sign is numpy's sign: -1, 0 or 1.
func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// episode is what every env of the family keeps besides its physics: the random
// generator seeded at construction and the record that makes its state savable.
//
// A Box2D world (contacts, warm-starting impulses, the broad-phase tree, sleep timers)
// cannot be written out and read back so that the next step is the same to the bit,
// but it is a deterministic function of the generator's state at the episode's reset
// and the actions since. So the saved state is that: the generator at the last reset
// and the actions taken after it, and restoring replays them (docs/design/box2d.md).
type episode struct {
	pcg *rand.PCG
	rng *rand.Rand
	// start is the generator's state when the current episode was reset; nil before
	// the first reset.
	start []byte
	// actions are the actions stepped since that reset, each of actionSize values.
	actions    []float32
	actionSize int
}

// newEpisode returns the generator of an env with the given seed.
func newEpisode(seed int64, actionSize int) episode {
	pcg := rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)
	return episode{pcg: pcg, rng: rand.New(pcg), actionSize: actionSize}
}

// begin records the generator's state at a reset, before the reset draws from it.
func (e *episode) begin() {
	s, err := e.pcg.MarshalBinary()
	if err != nil {
		panic(err) // a PCG always marshals
	}
	e.start, e.actions = s, e.actions[:0]
}

// record appends a stepped action.
func (e *episode) record(action []float32) { e.actions = append(e.actions, action[:e.actionSize]...) }

// uniform draws from U(low, high) as numpy's Generator.uniform does.
func (e *episode) uniform(low, high float64) float64 { return low + (high-low)*e.rng.Float64() }

// stateMagic starts a saved state, so that bytes from elsewhere are refused.
const stateMagic = "b2d1"

// save encodes the episode record: the task's tag, the generator now (before any
// reset) or at the reset, and the actions since.
func (e *episode) save(tag string) ([]byte, error) {
	out := append([]byte(stateMagic), byte(len(tag)))
	out = append(out, tag...)
	g := e.start
	if g == nil {
		var err error
		if g, err = e.pcg.MarshalBinary(); err != nil {
			return nil, err
		}
		out = append(out, 0)
	} else {
		out = append(out, 1)
	}
	out = binary.AppendUvarint(out, uint64(len(g)))
	out = append(out, g...)
	out = binary.AppendUvarint(out, uint64(len(e.actions)))
	for _, a := range e.actions {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(a))
	}
	return out, nil
}

// restore reads what save wrote for the same task: it sets the generator and returns
// whether an episode had started and its actions, which the caller replays after a
// reset.
func (e *episode) restore(tag string, data []byte) (started bool, actions []float32, err error) {
	bad := func(what string) error {
		return fmt.Errorf("box2d: %s env state: %s (saved by another task or version?)", tag, what)
	}
	head := stateMagic + string([]byte{byte(len(tag))}) + tag
	if len(data) < len(head)+1 || string(data[:len(head)]) != head {
		return false, nil, bad("wrong header")
	}
	rest := data[len(head):]
	started = rest[0] == 1
	rest = rest[1:]
	n, k := binary.Uvarint(rest)
	if k <= 0 || uint64(len(rest)-k) < n {
		return false, nil, bad("truncated generator")
	}
	if err := e.pcg.UnmarshalBinary(rest[k : k+int(n)]); err != nil {
		return false, nil, bad(err.Error())
	}
	rest = rest[k+int(n):]
	m, k := binary.Uvarint(rest)
	if k <= 0 || uint64(len(rest)-k) != 4*m || (m%uint64(max(e.actionSize, 1))) != 0 {
		return false, nil, bad("malformed action record")
	}
	rest = rest[k:]
	actions = make([]float32, m)
	for i := range actions {
		actions[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:]))
	}
	if !started && m > 0 {
		return false, nil, bad("actions without a reset")
	}
	return started, actions, nil
}

// replayer is an env whose state restore replays its episode.
type replayer interface {
	envpool.Env
	ep() *episode
}

// unmarshalReplay restores env from data saved by episode.save(tag): it resets the env
// with the saved generator and steps the saved actions.
func unmarshalReplay(env replayer, tag string, data []byte) error {
	e := env.ep()
	started, actions, err := e.restore(tag, data)
	if err != nil {
		return err
	}
	e.start = nil
	e.actions = e.actions[:0]
	if !started {
		return nil
	}
	env.Reset()
	for i := 0; i < len(actions); i += e.actionSize {
		env.Step(actions[i : i+e.actionSize])
	}
	return nil
}
