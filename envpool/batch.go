package envpool

import "sync/atomic"

// Batch is the output of one Recv: Size rows, each the result of one env step (or reset),
// in contiguous preallocated arrays of Size rows each. In sync mode rows come in the
// order the envs were sent (row i is env i after a Send or Reset of every env); in async
// mode they come in the order envs finished. EnvID says which env each row is.
//
// A Batch stays valid until the next Recv, Step or Reset; copy what you keep longer.
type Batch struct {
	Size    int
	ObsSize int // elements per observation row
	// Obs holds Size x ObsSize elements in the spec's dtype: ObsF32 for float32
	// observations, ObsU8 for pixels.
	ObsF32 []float32
	ObsU8  []uint8
	// FinalObs holds the terminal observation of rows that ended an episode, in
	// SameStep auto-reset mode only (nil otherwise; other rows are left stale).
	FinalObsF32 []float32
	FinalObsU8  []uint8

	EnvID       []int32
	Reward      []float32
	Terminated  []bool
	Truncated   []bool
	ElapsedStep []int32 // steps taken in the episode; 0 on the first observation of an episode
	// First marks rows that carry the first observation of an episode: a reset, an
	// auto-reset in NextStep mode, or (in SameStep mode) a row that ended an episode.
	First []bool
	// Info holds Size x Spec.InfoWidth() family values (lives, raw reward, ...), each
	// row's keys in Spec.InfoKeys' order.
	Info     []float32
	InfoSize int
}

// Done reports whether row i ended an episode (terminated or truncated).
func (b *Batch) Done(i int) bool { return b.Terminated[i] || b.Truncated[i] }

// RowF32 returns row i of the float32 observations.
func (b *Batch) RowF32(i int) []float32 { return b.ObsF32[i*b.ObsSize : (i+1)*b.ObsSize] }

// RowU8 returns row i of the uint8 observations.
func (b *Batch) RowU8(i int) []uint8 { return b.ObsU8[i*b.ObsSize : (i+1)*b.ObsSize] }

// InfoRow returns row i of the info columns.
func (b *Batch) InfoRow(i int) []float32 { return b.Info[i*b.InfoSize : (i+1)*b.InfoSize] }

func (b *Batch) obs(i int, final bool) Obs {
	lo, hi := i*b.ObsSize, (i+1)*b.ObsSize
	if final {
		if b.FinalObsU8 != nil {
			return Obs{U8: b.FinalObsU8[lo:hi]}
		}
		return Obs{F32: b.FinalObsF32[lo:hi]}
	}
	if b.ObsU8 != nil {
		return Obs{U8: b.ObsU8[lo:hi]}
	}
	return Obs{F32: b.ObsF32[lo:hi]}
}

// stateBuffer is one slot of the ring of output buffers. Workers claim rows of batch
// (BatchSize rows) and count them done; Recv sleeps on ready until all rows are written
// or counted, and returns out: batch cut to the rows of the envs that were in flight.
type stateBuffer struct {
	batch Batch
	out   Batch
	done  atomic.Int32
	ready *semaphore
}

// withdraw takes back n rows that a Recv counted as done before it gave up waiting,
// unless the batch completed meanwhile (done reached size, so ready has or is about to
// get its permit); it reports whether it took them back.
func (s *stateBuffer) withdraw(n int32, size int) bool {
	for {
		v := s.done.Load()
		if int(v) >= size {
			return false
		}
		if s.done.CompareAndSwap(v, v-n) {
			return true
		}
	}
}

// head returns b cut to its first n rows, sharing its arrays.
func (b *Batch) head(n int) Batch {
	h := *b
	h.Size = n
	obs, info := n*b.ObsSize, n*b.InfoSize
	h.EnvID, h.Reward, h.Terminated, h.Truncated = b.EnvID[:n], b.Reward[:n], b.Terminated[:n], b.Truncated[:n]
	h.ElapsedStep, h.First, h.Info = b.ElapsedStep[:n], b.First[:n], b.Info[:info]
	h.ObsF32, h.ObsU8 = cut(b.ObsF32, obs), cut(b.ObsU8, obs)
	h.FinalObsF32, h.FinalObsU8 = cut(b.FinalObsF32, obs), cut(b.FinalObsU8, obs)
	return h
}

// cut returns s[:n], or nil for a nil s (an array the batch does not have).
func cut[T any](s []T, n int) []T {
	if s == nil {
		return nil
	}
	return s[:n]
}

func newStateBuffer(spec *Spec, size int, sameStep bool) *stateBuffer {
	n := spec.ObsSpace.Size()
	b := Batch{
		Size:        size,
		ObsSize:     n,
		EnvID:       make([]int32, size),
		Reward:      make([]float32, size),
		Terminated:  make([]bool, size),
		Truncated:   make([]bool, size),
		ElapsedStep: make([]int32, size),
		First:       make([]bool, size),
		InfoSize:    spec.InfoWidth(),
		Info:        make([]float32, size*spec.InfoWidth()),
	}
	if spec.ObsSpace.DType == Uint8 {
		b.ObsU8 = make([]uint8, size*n)
		if sameStep {
			b.FinalObsU8 = make([]uint8, size*n)
		}
	} else {
		b.ObsF32 = make([]float32, size*n)
		if sameStep {
			b.FinalObsF32 = make([]float32, size*n)
		}
	}
	return &stateBuffer{batch: b, ready: newSemaphore()}
}
