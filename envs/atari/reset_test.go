package atari

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// breakoutPool builds a pool of one Breakout env with episodic life, or skips without
// ROMs.
func breakoutPool(t *testing.T, autoReset envpool.AutoReset) *envpool.Pool {
	t.Helper()
	if os.Getenv(ROMEnv) == "" {
		t.Skipf("set %s to a folder of ALE's ROMs to play Breakout", ROMEnv)
	}
	p, err := envs.Make("Breakout-v5", envs.Options{
		Options: envpool.Options{NumEnvs: 1, NumThreads: 1, Seed: 4, AutoReset: autoReset},
		Family:  map[string]any{"episodic_life": true},
	})
	if err != nil {
		t.Skipf("Breakout-v5 from %s: %v", ROMEnv, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// breakoutState is what tells one game of Breakout from another: lives left, the
// score (ALE's reader), the steps of the game (EnvPool's elapsed_step) and the
// emulator frames since the game was last reset.
type breakoutState struct {
	lives, score, gameSteps, frames int
}

// stateOf reads the state of the pool's env, which must not be in flight.
func stateOf(p *envpool.Pool) breakoutState {
	e := p.Env(0).(*Env)
	return breakoutState{e.lives, e.ale.reader.(*breakoutReader).score, e.elapsed, e.ale.EpisodeFrame()}
}

// TestExplicitResetStartsANewGame plays Breakout with episodic life until a life is
// lost and checks both resets: the auto-reset after the life loss continues the game
// (lives, score and step count carry on), an explicit Reset or SendReset starts a new
// one (five lives, score 0, step count 0), and so do eight Resets in a row, each of
// which used to continue the game its predecessor started.
func TestExplicitResetStartsANewGame(t *testing.T) {
	for _, mode := range []envpool.AutoReset{envpool.NextStep, envpool.SameStep} {
		p := breakoutPool(t, mode)
		newGame := func(what string) {
			t.Helper()
			if s := stateOf(p); s.lives != 5 || s.score != 0 || s.gameSteps != 0 || s.frames > 31 {
				t.Fatalf("%v: %s: %+v; want a new game (5 lives, score 0, at most 31 frames in)", mode, what, s)
			}
		}
		for k := range 8 {
			if _, err := p.Reset(); err != nil {
				t.Fatal(err)
			}
			newGame(fmt.Sprintf("reset %d of 8", k+1))
		}
		// Play until a life is lost after scoring, then reset explicitly: with Reset
		// in the first round, with SendReset in the second.
		n := p.Spec().ActionSpace.N
		rng := rand.New(rand.NewPCG(1, 2))
		for round := range 2 {
			var lost breakoutState
			for step := 0; lost.score == 0; step++ {
				if step > 20000 {
					t.Fatalf("%v: no life lost after scoring in 20000 steps", mode)
				}
				b, err := p.Step([]float32{float32(rng.IntN(n))}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if info := b.InfoRow(0); b.Done(0) && info[0] > 0 {
					lost = breakoutState{lives: int(info[0]), score: stateOf(p).score, gameSteps: int(info[3])}
				}
			}
			if mode == envpool.NextStep {
				b, err := p.Step([]float32{0}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !b.First[0] {
					t.Fatalf("the step after a life loss is not an auto-reset")
				}
			}
			// The auto-reset continues the game: the same lives, score and steps.
			if s := stateOf(p); s.lives != lost.lives || s.score != lost.score || s.gameSteps != lost.gameSteps {
				t.Fatalf("%v: auto-reset after losing a life: %+v; want the game to go on from %+v", mode, s, lost)
			}
			what := "Reset after losing a life"
			if round == 0 {
				_, err := p.Reset()
				if err != nil {
					t.Fatal(err)
				}
			} else {
				what = "SendReset after losing a life"
				if err := p.SendReset([]int32{0}); err != nil {
					t.Fatal(err)
				}
				if _, err := p.Recv(); err != nil {
					t.Fatal(err)
				}
			}
			newGame(what)
		}
	}
}

// TestFreshPoolFirstStepIsTheFirstFrame steps a Breakout pool that was never reset:
// each row is the first observation of a game, not a blank frame, equal to what Reset
// gives an identically seeded pool, with reward 0, elapsed step 0 and five lives.
func TestFreshPoolFirstStepIsTheFirstFrame(t *testing.T) {
	if os.Getenv(ROMEnv) == "" {
		t.Skipf("set %s to a folder of ALE's ROMs to play Breakout", ROMEnv)
	}
	pool := func() *envpool.Pool {
		p, err := envs.Make("Breakout-v5", envs.Options{Options: envpool.Options{NumEnvs: 2, NumThreads: 2, Seed: 9}})
		if err != nil {
			t.Skipf("Breakout-v5 from %s: %v", ROMEnv, err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	fresh, reset := pool(), pool()
	want, err := reset.Reset()
	if err != nil {
		t.Fatal(err)
	}
	got, err := fresh.Step([]float32{1, 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		blank := true
		for _, v := range got.RowU8(i) {
			blank = blank && v == 0
		}
		if blank || string(got.RowU8(i)) != string(want.RowU8(i)) {
			t.Errorf("env %d: first step's observation (blank %v) differs from a reset's", i, blank)
		}
		if !got.First[i] || got.Reward[i] != 0 || got.ElapsedStep[i] != 0 || got.Done(i) || got.InfoRow(i)[0] != 5 {
			t.Errorf("env %d: first step: first %v reward %v elapsed %d done %v lives %v; want a reset row",
				i, got.First[i], got.Reward[i], got.ElapsedStep[i], got.Done(i), got.InfoRow(i)[0])
		}
	}
}
