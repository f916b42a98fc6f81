package nn

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/customop"
	"github.com/rlpool/rlpool/agent/dnnl"
)

// The ops in this file follow docs/design/custom-ops.md: each computes into buffers it
// owns and returns them from Do (vm.Reset clears every register, so an op that
// allocated its result would allocate every step). A layer's backward pass is one node
// computing all of its gradients and returning dW, plus customop.Pick nodes for db and dx.
// Every op has a unique id in its hash so that the graph never merges two of them.
//
// Consequences for users: a Value read from one of these nodes is overwritten by the
// next run (copy what you keep), and one graph's machine must not run concurrently with
// itself. Input tensors must be contiguous (plain *tensor.Dense).

// kernels is a layer's forward and backward computation, from one backend
// (backend.go): convolution and dense layers alike.
type kernels[T Float] interface {
	forward(x any, w, b []T) error
	backward(x any, w, y, dy []T) error
	output() []T
	grads() (dw, db, dx []T)
}

// data returns v's backing slice; v must be a contiguous tensor.
func data(v G.Value) (any, error) {
	t, ok := v.(tensor.Tensor)
	if !ok {
		return nil, fmt.Errorf("nn: expected a tensor, got %T", v)
	}
	if d, ok := t.(*tensor.Dense); ok && d.IsView() {
		return nil, fmt.Errorf("nn: tensor views are not supported; materialize the input first")
	}
	return t.Data(), nil
}

// inputData checks that op got its n inputs and returns the data of the first, the
// layer's input x, with which both of a layer's passes start.
func inputData(op fmt.Stringer, in []G.Value, n int) (any, error) {
	if len(in) != n {
		return nil, fmt.Errorf("nn: %v takes %d inputs, got %d", op, n, len(in))
	}
	return data(in[0])
}

func floats[T Float](v G.Value, n int, what string) ([]T, error) {
	d, err := data(v)
	if err != nil {
		return nil, err
	}
	s, ok := d.([]T)
	if !ok {
		return nil, fmt.Errorf("nn: %s holds %T, want %T", what, d, s)
	}
	if len(s) != n {
		return nil, fmt.Errorf("nn: %s has %d elements, want %d", what, len(s), n)
	}
	return s, nil
}

// Result numbers of a layer's pick nodes (customop.Results).
const (
	pickDB = 1
	pickDX = 2
)

// layer is what a layer's forward, backward and pick ops share: shapes, types, the
// kernels and the tensors wrapping their buffers.
type layer struct {
	id     uint64
	name   string // for String, e.g. "Conv8x8/4(4→32)+ReLU"
	xdt    tensor.Dtype
	dt     tensor.Dtype
	x, w   tensor.Shape // input and weight shapes
	y      tensor.Shape // output shape
	bias   int          // bias length: Cout, or a dense layer's Out
	needDX bool
	infer  bool // built for inference: no gradients (DiffWRT)
	k32    kernels[float32]
	k64    kernels[float64]

	yT, dwT, dbT, dxT *tensor.Dense
}

func newLayer(name string, x, w *G.Node, y tensor.Shape, bias int, needDX bool) *layer {
	return &layer{id: customop.NextID(), name: name, xdt: x.Dtype(), dt: w.Dtype(),
		x: x.Shape().Clone(), w: w.Shape().Clone(), y: y, bias: bias, needDX: needDX}
}

// ResultShape implements customop.Results.
func (l *layer) ResultShape(which int) tensor.Shape {
	if which == pickDB {
		return tensor.Shape{l.bias}
	}
	return l.x.Clone()
}

// Result implements customop.Results: db or dx as the backward op left them.
func (l *layer) Result(which int) (*tensor.Dense, error) {
	var d any
	if l.k32 != nil {
		_, db, dx := l.k32.grads()
		d = pickOf(which, db, dx)
	} else {
		_, db, dx := l.k64.grads()
		d = pickOf(which, db, dx)
	}
	t := &l.dxT
	if which == pickDB {
		t = &l.dbT
	}
	return customop.Wrap(t, d, l.ResultShape(which))
}

func pickOf[T Float](which int, db, dx []T) []T {
	if which == pickDB {
		return db
	}
	return dx
}

// forwardOp is y = layer(x, w, b).
type forwardOp struct {
	customop.Owned
	l *layer
}

