package envpool

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// ids returns a batch's env ids.
func ids(b *Batch) []int32 { return slices.Clone(b.EnvID) }

// checkRows checks that every array of a batch has exactly its Size rows.
func checkRows(t *testing.T, b *Batch) {
	t.Helper()
	n := b.Size
	lens := []int{len(b.EnvID), len(b.Reward), len(b.Terminated), len(b.Truncated), len(b.ElapsedStep), len(b.First)}
	for _, l := range lens {
		if l != n {
			t.Fatalf("batch of %d rows has arrays of lengths %v", n, lens)
		}
	}
	if len(b.ObsF32) != n*b.ObsSize || len(b.Info) != n*b.InfoSize || (b.FinalObsF32 != nil && len(b.FinalObsF32) != n*b.ObsSize) {
		t.Fatalf("batch of %d rows: %d observation values, %d info values, %d final observation values",
			n, len(b.ObsF32), len(b.Info), len(b.FinalObsF32))
	}
}

// TestSyncModeReturnsTheEnvsSent drives a sync pool of 5 envs with Sends and
// SendResets of some envs: each Recv returns the envs in flight, in the order they
// were sent, with their own results, and arrays cut to that many rows.
func TestSyncModeReturnsTheEnvsSent(t *testing.T) {
	for _, mode := range []AutoReset{NextStep, SameStep} {
		p := newCountPool(t, Options{NumEnvs: 5, NumThreads: 2, Seed: 10, AutoReset: mode})
		if _, err := p.Reset(); err != nil {
			t.Fatal(err)
		}
		recv := func() *Batch {
			t.Helper()
			b, err := p.Recv()
			if err != nil {
				t.Fatal(err)
			}
			checkRows(t, b)
			return b
		}

		// A step of envs 3 and 1.
		if err := p.Send([]float32{4, 2}, []int32{3, 1}); err != nil {
			t.Fatal(err)
		}
		b := recv()
		if got := ids(b); !slices.Equal(got, []int32{3, 1}) {
			t.Fatalf("%v: Send to envs 3, 1: rows for envs %v", mode, got)
		}
		for i, act := range []float32{4, 2} {
			if obs := b.RowF32(i); obs[0] != float32(10+b.EnvID[i]) || obs[1] != 1 || obs[2] != act || b.ElapsedStep[i] != 1 || b.First[i] {
				t.Fatalf("%v: row %d (env %d): obs %v elapsed %d; want step 1 with action %v", mode, i, b.EnvID[i], obs, b.ElapsedStep[i], act)
			}
		}

		// A reset of envs 4 and 3.
		if err := p.SendReset([]int32{4, 3}); err != nil {
			t.Fatal(err)
		}
		b = recv()
		if got := ids(b); !slices.Equal(got, []int32{4, 3}) {
			t.Fatalf("%v: SendReset of envs 4, 3: rows for envs %v", mode, got)
		}
		for i := range b.Size {
			if obs := b.RowF32(i); !b.First[i] || b.ElapsedStep[i] != 0 || b.Reward[i] != 0 || obs[1] != 0 || obs[3] != 2 {
				t.Fatalf("%v: reset row %d (env %d): obs %v first %v; want episode 2 at step 0", mode, i, b.EnvID[i], obs, b.First[i])
			}
		}

		// Several calls before one Recv make one batch, in the order of the calls.
		if err := p.Send([]float32{1}, []int32{2}); err != nil {
			t.Fatal(err)
		}
		if err := p.SendReset([]int32{0}); err != nil {
			t.Fatal(err)
		}
		if err := p.Send([]float32{3, 0}, []int32{4, 1}); err != nil {
			t.Fatal(err)
		}
		b = recv()
		if got := ids(b); !slices.Equal(got, []int32{2, 0, 4, 1}) {
			t.Fatalf("%v: Send 2, SendReset 0, Send 4, 1: rows for envs %v", mode, got)
		}
		if !b.First[1] || b.First[0] || b.RowF32(2)[1] != 1 || b.RowF32(3)[1] != 2 {
			t.Fatalf("%v: mixed batch: first %v, steps %v %v", mode, b.First, b.RowF32(2)[1], b.RowF32(3)[1])
		}

		// A step of every env is a full batch in env order again.
		b, err := p.Step(make([]float32, 5), nil)
		if err != nil {
			t.Fatal(err)
		}
		checkRows(t, b)
		if got := ids(b); !slices.Equal(got, []int32{0, 1, 2, 3, 4}) {
			t.Fatalf("%v: Step of every env: rows for envs %v", mode, got)
		}
		// So is a step of every env named in another order: rows in send order.
		b, err = p.Step(make([]float32, 5), []int32{4, 0, 3, 1, 2})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(b); !slices.Equal(got, []int32{4, 0, 3, 1, 2}) {
			t.Fatalf("%v: Step of envs 4, 0, 3, 1, 2: rows for envs %v", mode, got)
		}
	}
}

