package customop

import (
	"fmt"
	"hash"
	"sync/atomic"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Results is what a backward op that computes several results at once shares with the
// pick nodes that hand them to the graph. The pattern (docs/design/custom-ops.md): a
// layer's SymDiff adds one backward node, which computes every gradient of the layer
// and returns one of them, and one Pick node for each other gradient. A pick takes the
// backward node as its input, which orders it after that node, and returns the buffer
// the backward op filled.
type Results interface {
	// Result returns result which (as named by the caller, never the backward node's
	// own) as the backward op left it, wrapped in a tensor the op owns.
	Result(which int) (*tensor.Dense, error)
	// ResultShape is the shape of result which.
	ResultShape(which int) tensor.Shape
}

var pickIDs atomic.Uint64

// NextID returns a process-wide unique op id: every op hashes one, so that the graph
// never merges two ops of the same kind and shape.
func NextID() uint64 { return pickIDs.Add(1) }

// Pick adds a node to back's graph that returns result which of r, computed by the op
// of back. name labels the node in graph dumps (e.g. "conv.db").
func Pick(back *G.Node, r Results, which int, name string) (*G.Node, error) {
	op := pickOp{r: r, which: which, name: name, id: NextID(), inDims: back.Dims(), dt: back.Dtype()}
	return G.ApplyOp(op, back)
}

// pickOp returns one of the results its backward op computed.
type pickOp struct {
	Grad
	r      Results
	which  int
	name   string
	id     uint64
	inDims int
	dt     tensor.Dtype
}

// Arity implements gorgonia.Op: the backward node.
func (op pickOp) Arity() int { return 1 }

// Type implements gorgonia.Op with a fresh type on every call (Gorgonia pools types).
func (op pickOp) Type() hm.Type {
	return hm.NewFnType(TensorType(op.inDims, op.dt), TensorType(op.r.ResultShape(op.which).Dims(), op.dt))
}

// InferShape implements gorgonia.Op with a fresh shape.
func (op pickOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return op.r.ResultShape(op.which).Clone(), nil
}

// Do implements gorgonia.Op: it returns the buffer the backward op filled.
func (op pickOp) Do(...G.Value) (G.Value, error) { return op.r.Result(op.which) }

// WriteHash implements gorgonia.Op; the unique id keeps the graph from merging picks.
func (op pickOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "rlpool.pick#%d", op.id) }

// Hashcode implements gorgonia.Op.
func (op pickOp) Hashcode() uint32 { return Hash(op) }

// String implements fmt.Stringer.
func (op pickOp) String() string { return fmt.Sprintf("pick(%s)#%d", op.name, op.id) }