// Arity implements gorgonia.Op: x, w, b.
func (op forwardOp) Arity() int { return 3 }

// Type implements gorgonia.Op. It builds a fresh type on every call: Gorgonia returns
// types to a pool.
func (op forwardOp) Type() hm.Type {
	l := op.l
	return hm.NewFnType(customop.TensorType(l.x.Dims(), l.xdt), customop.TensorType(l.w.Dims(), l.dt), customop.TensorType(1, l.dt), customop.TensorType(l.y.Dims(), l.dt))
}

// InferShape implements gorgonia.Op with a fresh shape.
func (op forwardOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return op.l.y.Clone(), nil }

// WriteHash implements gorgonia.Op; the unique id keeps the graph from merging two ops.
func (op forwardOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "rlpool.nn.layer#%d", op.l.id) }

// Hashcode implements gorgonia.Op.
func (op forwardOp) Hashcode() uint32 { return customop.Hash(op) }

// String implements fmt.Stringer.
func (op forwardOp) String() string { return fmt.Sprintf("%s#%d", op.l.name, op.l.id) }

// Do implements gorgonia.Op: it computes into buffers the layer owns and returns them.
func (op forwardOp) Do(in ...G.Value) (G.Value, error) {
	l := op.l
	x, err := inputData(op, in, op.Arity())
	if err != nil {
		return nil, err
	}
	var y any
	if l.k32 != nil {
		y, err = forward(l, l.k32, x, in[1], in[2])
	} else {
		y, err = forward(l, l.k64, x, in[1], in[2])
	}
	if err != nil {
		return nil, err
	}
	return customop.Wrap(&l.yT, y, l.y)
}

func forward[T Float](l *layer, k kernels[T], x any, wv, bv G.Value) ([]T, error) {
	w, err := floats[T](wv, l.w.TotalSize(), l.name+" weights")
	if err != nil {
		return nil, err
	}
	b, err := floats[T](bv, l.bias, l.name+" bias")
	if err != nil {
		return nil, err
	}
	if err := k.forward(x, w, b); err != nil {
		return nil, err
	}
	return k.output(), nil
}

// DiffWRT implements gorgonia.SDOp: which inputs have gradients (none in a layer
// built for inference).
func (op forwardOp) DiffWRT(int) []bool {
	return []bool{op.l.needDX, !op.l.infer, !op.l.infer}
}

// SymDiff implements gorgonia.SDOp: one backward node on (x, w, y, dy) returning dW,
// and pick nodes after it for db and, when the input needs a gradient, dx. The result
// is in input order (dx, dW, db); dx is nil when the input needs no gradient.
func (op forwardOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	l := op.l
	bw, err := G.ApplyOp(backwardOp{l: l}, inputs[0], inputs[1], output, grad)
	if err != nil {
		return nil, err
	}
	db, err := customop.Pick(bw, l, pickDB, l.name+".db")
	if err != nil {
		return nil, err
	}
	var dx *G.Node
	if l.needDX {
		if dx, err = customop.Pick(bw, l, pickDX, l.name+".dx"); err != nil {
			return nil, err
		}
	}
	return G.Nodes{dx, bw, db}, nil
}

// backwardOp computes a layer's dW (its result), db and dx (read by pick nodes) from
// (x, w, y, dy).
type backwardOp struct {
	customop.Grad
	l *layer
}

// Arity implements gorgonia.Op: x, w, y, dy.
func (op backwardOp) Arity() int { return 4 }

// Type implements gorgonia.Op with a fresh type.
func (op backwardOp) Type() hm.Type {
	l := op.l
	yd := l.y.Dims()
	return hm.NewFnType(customop.TensorType(l.x.Dims(), l.xdt), customop.TensorType(l.w.Dims(), l.dt), customop.TensorType(yd, l.dt), customop.TensorType(yd, l.dt), customop.TensorType(l.w.Dims(), l.dt))
}

// InferShape implements gorgonia.Op: dW's shape.
func (op backwardOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return op.l.w.Clone(), nil }

// WriteHash implements gorgonia.Op; the unique id keeps the graph from merging two ops.
func (op backwardOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "rlpool.nn.layerback#%d", op.l.id) }

