package model

import (
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Param is one learnable tensor with a stable name. The name is the tensor's key in
// checkpoints and optimiser state, so it must not change between versions.
type Param struct {
	Name string
	T    *tensor.Dense
}

// F32 returns the float32 backing array of the param (it panics for float64 params,
// which only tests build).
func (p Param) F32() []float32 { return p.T.Data().([]float32) }

// SetFloat64s copies vals into a float32 or float64 tensor's backing array.
func SetFloat64s(t *tensor.Dense, vals []float64) {
	switch d := t.Data().(type) {
	case []float32:
		for i := range d {
			d[i] = float32(vals[i])
		}
	case []float64:
		copy(d, vals)
	}
}

// Float64s returns a copy of a float32 or float64 tensor's values as float64.
func Float64s(t *tensor.Dense) []float64 {
	switch d := t.Data().(type) {
	case []float32:
		out := make([]float64, len(d))
		for i, v := range d {
			out[i] = float64(v)
		}
		return out
	case []float64:
		return append([]float64(nil), d...)
	}
	return nil
}

// Input makes a graph input node bound to a fresh zero tensor of the given shape; feed
// it by writing into the tensor's backing array (the graph is built once and reused).
func Input(g *G.ExprGraph, dt tensor.Dtype, name string, shape ...int) (*G.Node, *tensor.Dense) {
	t := tensor.New(tensor.WithShape(shape...), tensor.Of(dt))
	return Bind(g, t, name), t
}

// Bind makes a node of g bound to an existing tensor (weights shared between graphs, or
// an input the caller feeds).
func Bind(g *G.ExprGraph, t *tensor.Dense, name string) *G.Node {
	if t.Dims() == 1 {
		return G.NewVector(g, t.Dtype(), G.WithShape(t.Shape()...), G.WithName(name), G.WithValue(t))
	}
	return G.NewMatrix(g, t.Dtype(), G.WithShape(t.Shape()...), G.WithName(name), G.WithValue(t))
}

// Ones returns a rows x 1 input of ones. Bias rows are added as ones x b (a rank-one
// product) rather than with Gorgonia's broadcasting, whose gradient paths are less
// exercised.
func Ones(g *G.ExprGraph, dt tensor.Dtype, name string, rows int) *G.Node {
	n, t := Input(g, dt, name, rows, 1)
	SetFloat64s(t, constSlice(rows, 1))
	return n
}

func constSlice(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// Scalar returns a constant scalar node of the given dtype.
func Scalar(g *G.ExprGraph, dt tensor.Dtype, v float64) *G.Node {
	if dt == tensor.Float64 {
		return G.NewConstant(v)
	}
	return G.NewConstant(float32(v))
}

// ScalarValue returns a scalar graph value (or a tensor's first element) as float64,
// NaN for a value that holds no floats: how losses and statistics are read out of a
// machine after a run.
func ScalarValue(v G.Value) float64 {
	switch x := v.Data().(type) {
	case float32:
		return float64(x)
	case float64:
		return x
	case []float32:
		return float64(x[0])
	case []float64:
		return x[0]
	}
	return math.NaN()
}
