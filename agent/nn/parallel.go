package nn

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rlpool/rlpool/agent/blas"
)

// Float is the element type the custom ops compute in: float32 for training, float64 for
// gradient checks against stock Gorgonia.
type Float interface{ float32 | float64 }

// workers is how many goroutines an op spreads one call over: GOMAXPROCS.
func workers() int { return runtime.GOMAXPROCS(0) }

// parallelChunks runs f(worker, chunk) for chunk = 0..chunks-1 on up to nw goroutines
// (worker in 0..nw-1 names the goroutine, so f can use per-worker scratch buffers).
// Chunks are handed out dynamically, which balances uneven progress between cores.
func parallelChunks(nw, chunks int, f func(worker, chunk int)) {
	var next atomic.Int64
	onWorkers(nw, chunks, func(w, _ int) {
		for {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			f(w, c)
		}
	})
}

// parallelRanges runs f(worker, chunk) for chunk = 0..chunks-1 on up to nw goroutines,
// handing worker w a fixed contiguous range of chunks, visited in ascending order. A
// worker that accumulates partial sums (a convolution's weight gradient) then sums the
// same chunks in the same order on every run, and reducing the workers' partials in
// worker order gives bit-for-bit the same result for a given number of workers. The
// dynamic handout of parallelChunks would not: which worker sums which chunk, and so the
// rounding, would follow the scheduler.
func parallelRanges(nw, chunks int, f func(worker, chunk int)) {
	onWorkers(nw, chunks, func(w, nw int) {
		for c := w * chunks / nw; c < (w+1)*chunks/nw; c++ {
			f(w, c)
		}
	})
}

// onWorkers runs work(w, n) for w = 0..n-1, n = max(1, min(nw, chunks)), each on its
// own goroutine but the first, which runs on the caller's; it returns when all are done.
func onWorkers(nw, chunks int, work func(w, n int)) {
	n := max(1, min(nw, chunks))
	var wg sync.WaitGroup
	wg.Add(n - 1)
	for w := 1; w < n; w++ {
		go func(w int) {
			defer wg.Done()
			work(w, n)
		}(w)
	}
	work(0, n)
	wg.Wait()
}

// gemm is the row-major C = alpha*op(A)*op(B) + beta*C of agent/blas in T, on the
// calling goroutine (OpenBLAS single-threaded, or gonum when OpenBLAS is missing).
func gemm[T Float](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []float32:
		blas.Sgemm(tA, tB, m, n, k, float32(alpha), a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		blas.Dgemm(tA, tB, m, n, k, float64(alpha), a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

// grow returns s resized to n elements, reusing its storage when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
