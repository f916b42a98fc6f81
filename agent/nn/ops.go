package nn

import (
	"fmt"
	"hash"
	"sync/atomic"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/gop"
)

// The ops in this file follow reference/GORGONIA.md: each computes into buffers it owns
// and returns them from Do (vm.Reset clears every register, so an op that allocated
// its result would allocate every step). A backward pass with several results is one
// node computing all of them, returning one, plus "pick" nodes that take it as input
// (which orders them after it) and return the others. Every op has a unique id in its
// hash so that the graph never merges two of them.
//
// Consequences for users: a Value read from one of these nodes is overwritten by the
// next run (copy what you keep), and one graph's machine must not run concurrently with
// itself. Input tensors must be contiguous (plain *tensor.Dense).

var opIDs atomic.Uint64

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

// picker is the shared state of a layer whose backward op computes several results.
type picker interface {
	picked(which int) (*tensor.Dense, error)
	pickShape(which int) tensor.Shape
	backType() hm.Type
	dtype() tensor.Dtype
	opID() uint64
}

const (
	pickDB = 1
	pickDX = 2
)

// pickOp returns one of the results its layer's backward op computed (db or dx).
type pickOp struct {
	gop.Grad
	st    picker
	which int
}

// Arity implements gorgonia.Op: the number of inputs.
func (op pickOp) Arity() int { return 1 }

// Type implements gorgonia.Op. It builds a fresh type on every call: Gorgonia returns types to a pool.
func (op pickOp) Type() hm.Type {
	return hm.NewFnType(op.st.backType(), gop.TensorType(op.st.pickShape(op.which).Dims(), op.st.dtype()))
}

// InferShape implements gorgonia.Op with a fresh shape.
func (op pickOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return op.st.pickShape(op.which).Clone(), nil
}

// Do implements gorgonia.Op: it returns the buffer the backward op filled.
func (op pickOp) Do(...G.Value) (G.Value, error) { return op.st.picked(op.which) }

// WriteHash implements gorgonia.Op; the unique id keeps the graph from merging two ops.
func (op pickOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "rlpool.nn.pick#%d.%d", op.st.opID(), op.which)
}

// Hashcode implements gorgonia.Op.
func (op pickOp) Hashcode() uint32 { return gop.Hash(op) }

// String implements fmt.Stringer.
func (op pickOp) String() string {
	return fmt.Sprintf("pick%s#%d", map[int]string{pickDB: "db", pickDX: "dx"}[op.which], op.st.opID())
}

// layerGrads is a layer's SymDiff: one backward node back (which returns dW) on
// (x, w, y, dy), and pick nodes after it for db and, when needDX, dx. The result is in
// input order (x, w, b); dx is nil when the input needs no gradient.
func layerGrads(back G.Op, st picker, needDX bool, inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	bw, err := G.ApplyOp(back, inputs[0], inputs[1], output, grad)
	if err != nil {
		return nil, err
	}
	db, err := G.ApplyOp(pickOp{st: st, which: pickDB}, bw)
	if err != nil {
		return nil, err
	}
	var dx *G.Node
	if needDX {
		if dx, err = G.ApplyOp(pickOp{st: st, which: pickDX}, bw); err != nil {
			return nil, err
		}
	}
	return G.Nodes{dx, bw, db}, nil
}

// ---------------------------------------------------------------------------------------
// Convolution.

// convState is what a convolution op and its backward and pick ops share.
type convState struct {
	id      uint64
	g       convGeom
	relu    bool
	flatten bool
	needDX  bool
	scale   float64
	xdt, dt tensor.Dtype
	k32     *convKernel[float32]
	k64     *convKernel[float64]

	yT, dwT, dbT, dxT *tensor.Dense
}

