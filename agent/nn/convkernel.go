package nn

import "fmt"

// chunkColumns is the number of im2col columns (images x output positions) one chunk
// aims for: big enough for an efficient sgemm, small enough for the chunk's buffers to
// stay near the cache.
const chunkColumns = 1024

// convWork is one worker's scratch space, reused across steps.
type convWork[T Float] struct {
	prep []T // prepared (space-to-depth or converted) input chunk; also its gradient
	col  []T // im2col of a chunk, (KK, N); also dcol in backward
	tmp  []T // GEMM output (Cout, N) in forward, masked gradient in backward
	dwp  []T // this worker's dW in the prepared layout
	db   []T // this worker's db
}

// convKernel is the pure-Go convolution: a layer's forward and backward passes as
// im2col and single-threaded GEMMs spread over goroutines, into buffers it owns. It is
// not safe for concurrent use: one machine per graph at a time.
type convKernel[T Float] struct {
	g      convGeom
	relu   bool
	scale  T    // input multiplier (1/255 for raw pixels), folded into the GEMMs
	needDX bool // compute the input gradient (false for the first layer)
	nb     int  // images per chunk
	chunks int

	wp     []T // weights in the prepared layout
	y      []T // output (B, Cout, OH, OW)
	dw, db []T // weight and bias gradients
	dx     []T // input gradient (B, Cin, H, W), when needDX
	work   []convWork[T]
}

func newConvKernel[T Float](g convGeom, relu bool, scale T, needDX bool) *convKernel[T] {
	nw := workers()
	nb := max(1, chunkColumns/g.P)
	nb = min(nb, (g.B+nw-1)/nw) // at least one chunk per worker
	k := &convKernel[T]{g: g, relu: relu, scale: scale, needDX: needDX, nb: nb}
	k.chunks = (g.B + nb - 1) / nb
	return k
}

func (k *convKernel[T]) output() []T             { return k.y }
func (k *convKernel[T]) grads() (dw, db, dx []T) { return k.dw, k.db, k.dx }

// alloc creates the buffers on first use: graphs are often built and never run.
func (k *convKernel[T]) alloc() {
	if k.y != nil {
		return
	}
	g := &k.g
	k.wp = make([]T, g.Cout*g.KK)
	k.y = make([]T, g.B*g.Cout*g.P)
	k.work = make([]convWork[T], min(workers(), k.chunks))
}

func (k *convKernel[T]) allocBackward() {
	if k.dw != nil {
		return
	}
	g := &k.g
	k.dw = make([]T, g.Cout*g.KK)
	k.db = make([]T, g.Cout)
	if k.needDX {
		k.dx = make([]T, g.B*g.Cin*g.H*g.W)
	}
}

// source returns the prepared input of images [img0, img0+n): the space-to-depth
// rearrangement (converting to T), a converted copy for uint8 input, or a view of x.
func (k *convKernel[T]) source(w *convWork[T], x any, img0, n int) ([]T, error) {
	g := &k.g
	inImg := g.Cin * g.H * g.W
	if g.s2d {
		w.prep = grow(w.prep, n*g.Cp*g.Hp*g.Wp)
		switch x := x.(type) {
		case []uint8:
			spaceToDepth(g, n, x[img0*inImg:], w.prep)
		case []float32:
			spaceToDepth(g, n, x[img0*inImg:], w.prep)
		case []float64:
			spaceToDepth(g, n, x[img0*inImg:], w.prep)
		default:
			return nil, fmt.Errorf("nn: convolution input of type %T", x)
		}
		return w.prep, nil
	}
	switch x := x.(type) {
	case []T:
		return x[img0*inImg : (img0+n)*inImg], nil
	case []uint8:
		w.prep = grow(w.prep, n*inImg)
		for i, v := range x[img0*inImg : (img0+n)*inImg] {
			w.prep[i] = T(v)
		}
		return w.prep, nil
	}
	return nil, fmt.Errorf("nn: convolution input of type %T with %T weights", x, k.wp)
}

// chunk returns chunk ci's first image, its number of images and its number of
// im2col columns N (images x output positions).
func (k *convKernel[T]) chunk(ci int) (img0, n, N int) {
	img0 = ci * k.nb
	n = min(k.nb, k.g.B-img0)
	return img0, n, n * k.g.P
}

