package agent

import (
	"fmt"
	"hash"
	"math"
	"sync/atomic"

	"github.com/chewxy/hm"
	gblas "gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/gop"
)

// Dense adds the fused layer y = act(x W + b) to x's graph: x is (batch, in), w is
// (in, out), b is (1, out), act is "tanh", "relu" or "" (none).
//
// Why a custom op: built from stock Gorgonia ops a 64-64 MLP layer is five ops, each
// allocating its result on every run, and Gorgonia's float32 tanh is slow; the GC and
// tanh took about half of a PPO minibatch step. The fused op computes into buffers it
// owns (reference/GORGONIA.md), with one GEMM forward and two backward. Its gradient
// comes from SymDiff: one backward op that computes dW, db and dx, returning dW, and two
// pick ops returning db and dx.
//
// Values read from the node are overwritten by the next run: copy what you keep (or
// read it with gorgonia.Read).
func Dense(x, w, b *G.Node, act string) (*G.Node, error) {
	if x.Dims() != 2 || w.Dims() != 2 || b.Dims() != 2 {
		return nil, fmt.Errorf("agent: Dense takes matrices, got x %v, w %v, b %v", x.Shape(), w.Shape(), b.Shape())
	}
	batch, in, out := x.Shape()[0], w.Shape()[0], w.Shape()[1]
	if x.Shape()[1] != in || b.Shape()[0] != 1 || b.Shape()[1] != out {
		return nil, fmt.Errorf("agent: Dense shapes do not fit: x %v, w %v, b %v", x.Shape(), w.Shape(), b.Shape())
	}
	if act != ActTanh && act != ActReLU && act != "" {
		return nil, fmt.Errorf("agent: Dense activation %q: use tanh, relu or none", act)
	}
	if x.Dtype() != w.Dtype() || b.Dtype() != w.Dtype() {
		return nil, fmt.Errorf("agent: Dense dtypes differ: x %v, w %v, b %v", x.Dtype(), w.Dtype(), b.Dtype())
	}
	st := &denseState{id: denseIDs.Add(1), batch: batch, in: in, out: out, act: act, dt: w.Dtype()}
	switch st.dt {
	case tensor.Float32:
		st.f32 = newDenseBufs[float32](batch, in, out)
	case tensor.Float64:
		st.f64 = newDenseBufs[float64](batch, in, out)
	default:
		return nil, fmt.Errorf("agent: Dense weights must be float32 or float64, not %v", st.dt)
	}
	return G.ApplyOp(&denseOp{s: st}, x, w, b)
}

var denseIDs atomic.Uint64

// denseState is one layer's shape and buffers, shared by its forward, backward and
// pick ops.
type denseState struct {
	id             uint64
	batch, in, out int
	act            string
	dt             tensor.Dtype
	f32            *denseBufs[float32]
	f64            *denseBufs[float64]
	y, dw, db, dx  *tensor.Dense
}

type denseBufs[T float32 | float64] struct {
	y, dz, dw, db, dx []T
}

func newDenseBufs[T float32 | float64](batch, in, out int) *denseBufs[T] {
	return &denseBufs[T]{y: make([]T, batch*out), dz: make([]T, batch*out), dw: make([]T, in*out),
		db: make([]T, out), dx: make([]T, batch*in)}
}

func valueData[T float32 | float64](v G.Value, n int, what string) ([]T, error) {
	d, ok := v.Data().([]T)
	if !ok || len(d) < n {
		return nil, fmt.Errorf("agent: Dense %s is %T of the wrong type or size (want %d values)", what, v.Data(), n)
	}
	return d[:n], nil
}

