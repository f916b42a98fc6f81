// Package customop holds what the project's custom Gorgonia ops have in common
// (docs/design/custom-ops.md): every one computes into buffers it owns and returns them from
// Do, because vm.Reset clears every register and an op that allocated its result would
// allocate on every step; gradient ops have no derivative of their own; and every op
// hashes a unique id so that the graph never merges two of them.
//
// The fused layers (agent/nn's convolution and dense ops) and IMPALA's V-trace loss
// embed Owned or Grad for the methods that say so, use Hash and Wrap, and hand the
// extra results of their backward ops to the graph with Pick.
package customop

import (
	"errors"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Owned supplies three gorgonia.Op methods of an op whose Do returns a buffer the op
// owns: no pointer result for the machine to allocate, no external call, and no input
// overwritten in place.
type Owned struct{}

// ReturnsPtr implements gorgonia.Op: false, so that the machine adds no allocation.
func (Owned) ReturnsPtr() bool { return false }

// CallsExtern implements gorgonia.Op: false, so that the machine adds no allocation.
func (Owned) CallsExtern() bool { return false }

// OverwritesInput implements gorgonia.Op: -1, no input is overwritten.
func (Owned) OverwritesInput() int { return -1 }

// ErrNoSecondDerivative is what a gradient op's SymDiff returns: the project's backward
// ops compute first derivatives only.
var ErrNoSecondDerivative = errors.New("customop: a backward op has no derivative of its own (no second derivatives)")

// Grad is Owned plus the gorgonia.SDOp methods of a backward or pick op, which has no
// derivative of its own.
type Grad struct{ Owned }

// DiffWRT implements gorgonia.SDOp: no input has a gradient through a backward op.
func (Grad) DiffWRT(n int) []bool { return make([]bool, n) }

// SymDiff implements gorgonia.SDOp: it returns ErrNoSecondDerivative.
func (Grad) SymDiff(G.Nodes, *G.Node, *G.Node) (G.Nodes, error) {
	return nil, ErrNoSecondDerivative
}

// Hash is the FNV-1a hash of what w.WriteHash writes: an op's Hashcode from its
// WriteHash, so that the two always agree.
func Hash(w interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	w.WriteHash(h)
	return h.Sum32()
}

// TensorType is the Gorgonia type of a dims-dimensional tensor of dt. Op Type methods
// build it afresh on every call, because Gorgonia returns types to a pool.
func TensorType(dims int, dt tensor.Dtype) hm.Type { return G.TensorType{Dims: dims, Of: dt} }

// Wrap returns the tensor *t over an op-owned buffer, creating it on the first call and
// reshaping it back when a downstream Reshape changed its shape in place.
func Wrap(t **tensor.Dense, data any, shape tensor.Shape) (*tensor.Dense, error) {
	if *t == nil {
		*t = tensor.New(tensor.WithShape(shape.Clone()...), tensor.WithBacking(data))
		return *t, nil
	}
	if !(*t).Shape().Eq(shape) {
		if err := (*t).Reshape(shape...); err != nil {
			return nil, err
		}
	}
	return *t, nil
}
