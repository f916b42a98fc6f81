package model

import (
	"fmt"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/nn"
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

// Activations the MLP bodies support, as spelt in configs (net.activation).
const (
	ActTanh = string(nn.Tanh)
	ActReLU = string(nn.ReLU)
)

// MLP is a fully connected network: Sizes[0] inputs, hidden layers, Sizes[len-1]
// outputs, the activation after every layer but the last. Its weights live in Params
// (W0, b0, W1, b1, ...; W is in x out, b has out values), shared by every graph built
// from it.
type MLP struct {
	Name    string
	Sizes   []int
	Act     string
	OutGain float64 // orthogonal-init gain of the output layer (hidden layers use sqrt 2)
	Params  []Param
}

// NewMLP allocates the weights of an MLP (all zero until Init).
func NewMLP(name string, sizes []int, act string, outGain float64, dt tensor.Dtype) (*MLP, error) {
	if len(sizes) < 2 {
		return nil, fmt.Errorf("agent: MLP %s needs at least an input and an output size, got %v", name, sizes)
	}
	for _, s := range sizes {
		if s <= 0 {
			return nil, fmt.Errorf("agent: MLP %s: layer sizes must be positive, got %v", name, sizes)
		}
	}
	if act != ActTanh && act != ActReLU {
		return nil, fmt.Errorf("agent: MLP %s: activation %q: use tanh or relu", name, act)
	}
	m := &MLP{Name: name, Sizes: append([]int(nil), sizes...), Act: act, OutGain: outGain}
	for i := 0; i+1 < len(sizes); i++ {
		in, out := sizes[i], sizes[i+1]
		m.Params = append(m.Params,
			Param{fmt.Sprintf("%s.w%d", name, i), tensor.New(tensor.WithShape(in, out), tensor.Of(dt))},
			Param{fmt.Sprintf("%s.b%d", name, i), tensor.New(tensor.WithShape(out), tensor.Of(dt))})
	}
	return m, nil
}

// Init sets the weights. With ortho, weights are orthogonal with gain sqrt(2) for hidden
// layers and OutGain for the output layer, biases zero (the published PPO
// initialisation); otherwise PyTorch's default U(-1/sqrt(in), 1/sqrt(in)) for both.
func (m *MLP) Init(rng *rand.Rand, ortho bool) {
	for l := 0; 2*l < len(m.Params); l++ {
		w, b := m.Params[2*l].T, m.Params[2*l+1].T
		in, out := w.Shape()[0], w.Shape()[1]
		gain := math.Sqrt2
		if 2*l+2 == len(m.Params) {
			gain = m.OutGain
		}
		var wv, bv []float64
		if ortho {
			wv = nn.Orthogonal(in, out, gain, rng)
			bv = make([]float64, out)
		} else {
			bound := 1 / math.Sqrt(float64(in))
			wv, bv = make([]float64, in*out), make([]float64, out)
			for i := range wv {
				wv[i] = (2*rng.Float64() - 1) * bound
			}
			for i := range bv {
				bv[i] = (2*rng.Float64() - 1) * bound
			}
		}
		SetFloat64s(w, wv)
		SetFloat64s(b, bv)
	}
}

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

// Build adds the MLP applied to x (batch x Sizes[0]) to g, with weight nodes bound to
// the MLP's tensors, and returns the output (batch x out) and the weight nodes in
// Params order. Layers are nn.Dense ops on the backend chosen (BackendGo for "").
func (m *MLP) Build(g *G.ExprGraph, x *G.Node, backend nn.Backend) (*G.Node, G.Nodes, error) {
	return m.build(g, x, backend, true)
}

// build builds the MLP from fused Dense ops, or (fused false) from stock Gorgonia ops,
// which tests use as the reference.
func (m *MLP) build(g *G.ExprGraph, x *G.Node, backend nn.Backend, fused bool) (*G.Node, G.Nodes, error) {
	if x.Dims() != 2 || x.Shape()[1] != m.Sizes[0] {
		return nil, nil, fmt.Errorf("agent: MLP %s takes batch x %d inputs, got shape %v", m.Name, m.Sizes[0], x.Shape())
	}
	var nodes G.Nodes
	h := x
	for l := 0; 2*l < len(m.Params); l++ {
		w := Bind(g, m.Params[2*l].T, m.Params[2*l].Name)
		b := Bind(g, m.Params[2*l+1].T, m.Params[2*l+1].Name)
		nodes = append(nodes, w, b)
		act := nn.Linear
		if 2*l+2 < len(m.Params) {
			act = nn.Activation(m.Act)
		}
		var err error
		if fused {
			h, err = nn.Dense(h, w, b, nn.DenseOpts{Act: act, Backend: backend})
		} else {
			h, err = stockDense(h, w, b, act)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("agent: MLP %s layer %d: %w", m.Name, l, err)
		}
	}
	return h, nodes, nil
}

// stockDense is act(x W + b) from stock Gorgonia ops.
func stockDense(x, w, b *G.Node, act nn.Activation) (*G.Node, error) {
	xw, err := G.Mul(x, w)
	if err != nil {
		return nil, err
	}
	h, err := G.BroadcastAdd(xw, b, nil, []byte{0})
	if err != nil {
		return nil, err
	}
	switch act {
	case nn.Tanh:
		return G.Tanh(h)
	case nn.ReLU:
		return G.Rectify(h)
	}
	return h, nil
}
