package nn

import "fmt"

// rowsPerTask splits b batch rows into one task per worker: every GEMM call packs the
// whole weight matrix, so fewer, larger calls are faster.
func rowsPerTask(b int) int { return max(1, (b+workers()-1)/workers()) }

// denseKernel is the pure-Go dense layer: y = act(x W + b) for x (B, In), W (In, Out),
// b (Out) and its gradients, computed with single-threaded GEMMs spread over
// goroutines into buffers it owns. Not safe for concurrent use.
type denseKernel[T Float] struct {
	B, In, Out int
	act        Activation
	needDX     bool

	y      []T // (B, Out)
	g      []T // masked output gradient (B, Out)
	dw, db []T
	dx     []T   // (B, In)
	dbw    [][]T // per-task bias-gradient partial sums
}

func newDenseKernel[T Float](b, in, out int, act Activation, needDX bool) *denseKernel[T] {
	return &denseKernel[T]{B: b, In: in, Out: out, act: act, needDX: needDX}
}

// input checks a dense layer's input: the weights' float type, B x In values.
func (k *denseKernel[T]) input(xv any) ([]T, error) {
	x, ok := xv.([]T)
	if !ok || len(x) != k.B*k.In {
		return nil, fmt.Errorf("nn: dense input is %T of %d values, want %d values of the weights' type", xv, lenOf(xv), k.B*k.In)
	}
	return x, nil
}

func lenOf(v any) int {
	switch s := v.(type) {
	case []float32:
		return len(s)
	case []float64:
		return len(s)
	case []uint8:
		return len(s)
	}
	return 0
}

func (k *denseKernel[T]) output() []T             { return k.y }
func (k *denseKernel[T]) grads() (dw, db, dx []T) { return k.dw, k.db, k.dx }

func (k *denseKernel[T]) forward(xv any, w, b []T) error {
	x, err := k.input(xv)
	if err != nil {
		return err
	}
	if k.y == nil {
		k.y = make([]T, k.B*k.Out)
	}
	rows := rowsPerTask(k.B)
	if rows < smallBatchRows && k.Out >= 32*workers() {
		// Small batch (actors' inference): split the output columns instead, so that
		// each worker packs only its part of the weights.
		cols := (k.Out + workers() - 1) / workers()
		cols = (cols + 15) &^ 15
		tasks := (k.Out + cols - 1) / cols
		parallelChunks(workers(), tasks, func(_, t int) {
			j0 := t * cols
			n := min(cols, k.Out-j0)
			gemm(false, false, k.B, n, k.In, 1, x, k.In, w[j0:], k.Out, 0, k.y[j0:], k.Out)
			for r := 0; r < k.B; r++ {
				biasAddRow(k.y[r*k.Out+j0:r*k.Out+j0+n], b[j0:j0+n], k.act)
			}
		})
		return nil
	}
	tasks := (k.B + rows - 1) / rows
	parallelChunks(workers(), tasks, func(_, t int) {
		r0 := t * rows
		n := min(rows, k.B-r0)
		y := k.y[r0*k.Out : (r0+n)*k.Out]
		gemm(false, false, n, k.Out, k.In, 1, x[r0*k.In:], k.In, w, k.Out, 0, y, k.Out)
		for r := 0; r < n; r++ {
			biasAddRow(y[r*k.Out:(r+1)*k.Out], b, k.act)
		}
	})
	return nil
}

// smallBatchRows is the batch rows per worker below which a dense forward pass splits
// the output columns over workers rather than the rows.
const smallBatchRows = 64

func biasAddRow[T Float](y, b []T, act Activation) {
	b = b[:len(y)]
	if act == ReLU {
		for i, v := range y {
			y[i] = max(v+b[i], 0)
		}
		return
	}
	for i, v := range y {
		y[i] = v + b[i]
	}
	activate(y, act)
}

// backward computes dw = x^T g, db = sum of g's rows and, when needDX, dx = g W^T, where
// g is gy taken back through the activation. dW is split over its rows, dx over batch
// rows.
func (k *denseKernel[T]) backward(xv any, w, y, gy []T) error {
	x, err := k.input(xv)
	if err != nil {
		return err
	}
	needDX := k.needDX
	if k.g == nil {
		k.g = make([]T, k.B*k.Out)
		k.dw = make([]T, k.In*k.Out)
		k.db = make([]T, k.Out)
	}
	if needDX && k.dx == nil {
		k.dx = make([]T, k.B*k.In)
	}
	rows := rowsPerTask(k.B)
	tasks := (k.B + rows - 1) / rows
	for len(k.dbw) < tasks {
		k.dbw = append(k.dbw, make([]T, k.Out))
	}
	for _, d := range k.dbw {
		clear(d)
	}
	// Each task sums its rows' bias gradient into its own buffer (tasks <= workers), and
	// the buffers are added in task order: the same sum on every run, whichever goroutine
	// ran which task.
	parallelChunks(workers(), tasks, func(_, t int) {
		r0 := t * rows
		n := min(rows, k.B-r0)
		for r := r0; r < r0+n; r++ {
			g := k.g[r*k.Out : (r+1)*k.Out]
			activationGrad(g, gy[r*k.Out:], y[r*k.Out:], k.act)
			db := k.dbw[t][:len(g)]
			for i, v := range g {
				db[i] += v
			}
		}
	})
	copy(k.db, k.dbw[0])
	for _, d := range k.dbw[1:tasks] {
		for i, v := range d {
			k.db[i] += v
		}
	}
	// Tasks 0..dwTasks-1 compute row blocks of dW; the rest compute row blocks of dx.
	const dwRows = 64
	dwTasks := (k.In + dwRows - 1) / dwRows
	dxTasks := 0
	if needDX {
		dxTasks = tasks
	}
	parallelChunks(workers(), dwTasks+dxTasks, func(_, t int) {
		if t < dwTasks {
			i0 := t * dwRows
			n := min(dwRows, k.In-i0)
			gemm(true, false, n, k.Out, k.B, 1, x[i0:], k.In, k.g, k.Out, 0, k.dw[i0*k.Out:], k.Out)
			return
		}
		r0 := (t - dwTasks) * rows
		n := min(rows, k.B-r0)
		gemm(false, true, n, k.In, k.Out, 1, k.g[r0*k.Out:], k.Out, w, k.Out, 0, k.dx[r0*k.In:], k.In)
	})
	return nil
}