// columns fills wk.col with the im2col (KK rows, N columns) of images [img0, img0+n)
// of the input x.
func (k *convKernel[T]) columns(wk *convWork[T], x any, img0, n, N int) error {
	src, err := k.source(wk, x, img0, n)
	if err != nil {
		return err
	}
	wk.col = grow(wk.col, k.g.KK*N)
	im2col(&k.g, n, src, wk.col, N)
	return nil
}

// firstError returns the first non-nil error of errs, the workers' results.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// forward computes y = act(conv(scale*x, w) + b) over the batch.
func (k *convKernel[T]) forward(x any, w, b []T) error {
	k.alloc()
	g := &k.g
	permuteW(g, w, k.wp)
	errs := make([]error, len(k.work))
	parallelChunks(len(k.work), k.chunks, func(wi, ci int) {
		wk := &k.work[wi]
		img0, n, N := k.chunk(ci)
		if err := k.columns(wk, x, img0, n, N); err != nil {
			errs[wi] = err
			return
		}
		wk.tmp = grow(wk.tmp, g.Cout*N)
		gemm(false, false, g.Cout, N, g.KK, k.scale, k.wp, g.KK, wk.col, N, 0, wk.tmp, N)
		for img := 0; img < n; img++ {
			out := k.y[(img0+img)*g.Cout*g.P:]
			for o := 0; o < g.Cout; o++ {
				biasReLU(out[o*g.P:(o+1)*g.P], wk.tmp[o*N+img*g.P:], b[o], k.relu)
			}
		}
	})
	if err := firstError(errs); err != nil {
		return err
	}
	return nil
}

// backward computes dw, db and (when needDX) dx from the incoming gradient gy, the
// forward input x, weights w and forward output y. The im2col of each chunk is computed
// again rather than kept: in cache, that is as fast as reading it back.
func (k *convKernel[T]) backward(x any, w, y, gy []T) error {
	k.alloc()
	k.allocBackward()
	g := &k.g
	permuteW(g, w, k.wp)
	for i := range k.work {
		wk := &k.work[i]
		wk.dwp = grow(wk.dwp, g.Cout*g.KK)
		wk.db = grow(wk.db, g.Cout)
		clear(wk.dwp)
		clear(wk.db)
	}
	errs := make([]error, len(k.work))
	// Each worker sums its own chunks' dW and db: fixed ranges, so the sums are the same
	// on every run.
	parallelRanges(len(k.work), k.chunks, func(wi, ci int) {
		wk := &k.work[wi]
		img0, n, N := k.chunk(ci)
		// Masked gradient in the GEMM layout (Cout, N) and the bias gradient.
		wk.tmp = grow(wk.tmp, g.Cout*N)
		for img := 0; img < n; img++ {
			off := (img0 + img) * g.Cout * g.P
			for o := 0; o < g.Cout; o++ {
				dst := wk.tmp[o*N+img*g.P : o*N+(img+1)*g.P]
				if k.relu {
					wk.db[o] += maskGrad(dst, gy[off+o*g.P:], y[off+o*g.P:])
				} else {
					wk.db[o] += copySum(dst, gy[off+o*g.P:])
				}
			}
		}
		if err := k.columns(wk, x, img0, n, N); err != nil {
			errs[wi] = err
			return
		}
		gemm(false, true, g.Cout, g.KK, N, k.scale, wk.tmp, N, wk.col, N, 1, wk.dwp, g.KK)
		if !k.needDX {
			return
		}
		// dcol = W^T g, then scatter-add back to the (prepared) input.
		gemm(true, false, g.KK, N, g.Cout, k.scale, k.wp, g.KK, wk.tmp, N, 0, wk.col, N)
		inImg := g.Cin * g.H * g.W
		dx := k.dx[img0*inImg : (img0+n)*inImg]
		if g.s2d {
			wk.prep = grow(wk.prep, n*g.Cp*g.Hp*g.Wp)
			clear(wk.prep)
			col2im(g, n, wk.col, N, wk.prep)
			depthToSpace(g, n, wk.prep, dx)
			return
		}
		clear(dx)
		col2im(g, n, wk.col, N, dx)
	})
	if err := firstError(errs); err != nil {
		return err
	}
	// Reduce the per-worker partial sums.
	acc := k.work[0].dwp
	db := k.work[0].db
	for i := 1; i < len(k.work); i++ {
		for j, v := range k.work[i].dwp {
			acc[j] += v
		}
		for j, v := range k.work[i].db {
			db[j] += v
		}
	}
	unpermuteW(g, acc, k.dw)
	copy(k.db, db)
	return nil
}
