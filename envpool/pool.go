// Package envpool is rlpool's environment engine: a pool of environment instances
// stepped by worker goroutines that write their results straight into preallocated
// batch buffers, in the manner of EnvPool (arXiv 2206.10558).
//
// Send queues actions for some envs and returns at once; Recv returns as soon as
// BatchSize envs have finished. With BatchSize == NumEnvs (sync mode) Recv waits for
// every env in flight and returns them in the order they were sent (env order for a
// Step of every env); with a smaller BatchSize (async mode) the first envs to finish
// form the batch and the learner overlaps its work with the stragglers.
//
// A fresh env counts as done: its first step, without a reset before it, starts it
// (see NewGamer) and returns its first observation, as a reset would.
//
// A Pool is driven by one goroutine: Send, Recv, Step, Reset and AsyncReset must not be
// called concurrently with each other.
package envpool

import (
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// ErrClosed is returned by every call on a closed pool.
var ErrClosed = errors.New("envpool: pool is closed")

// workItem asks a worker to step (or reset) one env. envID < 0 tells the worker to exit.
type workItem struct {
	envID int32
	reset bool
	// In sync mode the result goes to row row of state buffer buf: the batch open when
	// the env was sent, at the env's position among the envs sent to it. In async mode
	// row is -1 and the worker claims the next free row.
	buf, row int32
}

// queueSlot is one cell of the action queue. seq says whose turn the cell is: the
// sender may write position pos when seq == pos, a worker may read it when seq == pos+1,
// and after reading the worker hands the cell to the sender's next lap (pos+len). A
// worker delayed between taking a position and reading it therefore never has its item
// overwritten, however far the other workers run ahead.
type queueSlot struct {
	seq atomic.Uint64
	it  workItem
}

// lane is one worker's share of the action queue: a ring of the items of the envs
// whose ids are the worker's index modulo NumThreads. A worker takes from its own lane
// first, so that an env keeps running on the core whose caches hold its state (a
// MuJoCo env's model and data are far larger than the few microseconds of arithmetic
// a step does on them), and takes from the other lanes when its own is empty, so that
// no worker idles while items wait. avail counts the lane's items written and not yet
// claimed; the pool's work semaphore counts them over all lanes.
type lane struct {
	items []queueSlot
	tail  uint64 // the sender's next position
	added int64  // items the sender wrote since it last raised avail
	head  atomic.Uint64
	avail atomic.Int64
	_     [64]byte // lanes written by different cores sit on different cache lines
}

// envState is the pool's bookkeeping for one env. Only the worker running the env
// touches it (and Resumed, while the env is idle); the queue's atomics order successive
// workers, and Recv's wait orders a worker before the driving goroutine.
type envState struct {
	elapsed int32
	reset   resetKind // the reset due before the next step
}

// Pool steps NumEnvs environments on NumThreads workers. See the package doc.
type Pool struct {
	spec      Spec
	opts      Options
	envs      []Env
	state     []envState
	actionDim int
	actions   []float32 // NumEnvs x actionDim, copied in by Send

	// The action queue: one lane per worker, written by Send and drained by workers;
	// work counts the items in all lanes.
	lanes []lane
	work  *semaphore

	// The ring of output buffers.
	bufs     []*stateBuffer
	rowAlloc atomic.Uint64
	consumed uint64

	// Owned by the driving goroutine.
	busy      []bool // sent and not yet returned by Recv
	stamp     []uint64
	sendGen   uint64
	inFlight  int
	batchRows int // sync mode: the rows queued for the open batch
	closed    bool

	scratchInfo [][]float32 // per worker, for the info of a same-step reset
	workerErr   atomic.Pointer[error]
	// recvWaiting is set while Recv waits for a batch (finishRows).
	recvWaiting atomic.Bool
	wg          sync.WaitGroup
}

// New builds NumEnvs envs with factory (env i gets seed opts.Seed+i, built in parallel)
// and starts the workers.
func New(spec Spec, factory Factory, opts Options) (*Pool, error) {
	if err := spec.validate(); err != nil {
		return nil, err
	}
	o, err := opts.Resolve(&spec)
	if err != nil {
		return nil, err
	}
	p := &Pool{
		spec:      spec,
		opts:      o,
		envs:      make([]Env, o.NumEnvs),
		state:     make([]envState, o.NumEnvs),
		actionDim: spec.ActionSpace.Size(),
		work:      newSemaphore(),
		busy:      make([]bool, o.NumEnvs),
		stamp:     make([]uint64, o.NumEnvs),
	}
	p.actions = make([]float32, o.NumEnvs*p.actionDim)
	// A lane holds at most its envs' items (each env is in flight once) and a share of
	// Close's stop items.
	p.lanes = make([]lane, o.NumThreads)
	for w := range p.lanes {
		l := &p.lanes[w]
		l.items = make([]queueSlot, (o.NumEnvs+o.NumThreads-1)/o.NumThreads+1)
		for i := range l.items {
			l.items[i].seq.Store(uint64(i))
		}
	}
	for i := range p.state {
		p.state[i].reset = newGame // a fresh env counts as done
	}
	if err := p.buildEnvs(factory); err != nil {
		return nil, err
	}
	// Rows claimed ahead of the batch being read are bounded by NumEnvs, so this many
	// buffers never overwrite a batch the caller still holds.
	nbuf := (o.NumEnvs+o.BatchSize-1)/o.BatchSize + 2
	p.bufs = make([]*stateBuffer, nbuf)
	for i := range p.bufs {
		p.bufs[i] = newStateBuffer(&p.spec, o.BatchSize, o.AutoReset == SameStep)
	}
	p.scratchInfo = make([][]float32, o.NumThreads)
	for w := range o.NumThreads {
		p.scratchInfo[w] = make([]float32, spec.InfoWidth())
		p.wg.Add(1)
		go p.worker(w)
	}
	return p, nil
}

func (p *Pool) buildEnvs(factory Factory) error {
	var wg sync.WaitGroup
	errs := make([]error, len(p.envs))
	next := atomic.Int64{}
	for range min(p.opts.NumThreads, len(p.envs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(p.envs) {
					return
				}
				p.envs[i], errs[i] = factory(i, p.opts.Seed+int64(i))
				if errs[i] == nil && p.envs[i] == nil {
					errs[i] = fmt.Errorf("envpool: factory returned no env for index %d", i)
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		p.closeEnvs()
		return err
	}
	return nil
}

// Spec returns the environment's spec.
func (p *Pool) Spec() *Spec { return &p.spec }

// Options returns the resolved options (defaults filled in).
func (p *Pool) Options() Options { return p.opts }

// NumEnvs is the number of env instances.
func (p *Pool) NumEnvs() int { return p.opts.NumEnvs }

// BatchSize is the number of rows each Recv returns (in sync mode, at most: there Recv
// returns the envs in flight, which may be fewer).
func (p *Pool) BatchSize() int { return p.opts.BatchSize }

// syncMode reports whether the pool runs in sync mode (BatchSize == NumEnvs).
func (p *Pool) syncMode() bool { return p.opts.BatchSize == p.opts.NumEnvs }

// Resumed tells the pool that env i holds an episode in progress, restored from saved
// state: its next Send steps it rather than starting it with a reset, as the first step
// of a fresh env would. The env must not be in flight.
func (p *Pool) Resumed(i int) error {
	if p.closed {
		return ErrClosed
	}
	if i < 0 || i >= p.opts.NumEnvs {
		return fmt.Errorf("envpool: Resumed: env id %d out of range [0, %d)", i, p.opts.NumEnvs)
	}
	if p.busy[i] {
		return fmt.Errorf("envpool: Resumed: env %d is still running; Recv its result first", i)
	}
	p.state[i].reset = noReset
	return nil
}

// Env returns env i, for inspection (rendering, tests) while it is not running.
func (p *Pool) Env(i int) Env { return p.envs[i] }

// Send queues one step for each env in envIDs with its action (actions holds
// len(envIDs) x ActionSpace.Size() values; discrete actions are integer values). A nil
// envIDs means every env, in order. Send copies the actions and returns at once.
func (p *Pool) Send(actions []float32, envIDs []int32) error {
	if p.closed {
		return ErrClosed
	}
	n := len(envIDs)
	if envIDs == nil {
		n = p.opts.NumEnvs
	}
	if len(actions) != n*p.actionDim {
		return fmt.Errorf("envpool: Send: %d action values for %d envs; want %d (%d per env, action space %v)",
			len(actions), n, n*p.actionDim, p.actionDim, p.spec.ActionSpace)
	}
	p.sendGen++
	for k := range n {
		id := int(idAt(envIDs, k))
		if err := p.checkSend(id, actions[k*p.actionDim:(k+1)*p.actionDim]); err != nil {
			return err
		}
		p.stamp[id] = p.sendGen
	}
	for k := range n {
		id := idAt(envIDs, k)
		copy(p.actions[int(id)*p.actionDim:], actions[k*p.actionDim:(k+1)*p.actionDim])
		p.enqueue(workItem{envID: id})
	}
	p.publish(n)
	return nil
}

// idAt is the k-th env of a Send or SendReset: envIDs[k], or k when envIDs is nil
// (every env, in order).
func idAt(envIDs []int32, k int) int32 {
	if envIDs == nil {
		return int32(k)
	}
	return envIDs[k]
}

// checkID checks that an env named in a Send or SendReset (op) may be queued: in
// range, not running, not named twice in the call.
func (p *Pool) checkID(op string, id int) error {
	if id < 0 || id >= p.opts.NumEnvs {
		return fmt.Errorf("envpool: %s: env id %d out of range [0, %d)", op, id, p.opts.NumEnvs)
	}
	if p.busy[id] {
		return fmt.Errorf("envpool: %s: env %d is still running; Recv its result before sending it again", op, id)
	}
	if p.stamp[id] == p.sendGen {
		return fmt.Errorf("envpool: %s: env %d appears twice in one call", op, id)
	}
	return nil
}

func (p *Pool) checkSend(id int, action []float32) error {
	if err := p.checkID("Send", id); err != nil {
		return err
	}
	sp := &p.spec.ActionSpace
	for j, a := range action {
		if math.IsNaN(float64(a)) || math.IsInf(float64(a), 0) {
			return fmt.Errorf("envpool: Send: env %d: action element %d is %v", id, j, a)
		}
		if sp.Kind == Discrete && (a != float32(math.Trunc(float64(a))) || a < 0 || int(a) >= sp.N) {
			return fmt.Errorf("envpool: Send: env %d: action %v is not in Discrete(%d) (an integer in [0, %d))", id, a, sp.N, sp.N)
		}
	}
	return nil
}

// enqueue puts an item on its env's lane (a stop item on lane stop); the caller
// publishes the items it enqueued afterwards.
func (p *Pool) enqueue(it workItem, stop ...int) {
	var l *lane
	if it.envID >= 0 {
		p.place(&it)
		l = &p.lanes[int(it.envID)%len(p.lanes)]
	} else {
		l = &p.lanes[stop[0]%len(p.lanes)]
	}
	s := &l.items[l.tail%uint64(len(l.items))]
	for s.seq.Load() != l.tail {
		runtime.Gosched() // a worker has yet to read this cell's previous item
	}
	s.it = it
	s.seq.Store(l.tail + 1)
	l.tail++
	l.added++
	if it.envID >= 0 {
		p.busy[it.envID] = true
		p.inFlight++
	}
}

// publish makes the n items enqueued since the last publish available to the workers:
// each lane's count first, then the permits, so that a worker holding a permit always
// finds an item (take). One atomic add per lane and one release per Send keep the
// sender's cost per item to writing it.
func (p *Pool) publish(n int) {
	if len(p.lanes) > 1 {
		for w := range p.lanes {
			if l := &p.lanes[w]; l.added > 0 {
				l.avail.Add(l.added)
				l.added = 0
			}
		}
	}
	p.work.release(n)
}

// place says where an item's result goes: in sync mode, the next row of the open batch
// (the buffer Recv reads next); in async mode, the row a worker claims when it is done.
func (p *Pool) place(it *workItem) {
	it.buf, it.row = 0, -1
	if p.syncMode() {
		it.buf, it.row = int32(p.consumed%uint64(len(p.bufs))), int32(p.batchRows)
		p.batchRows++
	}
}

// Recv waits for the next batch and returns it. In async mode a batch is BatchSize
// rows, and Recv fails instead of blocking forever when fewer envs are in flight. In
// sync mode it is every env in flight, in the order they were sent (a Send or
// SendReset of some envs gets just those back), and Recv fails when none is.
func (p *Pool) Recv() (*Batch, error) {
	b, _, err := p.recv(-1)
	return b, err
}

// RecvTimeout is Recv waiting at most d: ok is false when the batch was not complete by
// then, and the next Recv or RecvTimeout waits for the same batch. A caller that must
// stay responsive while it waits (an interpreter handling Ctrl-C) polls with it.
func (p *Pool) RecvTimeout(d time.Duration) (b *Batch, ok bool, err error) {
	return p.recv(max(d, 0))
}

// recv is Recv with a time limit (negative: none).
func (p *Pool) recv(d time.Duration) (*Batch, bool, error) {
	if p.closed {
		return nil, false, ErrClosed
	}
	n := p.opts.BatchSize
	if p.syncMode() {
		n = p.inFlight
		if n == 0 {
			return nil, false, errors.New("envpool: Recv: no envs in flight; Send, SendReset or AsyncReset first")
		}
	}
	if p.inFlight < n {
		return nil, false, fmt.Errorf("envpool: Recv: %d envs in flight but a batch needs %d; Send (or AsyncReset) first", p.inFlight, n)
	}
	buf := p.bufs[p.consumed%uint64(len(p.bufs))]
	// A buffer is ready when BatchSize rows are done; the rows of a partial sync batch
	// that no env will write count as done from the start.
	missing := int32(p.opts.BatchSize - n)
	if missing > 0 {
		p.finishRows(buf, missing)
	}
	if !buf.ready.tryAcquire() {
		p.recvWaiting.Store(true)
		ok := p.wait(buf, d, missing)
		p.recvWaiting.Store(false)
		if !ok {
			return nil, false, nil
		}
	}
	buf.done.Store(0)
	p.consumed++
	p.batchRows = 0
	buf.out = buf.batch.head(n)
	b := &buf.out
	for _, id := range b.EnvID {
		p.busy[id] = false
	}
	p.inFlight -= n
	if e := p.workerErr.Load(); e != nil {
		return b, true, *e
	}
	return b, true, nil
}

// wait waits for buf's batch, at most d when d >= 0; false means it gave up, with the
// rows that no env will write withdrawn again.
func (p *Pool) wait(buf *stateBuffer, d time.Duration, missing int32) bool {
	if d < 0 {
		buf.ready.acquire()
		return true
	}
	if buf.ready.acquireTimeout(d) {
		return true
	}
	if missing == 0 || buf.withdraw(missing, p.opts.BatchSize) {
		return false
	}
	buf.ready.acquire() // the batch completed as the wait ended; its permit is given
	return true
}

// Step is Send followed by Recv.
func (p *Pool) Step(actions []float32, envIDs []int32) (*Batch, error) {
	if err := p.Send(actions, envIDs); err != nil {
		return nil, err
	}
	return p.Recv()
}

// AsyncReset queues a reset of every env; Recv collects the first observations.
func (p *Pool) AsyncReset() error {
	if p.closed {
		return ErrClosed
	}
	if p.inFlight > 0 {
		return fmt.Errorf("envpool: AsyncReset: %d envs still in flight; Recv them first", p.inFlight)
	}
	return p.SendReset(nil)
}

// SendReset queues a reset of each env in envIDs (nil: every env), none of which may
// be in flight, and returns at once; Recv collects their first observations as it
// collects the results of a Send, the other envs' steps may be in flight meanwhile.
// This is EnvPool's reset(env_id): a new episode in a new game for some envs, whatever
// state theirs is in (see NewGamer).
func (p *Pool) SendReset(envIDs []int32) error {
	if p.closed {
		return ErrClosed
	}
	n := len(envIDs)
	if envIDs == nil {
		n = p.opts.NumEnvs
	}
	p.sendGen++
	for k := range n {
		id := int(idAt(envIDs, k))
		if err := p.checkID("SendReset", id); err != nil {
			return err
		}
		p.stamp[id] = p.sendGen
	}
	for k := range n {
		p.enqueue(workItem{envID: idAt(envIDs, k), reset: true})
	}
	p.publish(n)
	return nil
}

// Reset resets every env, each to a new game (see NewGamer), and returns the first
// batch of observations (all envs in sync mode; the first BatchSize to finish in async
// mode, with the rest still in flight).
func (p *Pool) Reset() (*Batch, error) {
	if err := p.AsyncReset(); err != nil {
		return nil, err
	}
	return p.Recv()
}

// Close stops the workers after the steps already queued and closes envs that
// implement io.Closer. Calls after Close return ErrClosed; Close itself is idempotent.
func (p *Pool) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	for w := range p.opts.NumThreads {
		p.enqueue(workItem{envID: -1}, w)
	}
	p.publish(p.opts.NumThreads)
	p.wg.Wait()
	return p.closeEnvs()
}

func (p *Pool) closeEnvs() error {
	var errs []error
	for _, e := range p.envs {
		if c, ok := e.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

func (p *Pool) worker(w int) {
	defer p.wg.Done()
	if p.opts.ThreadAffinity {
		// Pinning needs a thread of its own. Unpinned workers stay ordinary goroutines:
		// a goroutine locked to a thread pays a futex wake-up for every hand-off,
		// which costs more than a no-op env step.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var set unix.CPUSet
		set.Set((p.opts.ThreadAffinityOffset + w) % runtime.NumCPU())
		_ = unix.SchedSetaffinity(0, &set) // best effort: pinning is a speed hint
	}
	for {
		p.work.acquire()
		it := p.take(w)
		if it.envID < 0 {
			return
		}
		p.runSafe(w, it)
	}
}

// take claims an item for worker w, which holds a work permit: from its own lane when
// it has one, else from the next lane that does. A permit stands for an item written
// to some lane (avail is raised before the permit is released), so the search ends. A
// lone worker takes from its lane without counting.
func (p *Pool) take(w int) workItem {
	n := len(p.lanes)
	if n == 1 {
		return p.lanes[0].claim()
	}
	for {
		for k := range n {
			l := &p.lanes[(w+k)%n]
			if l.avail.Add(-1) >= 0 {
				return l.claim()
			}
			l.avail.Add(1) // none here: give the count back
		}
	}
}

// claim reads the lane's next item, which the caller has counted as its own.
func (l *lane) claim() workItem {
	pos := l.head.Add(1) - 1
	s := &l.items[pos%uint64(len(l.items))]
	for s.seq.Load() != pos+1 {
		runtime.Gosched() // written before it was counted; only a reordering delay
	}
	it := s.it
	s.seq.Store(pos + uint64(len(l.items)))
	return it
}

// runSafe runs one work item; a panicking env is reported by the next Recv and its row
// is still delivered (truncated), so the pool never hangs or takes the process down.
func (p *Pool) runSafe(w int, it workItem) {
	claimed := (*stateBuffer)(nil)
	row := 0
	defer func() {
		if r := recover(); r != nil {
			err := fmt.Errorf("envpool: env %d panicked: %v", it.envID, r)
			p.workerErr.CompareAndSwap(nil, &err)
			p.state[it.envID].reset = newGame
			if claimed == nil {
				claimed, row = p.claim(it)
			}
			b := &claimed.batch
			b.EnvID[row], b.Truncated[row], b.Terminated[row] = it.envID, true, false
			p.finish(claimed)
		}
	}()
	p.run(w, it, &claimed, &row)
}

func (p *Pool) run(w int, it workItem, claimed **stateBuffer, rowOut *int) {
	id := it.envID
	env, st := p.envs[id], &p.state[id]
	var res StepResult
	first := false
	kind := st.reset
	if it.reset {
		kind = newGame
	}
	if kind != noReset {
		if kind == newGame {
			StartNewGame(env)
		} else {
			env.Reset()
		}
		st.elapsed, st.reset, first = 0, noReset, true
	} else {
		res = env.Step(p.actions[int(id)*p.actionDim : (int(id)+1)*p.actionDim])
		st.elapsed++
		if p.opts.MaxEpisodeSteps > 0 && int(st.elapsed) >= p.opts.MaxEpisodeSteps {
			res.Truncated = true
		}
	}
	buf, row := p.claim(it)
	*claimed, *rowOut = buf, row
	b := &buf.batch
	info := b.Info[row*b.InfoSize : (row+1)*b.InfoSize]
	b.EnvID[row] = id
	b.Reward[row] = res.Reward
	b.Terminated[row] = res.Terminated
	b.Truncated[row] = res.Truncated
	b.ElapsedStep[row] = st.elapsed
	done := res.Terminated || res.Truncated
	switch {
	case done && p.opts.AutoReset == SameStep:
		env.Observe(b.obs(row, true), info)
		env.Reset()
		st.elapsed, first = 0, true
		env.Observe(b.obs(row, false), p.scratchInfo[w])
	default:
		env.Observe(b.obs(row, false), info)
		if done {
			st.reset = autoReset
		}
	}
	b.First[row] = first
	p.finish(buf)
}

// claim returns the output row of a finished item. In sync mode it is the row the item
// was given when it was sent, so a batch comes back in send order; in async mode it is
// the next free row, taken with one atomic add.
func (p *Pool) claim(it workItem) (*stateBuffer, int) {
	if it.row >= 0 {
		return p.bufs[it.buf], int(it.row)
	}
	a := p.rowAlloc.Add(1) - 1
	bs := uint64(p.opts.BatchSize)
	return p.bufs[(a/bs)%uint64(len(p.bufs))], int(a % bs)
}

// finish counts one row of buf as written.
func (p *Pool) finish(buf *stateBuffer) { p.finishRows(buf, 1) }

// finishRows counts n rows of buf as written; whoever completes the BatchSize rows
// wakes Recv.
func (p *Pool) finishRows(buf *stateBuffer, n int32) {
	if int(buf.done.Add(n)) == p.opts.BatchSize {
		buf.ready.release(1)
		if p.recvWaiting.Load() && p.work.count.Load() > 0 {
			// Hand this processor to the woken Recv. The runtime queues it behind the
			// running goroutine, and a worker with items still queued never yields on
			// its own: with every processor stepping envs, the driving goroutine would
			// sit runnable until the queue ran dry, and the pool would lose the
			// overlap of its next Send with the steps still in flight.
			runtime.Gosched()
		}
	}
}
