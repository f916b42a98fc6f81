package impala

import (
	"fmt"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// acNet is an actor-critic network's weights and how to build graphs on them. The
// learner owns one; each actor owns a clone that it refreshes from weight snapshots, so
// that no actor ever reads a tensor the optimiser writes.
type acNet struct {
	kind    string
	spec    envpool.Spec
	netCfg  agent.NetConfig
	actDim  int
	obsSize int
	policy  *agent.Policy   // mlp: separate actor and critic MLPs
	tensors []*tensor.Dense // every learnable tensor, in a fixed order
	names   []string        // their checkpoint names
}

// resolveNetwork picks the network for a spec: auto means nature_cnn for uint8 image
// observations (C x H x W) and mlp for float32 vectors.
func resolveNetwork(kind string, spec *envpool.Spec) (string, error) {
	img := spec.ObsSpace.DType == envpool.Uint8 && len(spec.ObsSpace.Shape) == 3
	if kind == NetAuto || kind == "" {
		if img {
			return NetNatureCNN, nil
		}
		kind = NetMLP
	}
	switch {
	case kind == NetNatureCNN && !img:
		return "", fmt.Errorf("impala.network = nature_cnn needs uint8 image observations (C x H x W); %s has %v %v", spec.TaskID, spec.ObsSpace.DType, spec.ObsSpace.Shape)
	case kind == NetMLP && spec.ObsSpace.DType != envpool.Float32:
		return "", fmt.Errorf("impala.network = mlp needs float32 observations; %s has %v (use nature_cnn or auto)", spec.TaskID, spec.ObsSpace.DType)
	case kind != NetMLP && kind != NetNatureCNN:
		return "", fmt.Errorf("impala.network = %q: use auto, mlp or nature_cnn", kind)
	}
	return kind, nil
}

// newNet allocates and initialises the network for a spec: orthogonal init (seeded),
// policy output gain 0.01 and value output gain 1, as CleanRL's agents.
func newNet(spec *envpool.Spec, kind string, netCfg agent.NetConfig, seed uint64) (*acNet, error) {
	if spec.ActionSpace.Kind != envpool.Discrete {
		return nil, fmt.Errorf("impala: %s has a %v action space; this IMPALA learner has a categorical policy and needs Discrete actions", spec.TaskID, spec.ActionSpace)
	}
	kind, err := resolveNetwork(kind, spec)
	if err != nil {
		return nil, err
	}
	netCfg.Head = agent.HeadCategorical
	n := &acNet{kind: kind, spec: *spec, netCfg: netCfg, actDim: spec.ActionSpace.N, obsSize: spec.ObsSpace.Size()}
	rng := rand.New(rand.NewPCG(seed, 0x1a9a1a))
	if kind == NetMLP {
		if n.policy, err = agent.NewPolicy(spec, netCfg, tensor.Float32); err != nil {
			return nil, err
		}
		n.policy.Init(rng)
		for _, p := range n.policy.Params() {
			n.tensors = append(n.tensors, p.T)
			n.names = append(n.names, p.Name)
		}
		return n, nil
	}
	// Nature CNN: build the torso once on a throwaway graph to get its initialised
	// weights, then keep them as plain tensors that every graph binds.
	sh := spec.ObsSpace.Shape
	g := G.NewGraph()
	x := G.NewTensor(g, tensor.Uint8, 4, G.WithShape(1, sh[0], sh[1], sh[2]), G.WithName("obs"),
		G.WithValue(tensor.New(tensor.WithShape(1, sh[0], sh[1], sh[2]), tensor.Of(tensor.Uint8))))
	_, params := nn.NatureCNN(g, x, nn.NatureOpts{Fast: true, Seed: seed})
	for _, p := range params {
		n.tensors = append(n.tensors, p.Value().(*tensor.Dense).Clone().(*tensor.Dense))
		n.names = append(n.names, p.Name())
	}
	head := func(name string, out int, gain float64) {
		w := tensor.New(tensor.WithShape(nn.NatureFeatures, out), tensor.Of(tensor.Float32))
		agent.SetFloat64s(w, nn.Orthogonal(nn.NatureFeatures, out, gain, rng))
		n.tensors = append(n.tensors, w, tensor.New(tensor.WithShape(out), tensor.Of(tensor.Float32)))
		n.names = append(n.names, name+"_w", name+"_b")
	}
	head("policy", n.actDim, 0.01)
	head("value", 1, 1)
	return n, nil
}

// clone returns a network of the same shape with its own copies of the weights.
func (n *acNet) clone() *acNet {
	c := *n
	c.tensors = make([]*tensor.Dense, len(n.tensors))
	if n.policy != nil {
		p, _ := agent.NewPolicy(&n.spec, n.netCfg, tensor.Float32)
		c.policy = p
		for i, q := range p.Params() {
			c.tensors[i] = q.T
		}
	} else {
		for i, t := range n.tensors {
			c.tensors[i] = tensor.New(tensor.WithShape(t.Shape().Clone()...), tensor.Of(tensor.Float32))
		}
	}
	for i, t := range n.tensors {
		copy(c.tensors[i].Data().([]float32), t.Data().([]float32))
	}
	return &c
}

// weights returns the backing arrays of the learnable tensors.
func (n *acNet) weights() [][]float32 {
	w := make([][]float32, len(n.tensors))
	for i, t := range n.tensors {
		w[i] = t.Data().([]float32)
	}
	return w
}

// netGraph is the network applied to a batch of rows observations in one graph.
type netGraph struct {
	g      *G.ExprGraph
	obsF32 []float32 // the input to fill: rows x obsSize (mlp)
	obsU8  []uint8   // or rows x C x H x W pixels (nature_cnn)
	logits *G.Node   // rows x A
	value  *G.Node   // rows
	params G.Nodes   // in tensors order
}

// build applies the network to rows observations in a new graph.
func (n *acNet) build(rows int) (*netGraph, error) {
	ng := &netGraph{g: G.NewGraph()}
	g := ng.g
	if n.kind == NetMLP {
		obs, t := agent.Input(g, tensor.Float32, "obs", rows, n.obsSize)
		ng.obsF32 = t.Data().([]float32)
		pn, err := n.policy.Build(g, obs)
		if err != nil {
			return nil, err
		}
		ng.logits, ng.value, ng.params = pn.Out, pn.Value, pn.Params
		return ng, nil
	}
	sh := n.spec.ObsSpace.Shape
	t := tensor.New(tensor.WithShape(rows, sh[0], sh[1], sh[2]), tensor.Of(tensor.Uint8))
	ng.obsU8 = t.Data().([]uint8)
	x := G.NewTensor(g, tensor.Uint8, 4, G.WithShape(rows, sh[0], sh[1], sh[2]), G.WithName("obs"), G.WithValue(t))
	vals := make([]tensor.Tensor, 8)
	for i := range vals {
		vals[i] = n.tensors[i]
	}
	features, params := nn.NatureCNN(g, x, nn.NatureOpts{Fast: true, Values: vals})
	ng.params = append(G.Nodes(nil), params...)
	bind := func(i int) *G.Node {
		t := n.tensors[i]
		if t.Dims() == 1 {
			return G.NewVector(g, tensor.Float32, G.WithShape(t.Shape()...), G.WithName(n.names[i]), G.WithValue(t))
		}
		return G.NewMatrix(g, tensor.Float32, G.WithShape(t.Shape()...), G.WithName(n.names[i]), G.WithValue(t))
	}
	piW, piB, vW, vB := bind(8), bind(9), bind(10), bind(11)
	ng.params = append(ng.params, piW, piB, vW, vB)
	var err error
	if ng.logits, err = nn.Dense(features, piW, piB, nn.DenseOpts{}); err != nil {
		return nil, err
	}
	v, err := nn.Dense(features, vW, vB, nn.DenseOpts{})
	if err != nil {
		return nil, err
	}
	if ng.value, err = G.Reshape(v, tensor.Shape{rows}); err != nil {
		return nil, err
	}
	return ng, nil
}

// setObs writes observation row i from a pool batch row into the graph's input.
func (ng *netGraph) setObs(i int, b *envpool.Batch, row int) {
	if ng.obsU8 != nil {
		copy(ng.obsU8[i*b.ObsSize:(i+1)*b.ObsSize], b.RowU8(row))
		return
	}
	copy(ng.obsF32[i*b.ObsSize:(i+1)*b.ObsSize], b.RowF32(row))
}

// CheckSpec reports whether the network a config asks for (impala.network) fits a
// task's spaces; configs call it before a run directory is made.
func CheckSpec(network string, spec *envpool.Spec) error {
	if spec.ActionSpace.Kind != envpool.Discrete {
		return fmt.Errorf("env.task = %s has a %v action space; the IMPALA learner needs Discrete actions", spec.TaskID, spec.ActionSpace)
	}
	_, err := resolveNetwork(network, spec)
	return err
}
