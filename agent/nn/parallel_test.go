package nn

import (
	"sync"
	"testing"
)

// parallelRanges gives each worker a fixed contiguous range of chunks in ascending
// order, the same on every call, and covers every chunk once; parallelChunks covers
// every chunk once whichever worker takes it.
func TestParallelRangesAndChunks(t *testing.T) {
	for _, c := range []struct{ nw, chunks int }{{1, 5}, {2, 5}, {3, 7}, {4, 2}, {8, 64}, {3, 0}} {
		var mu sync.Mutex
		seen := make([][]int, max(1, min(c.nw, c.chunks)))
		parallelRanges(c.nw, c.chunks, func(w, chunk int) {
			mu.Lock()
			seen[w] = append(seen[w], chunk)
			mu.Unlock()
		})
		next := 0
		for w, got := range seen {
			for _, chunk := range got {
				if chunk != next {
					t.Fatalf("nw %d, %d chunks: worker %d got %v; chunks should go out in contiguous ascending ranges by worker (%v)", c.nw, c.chunks, w, got, seen)
				}
				next++
			}
		}
		if next != c.chunks {
			t.Errorf("nw %d, %d chunks: %d chunks run", c.nw, c.chunks, next)
		}

		counts := make([]int, c.chunks)
		parallelChunks(c.nw, c.chunks, func(w, chunk int) {
			mu.Lock()
			counts[chunk]++
			mu.Unlock()
			if w < 0 || w >= max(1, min(c.nw, c.chunks)) {
				t.Errorf("worker %d out of range", w)
			}
		})
		for chunk, n := range counts {
			if n != 1 {
				t.Errorf("parallelChunks ran chunk %d %d times", chunk, n)
			}
		}
	}
}
