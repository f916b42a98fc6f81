package envpool

import (
	"fmt"
	"testing"
)

func TestNewStateBufferLayout(t *testing.T) {
	tests := []struct {
		dtype    DType
		sameStep bool
	}{
		{Float32, false},
		{Float32, true},
		{Uint8, false},
		{Uint8, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v/sameStep=%v", tc.dtype, tc.sameStep), func(t *testing.T) {
			spec := countSpec()
			spec.ObsSpace = UniformBox(0, 255, tc.dtype, 2, 3, 4)
			spec.InfoKeys = []string{"lives", "raw_reward"}
			const size = 5
			b := &newStateBuffer(&spec, size, tc.sameStep).batch

			if b.Size != size || b.ObsSize != 24 || b.InfoSize != 2 {
				t.Fatalf("Size %d ObsSize %d InfoSize %d, want 5, 24, 2", b.Size, b.ObsSize, b.InfoSize)
			}
			for name, n := range map[string]int{
				"EnvID": len(b.EnvID), "Reward": len(b.Reward), "Terminated": len(b.Terminated),
				"Truncated": len(b.Truncated), "ElapsedStep": len(b.ElapsedStep), "First": len(b.First),
			} {
				if n != size {
					t.Errorf("len(%s) = %d, want %d", name, n, size)
				}
			}
			if len(b.Info) != size*2 {
				t.Errorf("len(Info) = %d, want %d", len(b.Info), size*2)
			}
			// Exactly the arrays of the spec's dtype exist; FinalObs only in SameStep mode.
			wantLen := func(n int, want bool) int {
				if want {
					return n
				}
				return 0
			}
			u8, f32 := tc.dtype == Uint8, tc.dtype == Float32
			checks := []struct {
				name      string
				got, want int
				isNil     bool
			}{
				{"ObsU8", len(b.ObsU8), wantLen(size*24, u8), b.ObsU8 == nil},
				{"ObsF32", len(b.ObsF32), wantLen(size*24, f32), b.ObsF32 == nil},
				{"FinalObsU8", len(b.FinalObsU8), wantLen(size*24, u8 && tc.sameStep), b.FinalObsU8 == nil},
				{"FinalObsF32", len(b.FinalObsF32), wantLen(size*24, f32 && tc.sameStep), b.FinalObsF32 == nil},
			}
			for _, c := range checks {
				if c.got != c.want || (c.want == 0) != c.isNil {
					t.Errorf("%s: len %d (nil %v), want len %d", c.name, c.got, c.isNil, c.want)
				}
			}
		})
	}
}

// TestBatchRowsAliasTheContiguousArrays checks that the row accessors, and the Obs a
// worker writes into, are windows on the batch's own arrays: what an env writes
// through them lands in row i and nowhere else, with no copy.
func TestBatchRowsAliasTheContiguousArrays(t *testing.T) {
	for _, dtype := range []DType{Float32, Uint8} {
		t.Run(dtype.String(), func(t *testing.T) {
			spec := countSpec()
			spec.ObsSpace = UniformBox(0, 255, dtype, 3)
			b := &newStateBuffer(&spec, 4, true).batch
			for i := range b.Size {
				obs, final := b.obs(i, false), b.obs(i, true)
				if (obs.U8 != nil) != (dtype == Uint8) || (obs.F32 != nil) != (dtype == Float32) {
					t.Fatalf("row %d: Obs has U8 %v F32 %v for %v", i, obs.U8 != nil, obs.F32 != nil, dtype)
				}
				for j := range 3 {
					v := 10*i + j + 1
					if dtype == Uint8 {
						obs.U8[j], final.U8[j] = uint8(v), uint8(100+v)
					} else {
						obs.F32[j], final.F32[j] = float32(v), float32(100+v)
					}
				}
				b.InfoRow(i)[0] = float32(i + 1)
			}
			for k := range b.Size * 3 {
				i, j := k/3, k%3
				want := 10*i + j + 1
				var got, gotFinal, gotRow int
				if dtype == Uint8 {
					got, gotFinal, gotRow = int(b.ObsU8[k]), int(b.FinalObsU8[k]), int(b.RowU8(i)[j])
				} else {
					got, gotFinal, gotRow = int(b.ObsF32[k]), int(b.FinalObsF32[k]), int(b.RowF32(i)[j])
				}
				if got != want || gotRow != want || gotFinal != 100+want {
					t.Fatalf("element %d (row %d): obs %d, row accessor %d, final %d; want %d, %d, %d",
						k, i, got, gotRow, gotFinal, want, want, 100+want)
				}
			}
			for i := range b.Size {
				if b.Info[i] != float32(i+1) || len(b.InfoRow(i)) != 1 {
					t.Fatalf("Info %v, want row i to hold i+1", b.Info)
				}
			}
		})
	}
}

func TestBatchDone(t *testing.T) {
	b := Batch{Terminated: []bool{false, true, false, true}, Truncated: []bool{false, false, true, true}}
	for i, want := range []bool{false, true, true, true} {
		if got := b.Done(i); got != want {
			t.Errorf("Done(%d) = %v with terminated %v truncated %v, want %v", i, got, b.Terminated[i], b.Truncated[i], want)
		}
	}
}