// Hashcode implements gorgonia.Op.
func (op backwardOp) Hashcode() uint32 { return customop.Hash(op) }

// String implements fmt.Stringer.
func (op backwardOp) String() string { return fmt.Sprintf("%s.backward#%d", op.l.name, op.l.id) }

// Do implements gorgonia.Op: it computes into buffers the layer owns and returns dW.
func (op backwardOp) Do(in ...G.Value) (G.Value, error) {
	l := op.l
	x, err := inputData(op, in, op.Arity())
	if err != nil {
		return nil, err
	}
	var dw any
	if l.k32 != nil {
		dw, err = backward(l, l.k32, x, in[1:])
	} else {
		dw, err = backward(l, l.k64, x, in[1:])
	}
	if err != nil {
		return nil, err
	}
	return customop.Wrap(&l.dwT, dw, l.w)
}

func backward[T Float](l *layer, k kernels[T], x any, in []G.Value) ([]T, error) {
	w, err := floats[T](in[0], l.w.TotalSize(), l.name+" weights")
	if err != nil {
		return nil, err
	}
	n := l.y.TotalSize()
	y, err := floats[T](in[1], n, l.name+" output")
	if err != nil {
		return nil, err
	}
	dy, err := floats[T](in[2], n, l.name+" output gradient")
	if err != nil {
		return nil, err
	}
	if err := k.backward(x, w, y, dy); err != nil {
		return nil, err
	}
	dw, _, _ := k.grads()
	return dw, nil
}

// ConvOpts configures Conv.
type ConvOpts struct {
	Stride int  // stride in both directions; 0 means 1
	ReLU   bool // fuse a ReLU after the bias
	// Flatten makes the output (B, Cout*OH*OW) instead of (B, Cout, OH, OW), ready for a
	// dense layer without a Reshape node (NCHW order, so the same memory).
	Flatten bool
	// Scale multiplies the input; 0 means 1. Use 1.0/255 on raw pixels.
	Scale float64
	// NoInputGrad skips the input gradient: for the first layer, whose input is the
	// image, that saves the largest backward GEMM. Always on for uint8 input.
	NoInputGrad bool
	// Backend chooses the kernels; "" means BackendGo.
	Backend Backend
	// Inference builds the layer for a graph that is never differentiated (an actor's
	// or an evaluation's): the kernels may use inference-only primitives, and taking a
	// gradient through the layer is an error.
	Inference bool
	// Precision is the arithmetic of the layer's oneDNN kernels; "" means
	// PrecisionFP32.
	Precision Precision
	// Threads is the OpenMP team size of the layer's oneDNN kernels; 0 means one
	// thread per core (GOMAXPROCS). The Go kernels ignore it.
	Threads int

	link convLink // oneDNN layouts shared with the neighbouring convolutions (NatureCNN)
}

// Conv applies a convolution with bias (and optional ReLU) as one fused op with a fused
// backward: x (B, Cin, H, W) as uint8 or as the weights' float type (float32, float64),
// w (Cout, Cin, K, K) square, b (Cout), no padding. It returns the output node.
func Conv(x, w, b *G.Node, opts ConvOpts) (*G.Node, error) {
	xs, ws := x.Shape(), w.Shape()
	if xs.Dims() != 4 || ws.Dims() != 4 || ws[2] != ws[3] || ws[1] != xs[1] {
		return nil, fmt.Errorf("nn: Conv wants x (B,C,H,W) and w (Cout,C,K,K); got %v and %v", xs, ws)
	}
	if b.Shape().TotalSize() != ws[0] || b.Shape().Dims() != 1 {
		return nil, fmt.Errorf("nn: Conv bias has shape %v, want (%d)", b.Shape(), ws[0])
	}
	dt := w.Dtype()
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, fmt.Errorf("nn: Conv weights are %v, want float32 or float64", dt)
	}
	if x.Dtype() != dt && x.Dtype() != tensor.Uint8 {
		return nil, fmt.Errorf("nn: Conv input is %v, want uint8 or %v", x.Dtype(), dt)
	}
	stride := max(1, opts.Stride)
	g, err := newConvGeom(xs[0], xs[1], xs[2], xs[3], ws[0], ws[2], stride)
	if err != nil {
		return nil, err
	}
	scale := opts.Scale
	if scale == 0 {
		scale = 1
	}
	y := tensor.Shape{g.B, g.Cout, g.OH, g.OW}
	if opts.Flatten {
		y = tensor.Shape{g.B, g.Cout * g.P}
	}
	act := ""
	if opts.ReLU {
		act = "+ReLU"
	}
	needDX := !opts.NoInputGrad && x.Dtype() != tensor.Uint8 && !opts.Inference
	l := newLayer(fmt.Sprintf("Conv%dx%d/%d(%d→%d)%s", g.K, g.K, g.S, g.Cin, g.Cout, act), x, w, y, g.Cout, needDX)
	l.infer = opts.Inference
	mode := kernelMode{inference: opts.Inference, precision: opts.Precision, threads: opts.Threads}
	if dt == tensor.Float32 {
		l.k32, err = newConvKernels(opts.Backend, g, opts.ReLU, float32(scale), needDX, x.Dtype() == tensor.Uint8, opts.link, mode)
	} else {
		l.k64, err = newConvKernels(opts.Backend, g, opts.ReLU, scale, needDX, x.Dtype() == tensor.Uint8, opts.link, mode)
	}
	if err != nil {
		return nil, err
	}
	return G.ApplyOp(forwardOp{l: l}, x, w, b)
}

