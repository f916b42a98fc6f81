package blas

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemmArgs holds the scalar arguments of one Fortran ?gemm_/?gemv_ call. Fortran takes
// every argument by reference, so they must live in memory the collector does not move;
// pooling them keeps a call free of allocations beyond purego's own.
type gemmArgs struct {
	ta, tb                 byte
	m, n, k, lda, ldb, ldc int32
	inc1, inc2             int32
	salpha, sbeta          float32
	dalpha, dbeta          float64
}

var argPool = sync.Pool{New: func() any { return new(gemmArgs) }}

// parallelMACs is the least multiply-adds (m*n*k) for which Impl splits one product over
// goroutines; below it the goroutine hand-off costs more than it saves.
const parallelMACs = 1 << 19

// small is the most multiply-adds for which a product stays in gonum's Go code: a purego
// call costs about a microsecond, as much as gonum spends on a product this size.
const small = 512

// ptr is the address of s's first element; s must not be empty.
func ptr[T float32 | float64](s []T) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(s))) }

// checkGemm panics, as gonum does, when the row-major operands cannot hold the product.
func checkGemm(tA, tB bool, m, n, k, la, lda, lb, ldb, lc, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("blas: negative dimension m=%d n=%d k=%d", m, n, k))
	}
	rowsA, colsA := m, k
	if tA {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if tB {
		rowsB, colsB = n, k
	}
	if lda < max(1, colsA) || ldb < max(1, colsB) || ldc < max(1, n) {
		panic(fmt.Sprintf("blas: bad leading dimension lda=%d ldb=%d ldc=%d for m=%d n=%d k=%d", lda, ldb, ldc, m, n, k))
	}
	if m == 0 || n == 0 {
		return
	}
	if k > 0 && (la < lda*(rowsA-1)+colsA || lb < ldb*(rowsB-1)+colsB) {
		panic(fmt.Sprintf("blas: short A or B: len(a)=%d len(b)=%d for m=%d n=%d k=%d lda=%d ldb=%d", la, lb, m, n, k, lda, ldb))
	}
	if lc < ldc*(m-1)+n {
		panic(fmt.Sprintf("blas: short C: len(c)=%d for m=%d n=%d ldc=%d", lc, m, n, ldc))
	}
}