func (st *convState) opID() uint64        { return st.id }
func (st *convState) dtype() tensor.Dtype { return st.dt }
func (st *convState) backType() hm.Type   { return gop.TensorType(4, st.dt) }
func (st *convState) outShape() tensor.Shape {
	if st.flatten {
		return tensor.Shape{st.g.B, st.g.Cout * st.g.P}
	}
	return tensor.Shape{st.g.B, st.g.Cout, st.g.OH, st.g.OW}
}
func (st *convState) wShape() tensor.Shape {
	return tensor.Shape{st.g.Cout, st.g.Cin, st.g.K, st.g.K}
}
func (st *convState) pickShape(which int) tensor.Shape {
	if which == pickDB {
		return tensor.Shape{st.g.Cout}
	}
	return tensor.Shape{st.g.B, st.g.Cin, st.g.H, st.g.W}
}

func (st *convState) picked(which int) (*tensor.Dense, error) {
	var d any
	var t **tensor.Dense
	switch {
	case which == pickDB && st.k32 != nil:
		d, t = st.k32.db, &st.dbT
	case which == pickDB:
		d, t = st.k64.db, &st.dbT
	case st.k32 != nil:
		d, t = st.k32.dx, &st.dxT
	default:
		d, t = st.k64.dx, &st.dxT
	}
	return gop.Wrap(t, d, st.pickShape(which))
}

// convOp is y = act(conv2d(scale*x, w) + b): x (B, Cin, H, W) of uint8 or the float
// type, w (Cout, Cin, K, K), b (Cout), y (B, Cout, OH, OW) or, flattened, (B, Cout*OH*OW).
type convOp struct {
	gop.Owned
	st *convState
}

// Arity implements gorgonia.Op: the number of inputs.
func (op convOp) Arity() int { return 3 }

// Type implements gorgonia.Op. It builds a fresh type on every call: Gorgonia returns types to a pool.
func (op convOp) Type() hm.Type {
	st := op.st
	return hm.NewFnType(gop.TensorType(4, st.xdt), gop.TensorType(4, st.dt), gop.TensorType(1, st.dt), gop.TensorType(st.outShape().Dims(), st.dt))
}

// InferShape implements gorgonia.Op with a fresh shape.
func (op convOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return op.st.outShape(), nil }

// WriteHash implements gorgonia.Op; the unique id keeps the graph from merging two ops.
func (op convOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "rlpool.nn.conv#%d", op.st.id) }

// Hashcode implements gorgonia.Op.
func (op convOp) Hashcode() uint32 { return gop.Hash(op) }

// String implements fmt.Stringer.
func (op convOp) String() string {
	g := op.st.g
	act := ""
	if op.st.relu {
		act = "+ReLU"
	}
	return fmt.Sprintf("Conv%dx%d/%d(%d→%d)%s#%d", g.K, g.K, g.S, g.Cin, g.Cout, act, op.st.id)
}

// Do implements gorgonia.Op: it computes into buffers the layer owns and returns them.
func (op convOp) Do(in ...G.Value) (G.Value, error) {
	st := op.st
	if len(in) != 3 {
		return nil, fmt.Errorf("nn: %v takes 3 inputs, got %d", op, len(in))
	}
	x, err := data(in[0])
	if err != nil {
		return nil, err
	}
	g := &st.g
	var y any
	switch st.dt {
	case tensor.Float32:
		y, err = convForward(st.k32, x, in[1], in[2], g)
	default:
		y, err = convForward(st.k64, x, in[1], in[2], g)
	}
	if err != nil {
		return nil, err
	}
	return gop.Wrap(&st.yT, y, st.outShape())
}

func convForward[T Float](k *convKernel[T], x any, wv, bv G.Value, g *convGeom) ([]T, error) {
	w, err := floats[T](wv, g.Cout*g.KK, "convolution weights")
	if err != nil {
		return nil, err
	}
	b, err := floats[T](bv, g.Cout, "convolution bias")
	if err != nil {
		return nil, err
	}
	if err := k.forward(x, w, b); err != nil {
		return nil, err
	}
	return k.y, nil
}

