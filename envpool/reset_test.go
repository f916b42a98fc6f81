package envpool

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// row is one env's row of a batch, copied out.
type row struct {
	obs      []float32
	reward   float32
	elapsed  int32
	first    bool
	done     bool
	position int // the row's index in its batch
}

// collect receives batches until n rows have come back and returns them by env.
func collect(t *testing.T, p *Pool, n int) map[int32]row {
	t.Helper()
	rows := map[int32]row{}
	for len(rows) < n {
		b, err := p.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Size {
			rows[b.EnvID[i]] = row{slices.Clone(b.RowF32(i)), b.Reward[i], b.ElapsedStep[i], b.First[i], b.Done(i), i}
		}
	}
	return rows
}

// TestFreshEnvFirstStepIsAReset steps pools that were never reset, in every mode, and
// checks that each row is a reset row (first observation, reward 0, elapsed 0, not
// done, action ignored) equal to what Reset returns for an identically seeded pool,
// and that the step after it is the episode's first real step.
func TestFreshEnvFirstStepIsAReset(t *testing.T) {
	for _, o := range []Options{
		{NumEnvs: 4, NumThreads: 2, Seed: 7},
		{NumEnvs: 4, NumThreads: 2, Seed: 7, AutoReset: SameStep},
		{NumEnvs: 4, BatchSize: 2, NumThreads: 2, Seed: 7},
	} {
		fresh, reset := newCountPool(t, o), newCountPool(t, o)
		if err := reset.AsyncReset(); err != nil {
			t.Fatal(err)
		}
		want := collect(t, reset, 4)
		acts := []float32{3, 3, 3, 3}
		if err := fresh.Send(acts, nil); err != nil {
			t.Fatal(err)
		}
		for id, r := range collect(t, fresh, 4) {
			if !r.first || r.reward != 0 || r.elapsed != 0 || r.done || !slices.Equal(r.obs, want[id].obs) {
				t.Fatalf("%+v: first step of fresh env %d: %+v; want the reset row %v", o, id, r, want[id].obs)
			}
			// countEnv's observation: seed, steps, last action (-1: none), episode.
			if r.obs[0] != float32(7+id) || r.obs[1] != 0 || r.obs[2] != -1 || r.obs[3] != 1 {
				t.Fatalf("%+v: env %d: obs %v; want episode 1 of seed %d with no action taken", o, id, r.obs, 7+id)
			}
		}
		// The next step is step 1 of that episode: the env was reset once, not twice.
		if err := fresh.Send(acts, nil); err != nil {
			t.Fatal(err)
		}
		for id, r := range collect(t, fresh, 4) {
			if r.first || r.obs[1] != 1 || r.obs[2] != 3 || r.obs[3] != 1 || r.elapsed != 1 || r.reward != 4 {
				t.Fatalf("%+v: second step of env %d: %+v; want step 1 of episode 1 with action 3", o, id, r)
			}
		}
	}
}

// gameEnv is countEnv with a soft Reset: it records which of its two resets the pool
// called, as an Atari env with episodic life tells a new game from a continued one.
type gameEnv struct {
	countEnv
	calls []string
}

func (g *gameEnv) Reset()   { g.calls = append(g.calls, "reset"); g.countEnv.Reset() }
func (g *gameEnv) NewGame() { g.calls = append(g.calls, "new"); g.countEnv.Reset() }

// plainWrapper wraps an env without passing NewGame on.
type plainWrapper struct{ Env }

func gamePool(t *testing.T, o Options, wrap bool) (*Pool, []*gameEnv) {
	t.Helper()
	var envs []*gameEnv
	p, err := New(countSpec(), func(i int, seed int64) (Env, error) {
		g := &gameEnv{countEnv: countEnv{seed: seed, rng: rand.New(rand.NewPCG(uint64(seed), 1))}}
		envs = append(envs, g)
		if wrap {
			return plainWrapper{g}, nil
		}
		return g, nil
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, envs
}

// TestExplicitResetsStartNewGames checks which reset the pool calls: NewGame for the
// first step of a fresh env, Reset, SendReset and the recovery from a panic; Reset for
// the auto-reset after an episode ends, in both auto-reset modes; and Reset for all of
// them on an env that does not implement NewGamer.
func TestExplicitResetsStartNewGames(t *testing.T) {
	for _, mode := range []AutoReset{NextStep, SameStep} {
		p, envs := gamePool(t, Options{NumEnvs: 1, NumThreads: 1, Seed: 3, AutoReset: mode}, false)
		g := envs[0]
		step := func() *Batch {
			b, err := p.Step([]float32{0}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		step() // the fresh env's first step starts it
		for !step().Done(0) {
		}
		if mode == NextStep {
			step() // the auto-reset
		}
		if _, err := p.Reset(); err != nil {
			t.Fatal(err)
		}
		if err := p.SendReset([]int32{0}); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Recv(); err != nil {
			t.Fatal(err)
		}
		want := []string{"new", "reset", "new", "new"}
		if !slices.Equal(g.calls, want) {
			t.Errorf("%v: resets %v, want %v", mode, g.calls, want)
		}
	}

	// A panic leaves the env in an unknown state: it starts a new game.
	p, envs := gamePool(t, Options{NumEnvs: 1, NumThreads: 1, Seed: 3}, false)
	envs[0].panicAt = 2
	p.Reset()
	p.Step([]float32{0}, nil)
	if _, err := p.Step([]float32{0}, nil); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("want the panic reported, got %v", err)
	}
	envs[0].panicAt = 0
	p.Step([]float32{0}, nil)
	if want := []string{"new", "new"}; !slices.Equal(envs[0].calls, want) {
		t.Errorf("after a panic: resets %v, want %v", envs[0].calls, want)
	}

	// Without NewGamer every reset is Reset.
	p, envs = gamePool(t, Options{NumEnvs: 1, NumThreads: 1, Seed: 3}, true)
	p.Step([]float32{0}, nil)
	p.Reset()
	if want := []string{"reset", "reset"}; !slices.Equal(envs[0].calls, want) {
		t.Errorf("env without NewGamer: resets %v, want %v", envs[0].calls, want)
	}
}

// TestResumedEnvIsSteppedNotReset checks that an env marked Resumed (restored from
// saved state) is stepped by the next Send instead of being started like a fresh env,
// and that Resumed refuses bad env ids and envs in flight.
func TestResumedEnvIsSteppedNotReset(t *testing.T) {
	p, envs := gamePool(t, Options{NumEnvs: 2, NumThreads: 1, Seed: 3}, false)
	envs[0].countEnv.Reset() // what restoring a saved episode would leave
	if err := p.Resumed(0); err != nil {
		t.Fatal(err)
	}
	rows := func() map[int32]row {
		if err := p.Send([]float32{2, 2}, nil); err != nil {
			t.Fatal(err)
		}
		return collect(t, p, 2)
	}()
	if r := rows[0]; r.first || r.obs[1] != 1 || r.obs[2] != 2 || len(envs[0].calls) != 0 {
		t.Errorf("resumed env 0: %+v after resets %v; want step 1 with action 2 and no reset", r, envs[0].calls)
	}
	if r := rows[1]; !r.first || r.obs[1] != 0 {
		t.Errorf("fresh env 1: %+v; want its first observation", r)
	}
	if err := p.Resumed(2); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("Resumed(2) on 2 envs: %v", err)
	}
	if err := p.Send([]float32{1}, []int32{1}); err != nil {
		t.Fatal(err)
	}
	if err := p.Resumed(1); err == nil || !strings.Contains(err.Error(), "still running") {
		t.Errorf("Resumed of an env in flight: %v", err)
	}
}