// DenseOpts configures Dense.
type DenseOpts struct {
	Act         Activation // applied after the bias
	NoInputGrad bool       // skip the input gradient (when x is data, not a layer's output)
	Backend     Backend    // the kernels; "" means BackendGo
	Inference   bool       // for a graph never differentiated (ConvOpts.Inference)
	Precision   Precision  // the oneDNN kernels' arithmetic; "" means PrecisionFP32
	Threads     int        // the oneDNN kernels' OpenMP team size (ConvOpts.Threads)

	// in is x's oneDNN layout when x is a convolution's output kept in it (see
	// convLink); only NatureCNN sets it, on inference graphs.
	in *dnnl.Layout
}

// Dense applies y = act(x w + b) as one fused op with a fused backward: x (B, In),
// w (In, Out), b (Out), all float32 or all float64.
//
// Why a custom op: built from stock Gorgonia ops a dense layer is five ops, each
// allocating its result on every run; the fused op computes into buffers it owns, with
// one GEMM forward and two backward.
func Dense(x, w, b *G.Node, opts DenseOpts) (*G.Node, error) {
	xs, ws := x.Shape(), w.Shape()
	if xs.Dims() != 2 || ws.Dims() != 2 || xs[1] != ws[0] {
		return nil, fmt.Errorf("nn: Dense wants x (B,In) and w (In,Out); got %v and %v", xs, ws)
	}
	if b.Shape().Dims() != 1 || b.Shape()[0] != ws[1] {
		return nil, fmt.Errorf("nn: Dense bias has shape %v, want (%d)", b.Shape(), ws[1])
	}
	dt := w.Dtype()
	if (dt != tensor.Float32 && dt != tensor.Float64) || x.Dtype() != dt || b.Dtype() != dt {
		return nil, fmt.Errorf("nn: Dense wants float32 or float64 throughout; got %v, %v, %v", x.Dtype(), dt, b.Dtype())
	}
	act, err := ParseActivation(string(opts.Act))
	if err != nil {
		return nil, fmt.Errorf("nn: Dense: %w", err)
	}
	suffix := ""
	if act != Linear {
		suffix = "+" + string(act)
	}
	B, in, out := xs[0], xs[1], ws[1]
	l := newLayer(fmt.Sprintf("Dense(%d→%d)%s", in, out, suffix), x, w, tensor.Shape{B, out}, out, !opts.NoInputGrad && !opts.Inference)
	l.infer = opts.Inference
	mode := kernelMode{inference: opts.Inference, precision: opts.Precision, threads: opts.Threads}
	if dt == tensor.Float32 {
		l.k32, err = newDenseKernels[float32](opts.Backend, B, in, out, act, l.needDX, mode, opts.in)
	} else {
		l.k64, err = newDenseKernels[float64](opts.Backend, B, in, out, act, l.needDX, mode, opts.in)
	}
	if err != nil {
		return nil, err
	}
	return G.ApplyOp(forwardOp{l: l}, x, w, b)
}