// DiffWRT implements gorgonia.SDOp: which inputs have gradients.
func (op convOp) DiffWRT(n int) []bool { return []bool{op.st.needDX, true, true} }

// SymDiff implements gorgonia.SDOp: one backward node computing all gradients, read by pick nodes.
func (op convOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return layerGrads(convBackOp{st: op.st}, op.st, op.st.needDX, inputs, output, grad)
}

// convBackOp computes a convolution's dW (its result), db and dx (read by pick ops)
// from (x, w, y, dy).
type convBackOp struct {
	gop.Grad
	st *convState
}

// Arity implements gorgonia.Op: the number of inputs.
func (op convBackOp) Arity() int { return 4 }

// Type implements gorgonia.Op. It builds a fresh type on every call: Gorgonia returns types to a pool.
func (op convBackOp) Type() hm.Type {
	st := op.st
	od := st.outShape().Dims()
	return hm.NewFnType(gop.TensorType(4, st.xdt), gop.TensorType(4, st.dt), gop.TensorType(od, st.dt), gop.TensorType(od, st.dt), gop.TensorType(4, st.dt))
}

// InferShape implements gorgonia.Op with a fresh shape.
func (op convBackOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return op.st.wShape(), nil }

// WriteHash implements gorgonia.Op; the unique id keeps the graph from merging two ops.
func (op convBackOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "rlpool.nn.convback#%d", op.st.id) }

// Hashcode implements gorgonia.Op.
func (op convBackOp) Hashcode() uint32 { return gop.Hash(op) }

// String implements fmt.Stringer.
func (op convBackOp) String() string { return fmt.Sprintf("ConvBackward#%d", op.st.id) }

// Do implements gorgonia.Op: it computes into buffers the layer owns and returns them.
func (op convBackOp) Do(in ...G.Value) (G.Value, error) {
	st := op.st
	if len(in) != 4 {
		return nil, fmt.Errorf("nn: %v takes 4 inputs, got %d", op, len(in))
	}
	x, err := data(in[0])
	if err != nil {
		return nil, err
	}
	var dw any
	switch st.dt {
	case tensor.Float32:
		dw, err = convBackward(st.k32, x, in[1:], &st.g)
	default:
		dw, err = convBackward(st.k64, x, in[1:], &st.g)
	}
	if err != nil {
		return nil, err
	}
	return gop.Wrap(&st.dwT, dw, st.wShape())
}

func convBackward[T Float](k *convKernel[T], x any, in []G.Value, g *convGeom) ([]T, error) {
	w, err := floats[T](in[0], g.Cout*g.KK, "convolution weights")
	if err != nil {
		return nil, err
	}
	n := g.B * g.Cout * g.P
	y, err := floats[T](in[1], n, "convolution output")
	if err != nil {
		return nil, err
	}
	gy, err := floats[T](in[2], n, "convolution output gradient")
	if err != nil {
		return nil, err
	}
	if err := k.backward(x, w, y, gy); err != nil {
		return nil, err
	}
	return k.dw, nil
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
}

// Conv applies a convolution with bias (and optional ReLU) implemented by this package's
// fused ops: x (B, Cin, H, W) as uint8 or as the weights' float type (float32, float64),
// w (Cout, Cin, K, K) square, b (Cout), no padding. It returns the output node; its
// gradient is computed by a fused backward op (see the package comment).
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
	geom, err := newConvGeom(xs[0], xs[1], xs[2], xs[3], ws[0], ws[2], stride)
	if err != nil {
		return nil, err
	}
	scale := opts.Scale
	if scale == 0 {
		scale = 1
	}
	st := &convState{
		id: opIDs.Add(1), g: geom, relu: opts.ReLU, flatten: opts.Flatten,
		needDX: !opts.NoInputGrad && x.Dtype() != tensor.Uint8,
		scale:  scale, xdt: x.Dtype(), dt: dt,
	}
	if dt == tensor.Float32 {
		st.k32 = newConvKernel(geom, opts.ReLU, float32(scale), st.needDX)
	} else {
		st.k64 = newConvKernel(geom, opts.ReLU, scale, st.needDX)
	}
	return G.ApplyOp(convOp{st: st}, x, w, b)
}