// gemm computes c = op(a) op(b) + beta c (row-major) with the BLAS installed in Gorgonia
// (gorgonia.Use: OpenBLAS through agent/blas, or gonum), so that Dense follows the
// same choice as stock ops.
func gemm[T float32 | float64](tA, tB bool, m, n, k int, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	impl := G.WhichBLAS()
	ta, tb := gblas.NoTrans, gblas.NoTrans
	if tA {
		ta = gblas.Trans
	}
	if tB {
		tb = gblas.Trans
	}
	switch a := any(a).(type) {
	case []float32:
		impl.Sgemm(ta, tb, m, n, k, 1, a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		impl.Dgemm(ta, tb, m, n, k, 1, a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

func denseForward[T float32 | float64](s *denseState, bufs *denseBufs[T], vs []G.Value) error {
	x, err := valueData[T](vs[0], s.batch*s.in, "input")
	if err != nil {
		return err
	}
	w, err := valueData[T](vs[1], s.in*s.out, "weights")
	if err != nil {
		return err
	}
	b, err := valueData[T](vs[2], s.out, "bias")
	if err != nil {
		return err
	}
	y := bufs.y
	for r := range s.batch {
		copy(y[r*s.out:(r+1)*s.out], b)
	}
	gemm(false, false, s.batch, s.out, s.in, x, s.in, w, s.out, 1, y, s.out)
	switch s.act {
	case ActTanh:
		if y32, ok := any(y).([]float32); ok {
			for i, v := range y32 {
				y32[i] = Tanh32(v)
			}
			break
		}
		for i, v := range y {
			y[i] = T(math.Tanh(float64(v)))
		}
	case ActReLU:
		for i, v := range y {
			y[i] = max(v, 0)
		}
	}
	return nil
}

func denseBackward[T float32 | float64](s *denseState, bufs *denseBufs[T], vs []G.Value) error {
	x, err := valueData[T](vs[0], s.batch*s.in, "input")
	if err != nil {
		return err
	}
	w, err := valueData[T](vs[1], s.in*s.out, "weights")
	if err != nil {
		return err
	}
	y, err := valueData[T](vs[2], s.batch*s.out, "output")
	if err != nil {
		return err
	}
	gy, err := valueData[T](vs[3], s.batch*s.out, "output gradient")
	if err != nil {
		return err
	}
	dz := bufs.dz
	switch s.act {
	case ActTanh:
		for i, g := range gy {
			dz[i] = g * (1 - y[i]*y[i])
		}
	case ActReLU:
		for i, g := range gy {
			if y[i] > 0 {
				dz[i] = g
			} else {
				dz[i] = 0
			}
		}
	default:
		copy(dz, gy)
	}
	gemm(true, false, s.in, s.out, s.batch, x, s.in, dz, s.out, 0, bufs.dw, s.out) // dW = x^T dz
	gemm(false, true, s.batch, s.in, s.out, dz, s.out, w, s.out, 0, bufs.dx, s.in) // dx = dz W^T
	clear(bufs.db)
	for r := range s.batch {
		row := dz[r*s.out : (r+1)*s.out]
		for j, g := range row {
			bufs.db[j] += g
		}
	}
	return nil
}

// denseOp is the forward op: (x, W, b) -> act(x W + b).
type denseOp struct {
	gop.Owned
	s *denseState
}

// Arity implements gorgonia.Op.
func (op *denseOp) Arity() int { return 3 }

// Type implements gorgonia.Op with a fresh type (Gorgonia returns types to a pool).
func (op *denseOp) Type() hm.Type {
	t := op.s.dt
	return hm.NewFnType(gop.TensorType(2, t), gop.TensorType(2, t), gop.TensorType(2, t), gop.TensorType(2, t))
}

// InferShape implements gorgonia.Op.
func (op *denseOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.s.batch, op.s.out}, nil
}

// Do implements gorgonia.Op, returning the op's own output buffer.
func (op *denseOp) Do(vs ...G.Value) (G.Value, error) {
	s := op.s
	if len(vs) != 3 {
		return nil, fmt.Errorf("agent: Dense takes 3 inputs, got %d", len(vs))
	}
	if s.f32 != nil {
		if err := denseForward(s, s.f32, vs); err != nil {
			return nil, err
		}
		return gop.Wrap(&s.y, s.f32.y, tensor.Shape{s.batch, s.out})
	}
	if err := denseForward(s, s.f64, vs); err != nil {
		return nil, err
	}
	return gop.Wrap(&s.y, s.f64.y, tensor.Shape{s.batch, s.out})
}

// WriteHash implements gorgonia.Op; the layer id keeps the graph from merging layers.
func (op *denseOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }

// Hashcode implements gorgonia.Op.
func (op *denseOp) Hashcode() uint32 { return gop.Hash(op) }

// String implements fmt.Stringer.
func (op *denseOp) String() string {
	return fmt.Sprintf("rlpool.Dense#%d(%dx%d,%s)", op.s.id, op.s.in, op.s.out, op.s.act)
}

// DiffWRT implements gorgonia.SDOp: x, W and b all have gradients.
func (op *denseOp) DiffWRT(int) []bool { return []bool{true, true, true} }

// SymDiff implements gorgonia.SDOp: one backward node (returning dW) and picks for dx
// and db.
func (op *denseOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("agent: Dense SymDiff takes 3 inputs, got %d", len(inputs))
	}
	bwd, err := G.ApplyOp(&denseBwdOp{s: op.s}, inputs[0], inputs[1], output, grad)
	if err != nil {
		return nil, err
	}
	dx, err := G.ApplyOp(&densePickOp{s: op.s, which: "dx"}, bwd)
	if err != nil {
		return nil, err
	}
	db, err := G.ApplyOp(&densePickOp{s: op.s, which: "db"}, bwd)
	if err != nil {
		return nil, err
	}
	return G.Nodes{dx, bwd, db}, nil
}

// denseBwdOp computes dW, db and dx from (x, W, y, dy) and returns dW.
type denseBwdOp struct {
	gop.Owned
	s *denseState
}

// Arity implements gorgonia.Op.
func (op *denseBwdOp) Arity() int { return 4 }

// Type implements gorgonia.Op.
func (op *denseBwdOp) Type() hm.Type {
	t := op.s.dt
	return hm.NewFnType(gop.TensorType(2, t), gop.TensorType(2, t), gop.TensorType(2, t), gop.TensorType(2, t), gop.TensorType(2, t))
}

// InferShape implements gorgonia.Op: dW's shape.
func (op *denseBwdOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.s.in, op.s.out}, nil
}

// Do implements gorgonia.Op.
func (op *denseBwdOp) Do(vs ...G.Value) (G.Value, error) {
	s := op.s
	if len(vs) != 4 {
		return nil, fmt.Errorf("agent: Dense backward takes 4 inputs, got %d", len(vs))
	}
	if s.f32 != nil {
		if err := denseBackward(s, s.f32, vs); err != nil {
			return nil, err
		}
		return gop.Wrap(&s.dw, s.f32.dw, tensor.Shape{s.in, s.out})
	}
	if err := denseBackward(s, s.f64, vs); err != nil {
		return nil, err
	}
	return gop.Wrap(&s.dw, s.f64.dw, tensor.Shape{s.in, s.out})
}

// WriteHash implements gorgonia.Op.
func (op *denseBwdOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }

// Hashcode implements gorgonia.Op.
func (op *denseBwdOp) Hashcode() uint32 { return gop.Hash(op) }

// String implements fmt.Stringer.
func (op *denseBwdOp) String() string { return fmt.Sprintf("rlpool.DenseBackward#%d", op.s.id) }

// densePickOp returns db or dx, computed by the layer's backward op (its input, which
// orders it after that op).
type densePickOp struct {
	gop.Owned
	s     *denseState
	which string
}

// Arity implements gorgonia.Op.
func (op *densePickOp) Arity() int { return 1 }

// Type implements gorgonia.Op.
func (op *densePickOp) Type() hm.Type {
	return hm.NewFnType(gop.TensorType(2, op.s.dt), gop.TensorType(2, op.s.dt))
}

// InferShape implements gorgonia.Op.
func (op *densePickOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	if op.which == "db" {
		return tensor.Shape{1, op.s.out}, nil
	}
	return tensor.Shape{op.s.batch, op.s.in}, nil
}

// Do implements gorgonia.Op.
func (op *densePickOp) Do(...G.Value) (G.Value, error) {
	s := op.s
	var d any
	switch {
	case op.which == "db" && s.f32 != nil:
		d = s.f32.db
	case op.which == "db":
		d = s.f64.db
	case s.f32 != nil:
		d = s.f32.dx
	default:
		d = s.f64.dx
	}
	if op.which == "db" {
		return gop.Wrap(&s.db, d, tensor.Shape{1, s.out})
	}
	return gop.Wrap(&s.dx, d, tensor.Shape{s.batch, s.in})
}

// WriteHash implements gorgonia.Op.
func (op *densePickOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }

// Hashcode implements gorgonia.Op.
func (op *densePickOp) Hashcode() uint32 { return gop.Hash(op) }

// String implements fmt.Stringer.
func (op *densePickOp) String() string {
	return fmt.Sprintf("rlpool.DensePick#%d.%s", op.s.id, op.which)
}

// Tanh32 is tanh for float32, a rational approximation accurate to about 1e-7 that is
// several times faster than math.Tanh (the [13/6] minimax fit Eigen uses for float).
func Tanh32(x float32) float32 {
	const clampAt = 7.90531110763549805
	if x > clampAt {
		x = clampAt
	} else if x < -clampAt {
		x = -clampAt
	}
	if x < 0.0004 && x > -0.0004 {
		return x
	}
	x2 := x * x
	p := float32(-2.76076847742355e-16)
	p = p*x2 + 2.00018790482477e-13
	p = p*x2 - 8.60467152213735e-11
	p = p*x2 + 5.12229709037114e-08
	p = p*x2 + 1.48572235717979e-05
	p = p*x2 + 6.37261928875436e-04
	p = p*x2 + 4.89352455891786e-03
	p *= x
	q := float32(1.19825839466702e-06)
	q = q*x2 + 1.18534705686654e-04
	q = q*x2 + 2.26843463243900e-03
	q = q*x2 + 4.89352518554385e-03
	return p / q
}