// scaleC sets C = beta*C, the whole product when k == 0 or alpha == 0.
func scaleC[T float32 | float64](m, n int, beta T, c []T, ldc int) {
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

func trans(t bool) byte {
	if t {
		return 'T'
	}
	return 'N'
}

// call1 runs one row-major product through the Fortran routine fn (sgemm_ or dgemm_) on
// the calling goroutine. Dimensions are checked and non-zero. The column-major routine
// computes C^T = op(B)^T op(A)^T, so A and B swap places.
func call1[T float32 | float64](fn uintptr, tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	g := argPool.Get().(*gemmArgs)
	g.ta, g.tb = trans(tB), trans(tA)
	g.m, g.n, g.k = int32(n), int32(m), int32(k)
	g.lda, g.ldb, g.ldc = int32(ldb), int32(lda), int32(ldc)
	var pa, pb uintptr
	switch any(alpha).(type) {
	case float32:
		g.salpha, g.sbeta = float32(alpha), float32(beta)
		pa, pb = uintptr(unsafe.Pointer(&g.salpha)), uintptr(unsafe.Pointer(&g.sbeta))
	default:
		g.dalpha, g.dbeta = float64(alpha), float64(beta)
		pa, pb = uintptr(unsafe.Pointer(&g.dalpha)), uintptr(unsafe.Pointer(&g.dbeta))
	}
	purego.SyscallN(fn,
		uintptr(unsafe.Pointer(&g.ta)), uintptr(unsafe.Pointer(&g.tb)),
		uintptr(unsafe.Pointer(&g.m)), uintptr(unsafe.Pointer(&g.n)), uintptr(unsafe.Pointer(&g.k)),
		pa, ptr(b), uintptr(unsafe.Pointer(&g.lda)),
		ptr(a), uintptr(unsafe.Pointer(&g.ldb)),
		pb, ptr(c), uintptr(unsafe.Pointer(&g.ldc)))
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	runtime.KeepAlive(c)
	runtime.KeepAlive(g)
	argPool.Put(g)
}

// gemm is the checked, optionally parallel row-major product behind Impl.Sgemm/Dgemm and
// the package-level helpers. workers <= 1 runs on the calling goroutine.
func gemm[T float32 | float64](fn uintptr, workers int, tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	checkGemm(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	macs := m * n * k
	if workers <= 1 || macs < parallelMACs {
		call1(fn, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// Split the larger of C's two dimensions into row or column blocks, one per worker,
	// in multiples of 16 so that blocks line up with the kernels' register tiles.
	splitRows := m >= n
	dim := n
	if splitRows {
		dim = m
	}
	workers = min(workers, max(1, dim/16))
	if workers <= 1 {
		call1(fn, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	block := (dim + workers - 1) / workers
	block = (block + 15) &^ 15
	var wg sync.WaitGroup
	part := func(lo, hi int) {
		if splitRows {
			offA := lo * lda // row lo of op(A)
			if tA {
				offA = lo
			}
			call1(fn, tA, tB, hi-lo, n, k, alpha, a[offA:], lda, b, ldb, beta, c[lo*ldc:], ldc)
			return
		}
		offB := lo // column lo of op(B)
		if tB {
			offB = lo * ldb
		}
		call1(fn, tA, tB, m, hi-lo, k, alpha, a, lda, b[offB:], ldb, beta, c[lo:], ldc)
	}
	for lo := block; lo < dim; lo += block {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			part(lo, hi)
		}(lo, min(lo+block, dim))
	}
	part(0, min(block, dim))
	wg.Wait()
}

func (im *Impl) workers() int {
	if n := im.parallel.Load(); n > 0 {
		return int(n)
	}
	return runtime.GOMAXPROCS(0)
}

// Sgemm computes C = alpha*op(A)*op(B) + beta*C in row-major order with OpenBLAS,
// splitting large products over goroutines (see SetParallel). Gorgonia's MatMul and
// convolution ops call it through gorgonia.Use.
func (im *Impl) Sgemm(tA, tB gblas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m*n*k <= small {
		im.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemm(im.sgemm, im.workers(), isTrans(tA), isTrans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dgemm is Sgemm in float64 (used by float64 graphs such as gradient checks).
func (im *Impl) Dgemm(tA, tB gblas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m*n*k <= small {
		im.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemm(im.dgemm, im.workers(), isTrans(tA), isTrans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Sgemv computes y = alpha*op(A)*x + beta*y (row-major A) with OpenBLAS for matrices
// large enough to repay the call, and with gonum otherwise.
func (im *Impl) Sgemv(tA gblas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	if m*n <= 4*small || incX <= 0 || incY <= 0 {
		im.Implementation.Sgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	t := isTrans(tA)
	lenX, lenY := n, m
	if t {
		lenX, lenY = m, n
	}
	if lda < max(1, n) || len(a) < lda*(m-1)+n || len(x) < 1+(lenX-1)*incX || len(y) < 1+(lenY-1)*incY {
		// Let gonum produce its usual panic message.
		im.Implementation.Sgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	g := argPool.Get().(*gemmArgs)
	// Row-major A (m x n) is column-major A^T (n x m): flip the transpose.
	g.ta = trans(!t)
	g.m, g.n, g.lda = int32(n), int32(m), int32(lda)
	g.inc1, g.inc2 = int32(incX), int32(incY)
	g.salpha, g.sbeta = alpha, beta
	purego.SyscallN(im.sgemv,
		uintptr(unsafe.Pointer(&g.ta)), uintptr(unsafe.Pointer(&g.m)), uintptr(unsafe.Pointer(&g.n)),
		uintptr(unsafe.Pointer(&g.salpha)), ptr(a), uintptr(unsafe.Pointer(&g.lda)),
		ptr(x), uintptr(unsafe.Pointer(&g.inc1)),
		uintptr(unsafe.Pointer(&g.sbeta)), ptr(y), uintptr(unsafe.Pointer(&g.inc2)))
	runtime.KeepAlive(a)
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
	runtime.KeepAlive(g)
	argPool.Put(g)
}

func isTrans(t gblas.Transpose) bool { return t == gblas.Trans || t == gblas.ConjTrans }

var pureGo gonum.Implementation

// Sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices on the calling
// goroutine: op(A) is m x k (A is stored k x m when transA), op(B) is k x n, C is m x n,
// and lda, ldb, ldc are row strides. It uses single-threaded OpenBLAS when Load succeeds
// and gonum otherwise. Custom ops call it once per goroutine, each on its own chunk of a
// batch, which is why it never splits the work itself.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	oneThread(func(im *Impl) uintptr { return im.sgemm }, pureGo.Sgemm, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dgemm is the float64 Sgemm helper.
func Dgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	oneThread(func(im *Impl) uintptr { return im.dgemm }, pureGo.Dgemm, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// oneThread is Sgemm and Dgemm: the product by gonum's routine fallback when OpenBLAS
// did not load or the product is small, else by the OpenBLAS routine that fn picks,
// on the calling goroutine.
func oneThread[T float32 | float64](fn func(*Impl) uintptr,
	fallback func(tA, tB gblas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int),
	transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	im, err := Load()
	if err != nil || m*n*k <= small {
		fallback(tr(transA), tr(transB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemm(fn(im), 1, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// GonumSgemm is Sgemm always computed by gonum's pure-Go BLAS: the baseline in
// benchmarks and the reference when OpenBLAS is missing.
func GonumSgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	pureGo.Sgemm(tr(transA), tr(transB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func tr(t bool) gblas.Transpose {
	if t {
		return gblas.Trans
	}
	return gblas.NoTrans
}