// TestSyncPartialBatchBadInput checks the errors around partial sync batches: nothing
// to receive, an env sent twice, an env reset while in flight.
func TestSyncPartialBatchBadInput(t *testing.T) {
	p := newCountPool(t, Options{NumEnvs: 5, NumThreads: 2})
	if _, err := p.Recv(); err == nil || !strings.Contains(err.Error(), "no envs in flight") {
		t.Errorf("Recv with nothing in flight: %v", err)
	}
	if err := p.Send([]float32{1, 1}, []int32{1, 2}); err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"Send to an env in flight":       func() error { return p.Send([]float32{1}, []int32{2}) },
		"SendReset of an env in flight":  func() error { return p.SendReset([]int32{1}) },
		"AsyncReset with envs in flight": func() error { return p.AsyncReset() },
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), "in flight") && !strings.Contains(err.Error(), "still running") {
			t.Errorf("%s: %v", name, err)
		}
	}
	b, err := p.Recv()
	if err != nil || !slices.Equal(ids(b), []int32{1, 2}) {
		t.Fatalf("Recv after refused calls: %v, %v; want envs 1, 2", err, b)
	}
	if _, err := p.Recv(); err == nil || !strings.Contains(err.Error(), "no envs in flight") {
		t.Errorf("second Recv: %v", err)
	}
}

// gateEnv is a countEnv whose steps wait for a token on gate, so a test decides when
// each step finishes.
type gateEnv struct {
	countEnv
	gate chan struct{}
}

func (g *gateEnv) Step(a []float32) StepResult { <-g.gate; return g.countEnv.Step(a) }

// TestSyncPartialBatchAfterRecvTimeout checks that a RecvTimeout that gives up on a
// partial sync batch leaves it open: envs sent afterwards join it, and the next Recv
// returns all of them once their steps are done, and no sooner.
func TestSyncPartialBatchAfterRecvTimeout(t *testing.T) {
	gate := make(chan struct{})
	p, err := New(countSpec(), func(i int, seed int64) (Env, error) {
		return &gateEnv{countEnv{seed: seed, rng: rand.New(rand.NewPCG(uint64(seed), 1))}, gate}, nil
	}, Options{NumEnvs: 4, NumThreads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { close(gate); p.Close() }()
	if _, err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := p.Send([]float32{1}, []int32{2}); err != nil {
		t.Fatal(err)
	}
	// Env 2's step is held at the gate: the batch cannot be complete.
	if b, ok, err := p.RecvTimeout(time.Millisecond); ok || b != nil || err != nil {
		t.Fatalf("RecvTimeout with env 2 held: %v, %v, %v; want a timeout", b, ok, err)
	}
	if err := p.Send([]float32{3}, []int32{0}); err != nil {
		t.Fatal(err)
	}
	gate <- struct{}{} // one step may finish
	if b, ok, err := p.RecvTimeout(time.Millisecond); ok || b != nil || err != nil {
		t.Fatalf("RecvTimeout with one of two steps held: %v, %v, %v; want a timeout", b, ok, err)
	}
	gate <- struct{}{}
	b, err := p.Recv()
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, b)
	if !slices.Equal(ids(b), []int32{2, 0}) || b.RowF32(0)[2] != 1 || b.RowF32(1)[2] != 3 {
		t.Fatalf("batch: envs %v, obs %v; want env 2 (action 1), env 0 (action 3)", b.EnvID, b.ObsF32)
	}
}
