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
	"cmp"
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
	envs.RegisterStruct(envs.TaskInfo{ID: id, Family: family, MaxEpisodeSteps: maxSteps, RewardThreshold: threshold, RenderFPS: fps}, defaults, build)
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

// sign is numpy's sign, -1, 0 or 1, for the finite values the envs pass it.
func sign(x float64) float64 { return float64(cmp.Compare(x, 0)) }

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
	// owner is the env this is the episode of, which a restore resets and steps; tag
	// names its task and settings in saved states.
	owner envpool.Env
	tag   string
}

// newEpisode returns the generator of an env with the given seed; the env sets owner
// and tag once it exists.
func newEpisode(seed int64, actionSize int) episode {
	pcg := rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)
	return episode{pcg: pcg, rng: rand.New(pcg), actionSize: actionSize}
}

// bind names the env the episode belongs to and the tag of its saved states.
func (e *episode) bind(owner envpool.Env, tag string) { e.owner, e.tag = owner, tag }

// actionSize is the number of values in an action: n for continuous actions, 1 for a
// discrete one.
func actionSize(continuous bool, n int) int {
	if continuous {
		return n
	}
	return 1
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

// MarshalBinary saves the env's exact state (encoding.BinaryMarshaler): its task's
// tag, the generator now (before any reset) or at the last reset, and the actions
// stepped since.
func (e *episode) MarshalBinary() ([]byte, error) {
	out := append([]byte(stateMagic), byte(len(e.tag)))
	out = append(out, e.tag...)
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

// restore reads what MarshalBinary wrote for the same task: it sets the generator and
// returns whether an episode had started and its actions.
func (e *episode) restore(data []byte) (started bool, actions []float32, err error) {
	tag := e.tag
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

// UnmarshalBinary restores what MarshalBinary saved for an env of the same task and
// settings (encoding.BinaryUnmarshaler): it resets the env with the saved generator
// and steps the saved actions again.
func (e *episode) UnmarshalBinary(data []byte) error {
	started, actions, err := e.restore(data)
	if err != nil {
		return err
	}
	e.start = nil
	e.actions = e.actions[:0]
	if !started {
		return nil
	}
	e.owner.Reset()
	for i := 0; i < len(actions); i += e.actionSize {
		e.owner.Step(actions[i : i+e.actionSize])
	}
	return nil
}

// hullContacts is the contact listener of a body on legs: any contact of the hull sets
// *down (the lander crashed, the walker fell), and each foot's contacts set and clear
// its touching flag.
type hullContacts struct {
	quietSolve
	hull     *b2.B2Body
	down     *bool
	feet     []*b2.B2Body
	touching []bool
}

// BeginContact notes the hull's and the feet's contacts.
func (h *hullContacts) BeginContact(c b2.B2ContactInterface) {
	a, b := c.GetFixtureA().GetBody(), c.GetFixtureB().GetBody()
	if a == h.hull || b == h.hull {
		*h.down = true
	}
	h.feetTouch(a, b, true)
}

// EndContact notes a foot leaving the ground.
func (h *hullContacts) EndContact(c b2.B2ContactInterface) {
	h.feetTouch(c.GetFixtureA().GetBody(), c.GetFixtureB().GetBody(), false)
}

func (h *hullContacts) feetTouch(a, b *b2.B2Body, touching bool) {
	for i, f := range h.feet {
		if a == f || b == f {
			h.touching[i] = touching
		}
	}
}

// quietSolve gives a contact listener Box2D's pre- and post-solve callbacks, which no
// task uses.
type quietSolve struct{}

func (quietSolve) PreSolve(b2.B2ContactInterface, b2.B2Manifold)         {}
func (quietSolve) PostSolve(b2.B2ContactInterface, *b2.B2ContactImpulse) {}

// potential turns a shaping potential into rewards: each step's reward is the change
// of the potential since the step before, and the first step after a reset gets 0.
type potential struct {
	last float64
	set  bool
}

// change returns v's change since the last call (0 on the first) and remembers v.
func (p *potential) change(v float64) float64 {
	d := 0.0
	if p.set {
		d = v - p.last
	}
	p.last, p.set = v, true
	return d
}

// vectorObs is the observation of a task that observes a vector of numbers: the
// task's step writes state, and Observe hands it out as float32.
type vectorObs struct{ state []float64 }

func newVectorObs(n int) vectorObs { return vectorObs{state: make([]float64, n)} }

// Observe writes the state as float32 (envpool.Env).
func (v *vectorObs) Observe(obs envpool.Obs, _ []float32) {
	for i, x := range v.state {
		obs.F32[i] = float32(x)
	}
}
