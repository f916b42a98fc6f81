package impala

import "sync/atomic"

// Unroll is T consecutive steps of one env under the behaviour policy mu, as an actor
// sends it to the learner: T+1 observations (the last is the bootstrap observation
// x_T, and the first observation of the env's next unroll), and for each step the
// action, reward, whether the step ended an episode, and mu's logits.
type Unroll struct {
	T       int
	EnvID   int       // which env of its actor's pool
	Version int64     // learner version of the weights that chose the first action
	ObsF32  []float32 // (T+1) x obsSize, float32 observations
	ObsU8   []uint8   // or (T+1) x obsSize pixels
	Action  []int32   // T
	Reward  []float32 // T, raw
	Done    []bool    // T: terminated or truncated (both end the trace)
	Logits  []float32 // T x A: the behaviour policy's logits
}

// unrollQueue is the bounded queue from actors to the learner, with a free list that
// recycles unroll buffers. Memory is bounded: at most queue capacity unrolls wait,
// the learner holds at most one batch, and each env fills at most one (see the queue
// test). A full queue blocks the actors (back-pressure) instead of growing.
type unrollQueue struct {
	ch        chan *Unroll
	free      chan *Unroll
	T, A      int
	obsSize   int
	pixels    bool
	allocated atomic.Int64 // unroll buffers ever allocated
	maxLen    atomic.Int64 // the most unrolls ever seen waiting (for tests and logs)
}

func newUnrollQueue(capacity, freeCap, T, A, obsSize int, pixels bool) *unrollQueue {
	return &unrollQueue{ch: make(chan *Unroll, capacity), free: make(chan *Unroll, freeCap),
		T: T, A: A, obsSize: obsSize, pixels: pixels}
}

// get returns a recycled unroll buffer or a new one.
func (q *unrollQueue) get() *Unroll {
	select {
	case u := <-q.free:
		return u
	default:
	}
	q.allocated.Add(1)
	u := &Unroll{T: q.T, Action: make([]int32, q.T), Reward: make([]float32, q.T),
		Done: make([]bool, q.T), Logits: make([]float32, q.T*q.A)}
	if q.pixels {
		u.ObsU8 = make([]uint8, (q.T+1)*q.obsSize)
	} else {
		u.ObsF32 = make([]float32, (q.T+1)*q.obsSize)
	}
	return u
}

// put recycles a buffer the learner has finished with.
func (q *unrollQueue) put(u *Unroll) {
	select {
	case q.free <- u:
	default: // the free list is full: let the collector have it
	}
}

// push sends a full unroll to the learner, waiting while the queue is full; it returns
// false when stop is closed first.
func (q *unrollQueue) push(u *Unroll, stop <-chan struct{}) bool {
	select {
	case q.ch <- u:
	case <-stop:
		return false
	}
	if n := int64(len(q.ch)); n > q.maxLen.Load() {
		q.maxLen.Store(n) // approximate under concurrency; only ever a lower bound of the truth
	}
	return true
}