// idlePool builds a pool whose workers have no work, so a test can drive the ring of
// state buffers (claim, finish) itself, as the workers would.
func idlePool(t *testing.T, numEnvs, batchSize int) *Pool {
	t.Helper()
	return newCountPool(t, Options{NumEnvs: numEnvs, BatchSize: batchSize, NumThreads: 1})
}

// claimNext places a work item for env id as Send does and claims its row as a worker
// does when the step is done.
func claimNext(p *Pool, id int32) (*stateBuffer, int) {
	it := workItem{envID: id}
	p.place(&it)
	return p.claim(it)
}

// collected advances an idle pool past batch k as Recv does, so that the items placed
// next belong to batch k+1.
func collected(p *Pool, k int) {
	p.consumed, p.batchRows = uint64(k+1), 0
}

// TestRingHandsOutRowsInOrderAndWraps claims rows one after another, as finishing
// workers do, and checks that async mode fills rows 0..B-1 of each buffer in turn,
// moves to the next buffer every BatchSize rows and comes back to the first after a
// full lap, and that sync mode does the same with rows in send order.
func TestRingHandsOutRowsInOrderAndWraps(t *testing.T) {
	tests := []struct {
		numEnvs, batchSize int
		wantBufs           int
	}{
		{1, 1, 3},  // sync, one env
		{4, 4, 3},  // sync
		{5, 2, 5},  // async, NumEnvs not a multiple of BatchSize
		{6, 3, 4},  // async
		{8, 1, 10}, // async, one row per batch
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("envs=%d/batch=%d", tc.numEnvs, tc.batchSize), func(t *testing.T) {
			p := idlePool(t, tc.numEnvs, tc.batchSize)
			if len(p.bufs) != tc.wantBufs {
				t.Fatalf("%d state buffers, want %d", len(p.bufs), tc.wantBufs)
			}
			for a := range 3 * len(p.bufs) * tc.batchSize { // three laps of the ring
				id := int32((a*7 + 3) % tc.numEnvs) // any order of envs
				buf, row := claimNext(p, id)
				if a%tc.batchSize == tc.batchSize-1 {
					collected(p, a/tc.batchSize)
				}
				wantBuf := a / tc.batchSize % len(p.bufs)
				wantRow := a % tc.batchSize
				if buf != p.bufs[wantBuf] || row != wantRow {
					t.Fatalf("claim %d (env %d): buffer %d row %d, want buffer %d row %d",
						a, id, bufIndex(p, buf), row, wantBuf, wantRow)
				}
			}
		})
	}
}

func bufIndex(p *Pool, buf *stateBuffer) int {
	for i, b := range p.bufs {
		if b == buf {
			return i
		}
	}
	return -1
}

// TestRingNeverReachesTheHeldBatch checks the ring's size: however many envs are in
// flight (at most NumEnvs) while the caller holds a batch, the rows they claim never
// land in the held batch's buffer.
func TestRingNeverReachesTheHeldBatch(t *testing.T) {
	for numEnvs := 1; numEnvs <= 9; numEnvs++ {
		for batchSize := 1; batchSize <= numEnvs; batchSize++ {
			p := idlePool(t, numEnvs, batchSize)
			for held := range 2 * len(p.bufs) {
				// Rows up to the end of the held batch are claimed (and, in sync
				// mode, collected); the rest of the claims come from envs in flight
				// after it.
				p.rowAlloc.Store(uint64((held + 1) * batchSize))
				collected(p, held)
				for k := range numEnvs {
					if buf, _ := claimNext(p, int32(k)); buf == p.bufs[held%len(p.bufs)] {
						t.Fatalf("envs=%d batch=%d: in-flight row %d after held batch %d reuses its buffer (%d buffers)",
							numEnvs, batchSize, k, held, len(p.bufs))
					}
				}
			}
		}
	}
}

// TestBatchReadyExactlyWhenFull finishes rows of one buffer one by one and checks that
// Recv's semaphore gets its permit at the BatchSize-th row, not before, and only one.
func TestBatchReadyExactlyWhenFull(t *testing.T) {
	for _, batchSize := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(batchSize), func(t *testing.T) {
			p := idlePool(t, 5, batchSize)
			buf := p.bufs[0]
			for lap := range 2 { // the second lap reuses the buffer after a Recv
				p.rowAlloc.Store(uint64(lap * len(p.bufs) * batchSize)) // the start of buffer 0
				collected(p, lap*len(p.bufs)-1)
				for a := range batchSize {
					got, _ := claimNext(p, int32(a))
					if got != buf {
						t.Fatalf("lap %d: claim %d went to buffer %d, want 0", lap, a, bufIndex(p, got))
					}
					if n := buf.ready.count.Load(); n != 0 {
						t.Fatalf("lap %d: batch ready after %d of %d rows", lap, a, batchSize)
					}
					p.finish(got)
				}
				if n := buf.ready.count.Load(); n != 1 {
					t.Fatalf("lap %d: %d ready permits after %d of %d rows, want 1", lap, n, batchSize, batchSize)
				}
				// What Recv does with a ready buffer.
				buf.ready.acquire()
				buf.done.Store(0)
			}
		})
	}
}
