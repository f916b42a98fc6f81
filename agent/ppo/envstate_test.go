package ppo

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/envpool"
)

// gameCounter is an env whose episodes last 3 steps and whose state (step count,
// resets seen) can be saved; it records which reset the pool called.
type gameCounter struct {
	steps int
	calls []string
}

func (g *gameCounter) Reset()   { g.calls = append(g.calls, "reset"); g.steps = 0 }
func (g *gameCounter) NewGame() { g.calls = append(g.calls, "new"); g.steps = 0 }
func (g *gameCounter) Step([]float32) envpool.StepResult {
	g.steps++
	return envpool.StepResult{Terminated: g.steps == 3}
}
func (g *gameCounter) Observe(obs envpool.Obs, _ []float32) { obs.F32[0] = float32(g.steps) }
func (g *gameCounter) MarshalBinary() ([]byte, error) {
	return binary.LittleEndian.AppendUint64(nil, uint64(g.steps)), nil
}
func (g *gameCounter) UnmarshalBinary(b []byte) error {
	g.steps = int(binary.LittleEndian.Uint64(b))
	return nil
}

func gameCounterPool(t *testing.T) (*envpool.Pool, *gameCounter) {
	t.Helper()
	g := &gameCounter{}
	spec := envpool.Spec{TaskID: "Games-v0", ObsSpace: envpool.UniformBox(0, 10, envpool.Float32, 1), ActionSpace: envpool.DiscreteSpace(2)}
	p, err := agent.NewPool(spec, func(int, int64) (envpool.Env, error) { return g, nil }, envpool.Options{NumEnvs: 1, NumThreads: 1}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, g
}

// TestTimeLimitPassesNewGameOn checks that the learners' wrapper keeps the pool's two
// resets apart: an explicit reset reaches the env as NewGame, the auto-reset after an
// episode as Reset.
func TestTimeLimitPassesNewGameOn(t *testing.T) {
	p, g := gameCounterPool(t)
	if _, err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	for range 3 { // the third step ends the episode and, in same_step mode, resets it
		if _, err := p.Step([]float32{0}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"new", "reset", "new"}; !slices.Equal(g.calls, want) {
		t.Errorf("resets %v, want %v", g.calls, want)
	}
}

// TestRestoredEnvsContinue checks that envs restored by RestoreEnvs into a new pool
// are stepped on from their saved state, not started afresh by the first step.
func TestRestoredEnvsContinue(t *testing.T) {
	p, _ := gameCounterPool(t)
	p.Reset()
	p.Step([]float32{0}, nil)
	states, err := SnapshotEnvs(p)
	if err != nil {
		t.Fatal(err)
	}
	q, g := gameCounterPool(t)
	if err := RestoreEnvs(q, states); err != nil {
		t.Fatal(err)
	}
	b, err := q.Step([]float32{0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.First[0] || b.RowF32(0)[0] != 2 || len(g.calls) != 0 {
		t.Errorf("first step after restoring an env at step 1: obs %v first %v resets %v; want step 2, no reset",
			b.RowF32(0), b.First[0], g.calls)
	}
}
