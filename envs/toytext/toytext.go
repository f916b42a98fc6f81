// Package toytext holds the toy-text tasks of EnvPool 1.2.4 (envpool/toy_text):
// FrozenLake-v1, FrozenLake8x8-v1, Taxi-v3, CliffWalking-v0, CliffWalking-v1,
// CliffWalkingSlippery-v1 and Blackjack-v1 with the rules of Gymnasium 1.2 (the
// version EnvPool 1.2.4 tests against), and EnvPool's own Catch-v0 and NChain-v0.
//
// A discrete state is observed as its integer value in one float32 (the spec's
// observation space is Discrete(n), as EnvPool's is); the family option one_hot
// observes it as a one-hot vector of n float32 instead, which an MLP can learn from.
// docs/design/toytext.md lists where the tasks differ from EnvPool and Gymnasium.
package toytext

import (
	"encoding"
	"math"
	"math/rand/v2"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

const family = "toytext"

// renderFPS is Gymnasium's metadata["render_fps"] of its toy-text tasks; Catch and
// NChain, which Gymnasium lacks, play at the same rate.
const renderFPS = 4

// task is what a task's build returns: the spec (spaces, info keys; register fills in
// the id and limits) and a constructor of one env from its seed.
type task struct {
	spec envpool.Spec
	make func(seed int64) envpool.Env
}

// register adds a task with its time limit (0: none) and reward threshold (NaN: none).
// Its options are the struct type O, at the values of defaults until the family
// option table says otherwise (envs.DecodeOptions); build makes the task under the
// decoded options, or says why it cannot.
func register[O any](id string, maxSteps int, threshold float64, defaults O, build func(o O) (task, error)) {
	envs.RegisterStruct(envs.TaskInfo{ID: id, Family: family, MaxEpisodeSteps: maxSteps, RewardThreshold: threshold, RenderFPS: renderFPS}, defaults,
		func(o O) (envpool.Spec, func(seed int64) envpool.Env, error) {
			t, err := build(o)
			return t.spec, t.make, err
		})
}

func init() {
	for _, m := range []struct {
		id        string
		name      string
		maxSteps  int
		threshold float64
	}{{"FrozenLake-v1", "4x4", 100, 0.70}, {"FrozenLake8x8-v1", "8x8", 200, 0.85}} {
		register(m.id, m.maxSteps, m.threshold, frozenLakeOptions{MapName: m.name, IsSlippery: true,
			SuccessRate: 1.0 / 3.0, RewardSchedule: [3]float64{1, 0, 0}}, buildFrozenLake)
	}
	register("Taxi-v3", 200, 8, taxiOptions{}, buildTaxi)
	register("CliffWalking-v0", 0, math.NaN(), cliffOptions{}, buildCliffWalking)
	register("CliffWalking-v1", 0, math.NaN(), cliffOptions{}, buildCliffWalking)
	register("CliffWalkingSlippery-v1", 0, math.NaN(), cliffOptions{IsSlippery: true}, buildCliffWalking)
	register("Blackjack-v1", 0, math.NaN(), blackjackOptions{Sab: true}, buildBlackjack)
	register("Catch-v0", 0, math.NaN(), catchOptions{Height: 10, Width: 5}, buildCatch)
	register("NChain-v0", 1000, math.NaN(), discreteOptions{}, buildNChain)
}

// discreteOptions are the options every task with a discrete state takes.
type discreteOptions struct {
	OneHot bool `toml:"one_hot" help:"observe the state as a one-hot vector instead of its integer value (for an MLP policy)"`
}

// obsSpace is the observation space of a task with n discrete states: Discrete(n), or
// a box of n values in [0, 1] when they are one-hot.
func (o discreteOptions) obsSpace(n int) envpool.Space {
	if o.OneHot {
		return envpool.UniformBox(0, 1, envpool.Float32, n)
	}
	return envpool.DiscreteSpace(n)
}

// writeState writes discrete state s of n into an observation row: its value, or a
// one-hot vector.
func writeState(dst []float32, s, n int, oneHot bool) {
	if !oneHot {
		dst[0] = float32(s)
		return
	}
	clear(dst[:n])
	dst[s] = 1
}

// action reads a discrete action of n choices. The pool rejects actions that are not
// integers in [0, n) before they reach an env (envpool.Pool.Send names them); an env
// stepped directly takes the nearest valid action instead (0 for NaN or none), so it
// never indexes outside its tables.
func action(a []float32, n int) int {
	if len(a) == 0 || !(a[0] >= 0) {
		return 0
	}
	if a[0] >= float32(n-1) {
		return n - 1
	}
	return int(a[0])
}

// capable is every capability of the family's envs: a picture (draw.go), a text frame
// (text.go) and the exact state, generator included, so that a killed training run
// resumes every episode exactly (state.go).
type capable interface {
	envpool.Env
	envpool.Renderer
	envpool.TextRenderer
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// Every env has them all.
var _ = [...]capable{(*FrozenLake)(nil), (*Taxi)(nil), (*CliffWalking)(nil), (*Blackjack)(nil), (*Catch)(nil), (*NChain)(nil)}

// gen is an env's random generator, seeded at construction; the PCG source is kept
// beside it so that the env's state can be saved and restored with it (state.go).
type gen struct {
	rng *rand.Rand
	pcg *rand.PCG // rng's source
}

// categorical draws an index from probabilities p as Gymnasium's categorical_sample
// does: the first index whose running sum exceeds a uniform draw in [0, 1).
func (g *gen) categorical(p []float64) int {
	u := g.rng.Float64()
	sum := 0.0
	for i, q := range p {
		sum += q
		if sum > u {
			return i
		}
	}
	return len(p) - 1
}

// newGen returns the generator of the env with that seed: a PCG stream of its own.
func newGen(seed int64) gen {
	src := rand.NewPCG(uint64(seed), 0x6a09e667f3bcc908)
	return gen{rng: rand.New(src), pcg: src}
}