// ---------------------------------------------------------------------------------------
// Dense.

// denseState is what a dense op and its backward and pick ops share.
type denseState struct {
	id      uint64
	B, I, O int
	relu    bool
	needDX  bool
	dt      tensor.Dtype
	k32     *denseKernel[float32]
	k64     *denseKernel[float64]

	yT, dwT, dbT, dxT *tensor.Dense
}

func (st *denseState) opID() uint64        { return st.id }
func (st *denseState) dtype() tensor.Dtype { return st.dt }
func (st *denseState) backType() hm.Type   { return gop.TensorType(2, st.dt) }
func (st *denseState) pickShape(which int) tensor.Shape {
	if which == pickDB {
		return tensor.Shape{st.O}
	}
	return tensor.Shape{st.B, st.I}
}
func (st *denseState) picked(which int) (*tensor.Dense, error) {
	var d any
	var t **tensor.Dense
	switch {
	case which == pickDB && st.k32 != nil:
		d, t = st.k32.db, &st.dbT
	case which == pickDB:
		d, t = st.k64.db, &st.dbT
	case st.k32 != nil:
		d, t = st.k32.dx, &st.dxT
	default:
		d, t = st.k64.dx, &st.dxT
	}
	return gop.Wrap(t, d, st.pickShape(which))
}

// denseOp is y = act(x w + b): x (B, In), w (In, Out), b (Out), y (B, Out).
type denseOp struct {
	gop.Owned
	st *denseState
}

// Arity implements gorgonia.Op: the number of inputs.
func (op denseOp) Arity() int { return 3 }

// Type implements gorgonia.Op. It builds a fresh type on every call: Gorgonia returns types to a pool.
func (op denseOp) Type() hm.Type {
	dt := op.st.dt
	return hm.NewFnType(gop.TensorType(2, dt), gop.TensorType(2, dt), gop.TensorType(1, dt), gop.TensorType(2, dt))
}

// InferShape implements gorgonia.Op with a fresh shape.
func (op denseOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.st.B, op.st.O}, nil
}

// WriteHash implements gorgonia.Op; the unique id keeps the graph from merging two ops.
func (op denseOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "rlpool.nn.dense#%d", op.st.id) }

// Hashcode implements gorgonia.Op.
func (op denseOp) Hashcode() uint32 { return gop.Hash(op) }

// String implements fmt.Stringer.
func (op denseOp) String() string {
	act := ""
	if op.st.relu {
		act = "+ReLU"
	}
	return fmt.Sprintf("Dense(%d→%d)%s#%d", op.st.I, op.st.O, act, op.st.id)
}

// DiffWRT implements gorgonia.SDOp: which inputs have gradients.
func (op denseOp) DiffWRT(n int) []bool { return []bool{op.st.needDX, true, true} }

// Do implements gorgonia.Op: it computes into buffers the layer owns and returns them.
func (op denseOp) Do(in ...G.Value) (G.Value, error) {
	st := op.st
	if len(in) != 3 {
		return nil, fmt.Errorf("nn: %v takes 3 inputs, got %d", op, len(in))
	}
	var y any
	var err error
	if st.dt == tensor.Float32 {
		y, err = denseForward(st.k32, in)
	} else {
		y, err = denseForward(st.k64, in)
	}
	if err != nil {
		return nil, err
	}
	return gop.Wrap(&st.yT, y, tensor.Shape{st.B, st.O})
}

