package envpool

import (
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countEnv is a deterministic test env: its observation is (seed, steps in episode,
// last action, episode number) and its episodes last 3..12 steps, drawn from its seed.
type countEnv struct {
	seed    int64
	rng     *rand.Rand
	steps   int
	length  int
	episode int
	last    float32
	work    time.Duration // busy time per step, for async tests
	panicAt int           // step of the first episode at which Step panics (0: never)
}

func (e *countEnv) Reset() {
	e.steps, e.last = 0, -1
	e.length = 3 + e.rng.IntN(10)
	e.episode++
}

func (e *countEnv) Step(a []float32) StepResult {
	if e.panicAt > 0 && e.steps+1 == e.panicAt {
		panic("boom")
	}
	if e.work > 0 {
		spin(e.work)
	}
	e.steps++
	e.last = a[0]
	return StepResult{Reward: a[0] + float32(e.steps), Terminated: e.steps >= e.length}
}

func (e *countEnv) Observe(obs Obs, info []float32) {
	obs.F32[0], obs.F32[1], obs.F32[2], obs.F32[3] = float32(e.seed), float32(e.steps), e.last, float32(e.episode)
	if len(info) > 0 {
		info[0] = float32(e.length)
	}
}

// spin burns CPU for d without sleeping, like a real env step.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

func countSpec() Spec {
	return Spec{
		TaskID:      "Count-v0",
		ObsSpace:    UniformBox(-1e9, 1e9, Float32, 4),
		ActionSpace: DiscreteSpace(5),
		InfoKeys:    []string{"length"},
	}
}

func countFactory(work time.Duration) Factory {
	return func(i int, seed int64) (Env, error) {
		return &countEnv{seed: seed, rng: rand.New(rand.NewPCG(uint64(seed), 1)), work: work}, nil
	}
}

func newCountPool(t testing.TB, o Options) *Pool {
	t.Helper()
	p, err := New(countSpec(), countFactory(0), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestSyncRowsInEnvOrderWithNextStepReset(t *testing.T) {
	p := newCountPool(t, Options{NumEnvs: 6, NumThreads: 3, Seed: 100})
	b, err := p.Reset()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if b.EnvID[i] != int32(i) || b.RowF32(i)[0] != float32(100+i) || !b.First[i] || b.ElapsedStep[i] != 0 {
			t.Fatalf("reset row %d: id %d obs %v first %v", i, b.EnvID[i], b.RowF32(i), b.First[i])
		}
	}
	acts := make([]float32, 6)
	sawReset := false
	for step := range 40 {
		for i := range acts {
			acts[i] = float32((i + step) % 5)
		}
		prevDone := make([]bool, 6)
		for i := range 6 {
			prevDone[i] = b.Done(i)
		}
		if b, err = p.Step(acts, nil); err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			obs := b.RowF32(i)
			if b.EnvID[i] != int32(i) {
				t.Fatalf("row %d holds env %d", i, b.EnvID[i])
			}
			if prevDone[i] {
				// The step after a done resets, ignores the action, returns reward 0.
				sawReset = true
				if !b.First[i] || b.Reward[i] != 0 || b.ElapsedStep[i] != 0 || obs[1] != 0 || b.Done(i) {
					t.Fatalf("auto-reset row %d: %+v obs %v", i, b.Reward[i], obs)
				}
				continue
			}
			if b.First[i] || obs[2] != acts[i] || b.Reward[i] != acts[i]+obs[1] || int32(obs[1]) != b.ElapsedStep[i] {
				t.Fatalf("step row %d: obs %v reward %v elapsed %d", i, obs, b.Reward[i], b.ElapsedStep[i])
			}
			if b.Terminated[i] != (b.InfoRow(i)[0] == obs[1]) {
				t.Fatalf("row %d: terminated %v at step %v of %v", i, b.Terminated[i], obs[1], b.InfoRow(i)[0])
			}
		}
	}
	if !sawReset {
		t.Fatal("no episode ended in 40 steps")
	}
}

func TestSameStepPutsTerminalObsInFinalObs(t *testing.T) {
	p := newCountPool(t, Options{NumEnvs: 3, NumThreads: 2, Seed: 5, AutoReset: SameStep})
	if _, err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	ends := 0
	for range 30 {
		b, err := p.Step([]float32{1, 2, 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if !b.Terminated[i] {
				continue
			}
			ends++
			final := b.FinalObsF32[i*4 : i*4+4]
			obs := b.RowF32(i)
			if final[1] != b.InfoRow(i)[0] || final[1] != float32(b.ElapsedStep[i]) {
				t.Fatalf("final obs %v, elapsed %d, length %v", final, b.ElapsedStep[i], b.InfoRow(i)[0])
			}
			if obs[1] != 0 || obs[3] != final[3]+1 || !b.First[i] || b.Reward[i] != float32(i+1)+final[1] {
				t.Fatalf("row after same-step reset: obs %v final %v reward %v", obs, final, b.Reward[i])
			}
		}
	}
	if ends == 0 {
		t.Fatal("no episode ended")
	}
}

func TestMaxEpisodeStepsTruncates(t *testing.T) {
	spec := countSpec()
	spec.MaxEpisodeSteps = 2
	p, err := New(spec, countFactory(0), Options{NumEnvs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Reset()
	p.Step([]float32{0, 0}, nil)
	b, _ := p.Step([]float32{0, 0}, nil)
	if !b.Truncated[0] || b.Terminated[0] || b.ElapsedStep[0] != 2 {
		t.Fatalf("step 2 of a 2-step limit: truncated %v terminated %v elapsed %d", b.Truncated[0], b.Terminated[0], b.ElapsedStep[0])
	}
	// A negative option disables the spec's limit.
	p2, _ := New(spec, countFactory(0), Options{NumEnvs: 1, MaxEpisodeSteps: -1})
	defer p2.Close()
	p2.Reset()
	p2.Step([]float32{0}, nil)
	if b, _ := p2.Step([]float32{0}, nil); b.Truncated[0] {
		t.Fatal("limit disabled but truncated")
	}
}

// SendReset starts new episodes for some envs while the others run on: their rows come
// back as first observations (episode counter up, step 0, elapsed 0), the other envs'
// episodes are untouched, and a running or repeated env is refused.
func TestSendResetRestartsChosenEnvs(t *testing.T) {
	p := newCountPool(t, Options{NumEnvs: 4, BatchSize: 2, NumThreads: 2})
	if err := p.AsyncReset(); err != nil {
		t.Fatal(err)
	}
	episode := map[int32]float32{}
	steps := map[int32]float32{}
	for range 2 {
		b, err := p.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Size {
			episode[b.EnvID[i]], steps[b.EnvID[i]] = b.RowF32(i)[3], b.RowF32(i)[1]
		}
	}
	// Envs 0 and 1 step once; then 0 is reset alone while 1 and the others step.
	if _, err := p.Step([]float32{1, 1}, []int32{0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := p.Send([]float32{2, 2}, []int32{2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := p.SendReset([]int32{0}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		ids  []int32
		want string
	}{{[]int32{0}, "still running"}, {[]int32{9}, "out of range"}, {[]int32{1, 1}, "twice"}} {
		if err := p.SendReset(bad.ids); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("SendReset(%v) = %v, want an error saying %q", bad.ids, err, bad.want)
		}
	}
	if err := p.Send([]float32{3}, []int32{1}); err != nil {
		t.Fatal(err)
	}
	seen := map[int32]bool{}
	for range 2 {
		b, err := p.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Size {
			id, obs := b.EnvID[i], b.RowF32(i)
			seen[id] = true
			switch id {
			case 0:
				if !b.First[i] || b.ElapsedStep[i] != 0 || obs[1] != 0 || obs[3] != episode[0]+1 || b.Reward[i] != 0 {
					t.Errorf("reset env 0: first %v elapsed %d obs %v reward %v; want a new episode %v at step 0",
						b.First[i], b.ElapsedStep[i], obs, b.Reward[i], episode[0]+1)
				}
			case 1:
				if b.First[i] || obs[1] != 2 || obs[3] != episode[1] || b.ElapsedStep[i] != 2 {
					t.Errorf("env 1 (not reset): obs %v elapsed %d, want step 2 of episode %v", obs, b.ElapsedStep[i], episode[1])
				}
			default:
				if b.First[i] || obs[1] != 1 {
					t.Errorf("env %d (not reset): obs %v, want step 1", id, obs)
				}
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("rows for envs %v, want all four", seen)
	}
}

// trajectory records one env's (obs, reward, done) sequence.
type trajectory []float32

// runAsync drives a pool in async mode with a policy that depends only on the env's own
// observation, and returns each env's trajectory.
func runAsync(t *testing.T, threads int, work time.Duration, steps int) []trajectory {
	spec := countSpec()
	p, err := New(spec, countFactory(work), Options{NumEnvs: 8, BatchSize: 3, NumThreads: threads, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	trajs := make([]trajectory, 8)
	if err := p.AsyncReset(); err != nil {
		t.Fatal(err)
	}
	acts := make([]float32, 3)
	ids := make([]int32, 3)
	for range steps {
		b, err := p.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Size {
			id := b.EnvID[i]
			obs := b.RowF32(i)
			trajs[id] = append(trajs[id], obs[0], obs[1], obs[2], obs[3], b.Reward[i])
			acts[i] = float32(int(obs[1]*7+obs[3]*3) % 5)
			ids[i] = id
		}
		if err := p.Send(acts, ids); err != nil {
			t.Fatal(err)
		}
	}
	return trajs
}

func TestAsyncTrajectoriesIndependentOfThreads(t *testing.T) {
	// Which envs make up each batch depends on scheduling (an env can even be starved
	// for a while), so each env's trajectory is compared over the steps both runs made.
	ref := runAsync(t, 1, 0, 300)
	for _, threads := range []int{2, 3} {
		got := runAsync(t, threads, time.Microsecond*time.Duration(threads), 300)
		compared := 0
		for id := range ref {
			n := min(len(ref[id]), len(got[id]))
			compared += n / 5
			for k := range n {
				if ref[id][k] != got[id][k] {
					t.Fatalf("threads %d: env %d diverges at value %d", threads, id, k)
				}
			}
		}
		if compared < 300 {
			t.Fatalf("threads %d: only %d env steps were made by both runs", threads, compared)
		}
	}
}

func TestSyncBatchesDeterministic(t *testing.T) {
	run := func(threads int) []float32 {
		p := newCountPool(t, Options{NumEnvs: 5, NumThreads: threads, Seed: 3})
		b, _ := p.Reset()
		var out []float32
		acts := make([]float32, 5)
		for s := range 50 {
			out = append(out, b.ObsF32...)
			out = append(out, b.Reward...)
			for i := range acts {
				acts[i] = float32((s*i + int(b.RowF32(i)[1])) % 5)
			}
			b, _ = p.Step(acts, nil)
		}
		return out
	}
	a, b := run(1), run(3)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("sync batches differ at %d", i)
		}
	}
}

func TestBadInputs(t *testing.T) {
	if _, err := New(countSpec(), countFactory(0), Options{NumEnvs: 2, BatchSize: 3}); err == nil || !strings.Contains(err.Error(), "batch_size") {
		t.Errorf("batch_size > num_envs: %v", err)
	}
	if _, err := New(countSpec(), countFactory(0), Options{NumEnvs: 0}); err == nil || !strings.Contains(err.Error(), "num_envs") {
		t.Errorf("num_envs 0: %v", err)
	}
	if _, err := New(countSpec(), countFactory(0), Options{NumEnvs: 2, NumThreads: -1}); err == nil || !strings.Contains(err.Error(), "num_threads") {
		t.Errorf("num_threads -1: %v", err)
	}
	p := newCountPool(t, Options{NumEnvs: 4, BatchSize: 2, NumThreads: 2})
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"recv with nothing in flight", func() error { _, err := p.Recv(); return err }, "in flight"},
		{"wrong action length", func() error { return p.Send([]float32{1, 2, 3}, []int32{0, 1}) }, "action values"},
		{"env id out of range", func() error { return p.Send([]float32{1}, []int32{4}) }, "out of range"},
		{"negative env id", func() error { return p.Send([]float32{1}, []int32{-1}) }, "out of range"},
		{"duplicate env id", func() error { return p.Send([]float32{1, 1}, []int32{2, 2}) }, "twice"},
		{"discrete action out of range", func() error { return p.Send([]float32{5}, []int32{0}) }, "Discrete(5)"},
		{"fractional discrete action", func() error { return p.Send([]float32{1.5}, []int32{0}) }, "Discrete(5)"},
		{"send to a running env", func() error {
			if err := p.Send([]float32{1}, []int32{0}); err != nil {
				return err
			}
			return p.Send([]float32{1}, []int32{0})
		}, "still running"},
		{"async reset while running", func() error { return p.AsyncReset() }, "in flight"},
	}
	for _, c := range cases {
		if err := c.call(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	p.Close()
	if err := p.Send([]float32{1}, []int32{1}); err != ErrClosed {
		t.Errorf("send after close: %v", err)
	}
	if _, err := p.Recv(); err != ErrClosed {
		t.Errorf("recv after close: %v", err)
	}
	if _, err := p.Reset(); err != ErrClosed {
		t.Errorf("reset after close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

func TestNaNActionRejected(t *testing.T) {
	spec := countSpec()
	spec.ActionSpace = UniformBox(-1, 1, Float32, 1)
	p, _ := New(spec, countFactory(0), Options{NumEnvs: 1})
	defer p.Close()
	nan := float32(0)
	nan = nan / nan
	if err := p.Send([]float32{nan}, nil); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Fatalf("NaN action: %v", err)
	}
}

func TestPanickingEnvIsAnErrorNotACrash(t *testing.T) {
	factory := func(i int, seed int64) (Env, error) {
		e := &countEnv{seed: seed, rng: rand.New(rand.NewPCG(uint64(seed), 1))}
		if i == 1 {
			e.panicAt = 1
		}
		return e, nil
	}
	p, err := New(countSpec(), factory, Options{NumEnvs: 3, NumThreads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Reset()
	b, err := p.Step([]float32{0, 0, 0}, nil)
	if err == nil || !strings.Contains(err.Error(), "env 1 panicked") {
		t.Fatalf("want the panic as an error, got %v", err)
	}
	if !b.Truncated[1] {
		t.Fatal("the panicking env's row is not truncated")
	}
}

// TestStressNoRowLostOrDuplicated drives 1000 envs with random Send/Recv interleavings
// and checks that every step sent comes back exactly once.
func TestStressNoRowLostOrDuplicated(t *testing.T) {
	const n = 1000
	p := newCountPool(t, Options{NumEnvs: n, BatchSize: 37, NumThreads: 4, Seed: 1})
	rng := rand.New(rand.NewPCG(9, 9))
	idle := make([]int32, 0, n)
	sent := make([]int, n)
	got := make([]int, n)
	for i := range n {
		idle = append(idle, int32(i))
	}
	inFlight := 0
	acts := make([]float32, n)
	for round := range 400 {
		// Send a random subset of the idle envs.
		rng.Shuffle(len(idle), func(i, j int) { idle[i], idle[j] = idle[j], idle[i] })
		k := rng.IntN(len(idle) + 1)
		if round == 0 {
			k = len(idle)
		}
		ids := append([]int32(nil), idle[:k]...)
		idle = idle[k:]
		if k > 0 {
			if err := p.Send(acts[:k], ids); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range ids {
			sent[id]++
		}
		inFlight += k
		// Receive a random number of batches.
		for r := rng.IntN(4); r > 0 && inFlight >= 37; r-- {
			b, err := p.Recv()
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int32]bool{}
			for i := range b.Size {
				id := b.EnvID[i]
				if seen[id] {
					t.Fatalf("env %d twice in one batch", id)
				}
				seen[id] = true
				got[id]++
				idle = append(idle, id)
			}
			inFlight -= b.Size
		}
	}
	for inFlight >= 37 {
		b, err := p.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Size {
			got[b.EnvID[i]]++
		}
		inFlight -= b.Size
	}
	total := 0
	for i := range n {
		if got[i] > sent[i] || sent[i]-got[i] > 1 {
			t.Fatalf("env %d: sent %d, received %d", i, sent[i], got[i])
		}
		total += sent[i] - got[i]
	}
	if total != inFlight {
		t.Fatalf("%d steps unaccounted for, %d in flight", total, inFlight)
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	for _, o := range []Options{{NumEnvs: 64, NumThreads: 2}, {NumEnvs: 64, BatchSize: 16, NumThreads: 2}} {
		p := newCountPool(t, o)
		if o.BatchSize == 0 {
			p.Reset()
			acts := make([]float32, 64)
			if a := testing.AllocsPerRun(200, func() { p.Step(acts, nil) }); a != 0 {
				t.Errorf("sync Step allocates %v times per call", a)
			}
			continue
		}
		p.AsyncReset()
		b, _ := p.Recv()
		acts := make([]float32, 16)
		ids := make([]int32, 16)
		if a := testing.AllocsPerRun(200, func() {
			copy(ids, b.EnvID)
			b, _ = p.Step(acts, ids)
		}); a != 0 {
			t.Errorf("async Step allocates %v times per call", a)
		}
	}
}

func TestBuildErrorClosesAndReports(t *testing.T) {
	var built atomic.Int32
	factory := func(i int, seed int64) (Env, error) {
		if i == 2 {
			return nil, errFactory
		}
		built.Add(1)
		return &countEnv{rng: rand.New(rand.NewPCG(1, 1))}, nil
	}
	if _, err := New(countSpec(), factory, Options{NumEnvs: 4}); err == nil || !strings.Contains(err.Error(), "no env 2") {
		t.Fatalf("factory error: %v", err)
	}
}

var errFactory = errorString("no env 2")

type errorString string

func (e errorString) Error() string { return string(e) }

// RecvTimeout gives up on a batch that is not complete in time without consuming
// anything, and a later call returns that same batch.
func TestRecvTimeout(t *testing.T) {
	p, err := New(countSpec(), countFactory(30*time.Millisecond), Options{NumEnvs: 2, NumThreads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := p.Send([]float32{1, 2}, nil); err != nil {
		t.Fatal(err)
	}
	// Two steps of 30 ms on one worker: not done after 5 ms.
	if b, ok, err := p.RecvTimeout(5 * time.Millisecond); ok || b != nil || err != nil {
		t.Fatalf("RecvTimeout(5ms) = %v, %v, %v; want a timeout", b, ok, err)
	}
	b, ok, err := p.RecvTimeout(5 * time.Second)
	if !ok || err != nil || b.Size != 2 || b.RowF32(0)[2] != 1 || b.RowF32(1)[2] != 2 {
		t.Fatalf("RecvTimeout(5s) = %+v, %v, %v; want the batch of both steps", b, ok, err)
	}
	if _, _, err := p.RecvTimeout(time.Millisecond); err == nil || !strings.Contains(err.Error(), "in flight") {
		t.Errorf("RecvTimeout with nothing in flight: %v", err)
	}
}