func denseForward[T Float](k *denseKernel[T], in []G.Value) ([]T, error) {
	x, err := floats[T](in[0], k.B*k.In, "dense input")
	if err != nil {
		return nil, err
	}
	w, err := floats[T](in[1], k.In*k.Out, "dense weights")
	if err != nil {
		return nil, err
	}
	b, err := floats[T](in[2], k.Out, "dense bias")
	if err != nil {
		return nil, err
	}
	k.forward(x, w, b)
	return k.y, nil
}

// SymDiff implements gorgonia.SDOp: one backward node computing all gradients, read by pick nodes.
func (op denseOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return layerGrads(denseBackOp{st: op.st}, op.st, op.st.needDX, inputs, output, grad)
}

// denseBackOp computes a dense layer's dW (its result), db and dx from (x, w, y, dy).
type denseBackOp struct {
	gop.Grad
	st *denseState
}

// Arity implements gorgonia.Op: the number of inputs.
func (op denseBackOp) Arity() int { return 4 }

// Type implements gorgonia.Op. It builds a fresh type on every call: Gorgonia returns types to a pool.
func (op denseBackOp) Type() hm.Type {
	dt := op.st.dt
	return hm.NewFnType(gop.TensorType(2, dt), gop.TensorType(2, dt), gop.TensorType(2, dt), gop.TensorType(2, dt), gop.TensorType(2, dt))
}

// InferShape implements gorgonia.Op with a fresh shape.
func (op denseBackOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.st.I, op.st.O}, nil
}

// WriteHash implements gorgonia.Op; the unique id keeps the graph from merging two ops.
func (op denseBackOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "rlpool.nn.denseback#%d", op.st.id) }

// Hashcode implements gorgonia.Op.
func (op denseBackOp) Hashcode() uint32 { return gop.Hash(op) }

// String implements fmt.Stringer.
func (op denseBackOp) String() string { return fmt.Sprintf("DenseBackward#%d", op.st.id) }

// Do implements gorgonia.Op: it computes into buffers the layer owns and returns them.
func (op denseBackOp) Do(in ...G.Value) (G.Value, error) {
	st := op.st
	if len(in) != 4 {
		return nil, fmt.Errorf("nn: %v takes 4 inputs, got %d", op, len(in))
	}
	var dw any
	var err error
	if st.dt == tensor.Float32 {
		dw, err = denseBackward(st.k32, in, st.needDX)
	} else {
		dw, err = denseBackward(st.k64, in, st.needDX)
	}
	if err != nil {
		return nil, err
	}
	return gop.Wrap(&st.dwT, dw, tensor.Shape{st.I, st.O})
}

func denseBackward[T Float](k *denseKernel[T], in []G.Value, needDX bool) ([]T, error) {
	x, err := floats[T](in[0], k.B*k.In, "dense input")
	if err != nil {
		return nil, err
	}
	w, err := floats[T](in[1], k.In*k.Out, "dense weights")
	if err != nil {
		return nil, err
	}
	y, err := floats[T](in[2], k.B*k.Out, "dense output")
	if err != nil {
		return nil, err
	}
	gy, err := floats[T](in[3], k.B*k.Out, "dense output gradient")
	if err != nil {
		return nil, err
	}
	k.backward(x, w, y, gy, needDX)
	return k.dw, nil
}

// DenseOpts configures Dense.
type DenseOpts struct {
	ReLU        bool // fuse a ReLU after the bias
	NoInputGrad bool // skip the input gradient (when x is data, not a layer's output)
}

// Dense applies y = act(x w + b) as one fused op with a fused backward: x (B, In),
// w (In, Out), b (Out), all float32 or all float64.
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
	st := &denseState{id: opIDs.Add(1), B: xs[0], I: xs[1], O: ws[1], relu: opts.ReLU, needDX: !opts.NoInputGrad, dt: dt}
	if dt == tensor.Float32 {
		st.k32 = newDenseKernel[float32](st.B, st.I, st.O, st.relu)
	} else {
		st.k64 = newDenseKernel[float64](st.B, st.I, st.O, st.relu)
	}
	return G.ApplyOp(denseOp{st: st}, x, w, b)
}
