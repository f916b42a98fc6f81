package model

import (
	"fmt"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// CNNTorso is a convolutional torso of the DQN family (nn.CNNArch: the Nature CNN,
// conv 32 8x8/4, conv 64 4x4/2, conv 64 3x3/1, dense 512, ReLU after each, or the
// smaller nn.SmallArch; docs/design/algorithms.md) as plain weight tensors that every
// graph built from it binds, like MLP's. Graphs are built from agent/nn's
// fused ops: the first layer reads raw uint8 pixels and folds the 1/255 scale into its
// GEMMs, so observations are never converted to float32 outside the network.
type CNNTorso struct {
	C, H, W int         // input planes and size
	Arch    *nn.CNNArch // its layers
	Params  []Param     // conv1_w conv1_b ... dense_w dense_b
}

// NewCNNTorso allocates the weights of arch (nil: the Nature CNN) for C x H x W inputs
// (all zero until Init). The parameter names and shapes are nn.NatureCNN's, so
// checkpoints of PPO and IMPALA name the torso alike.
func NewCNNTorso(arch *nn.CNNArch, c, h, w int) (torso *CNNTorso, err error) {
	if arch == nil {
		arch = &nn.NatureArch
	}
	defer func() { // nn.NatureCNN panics on inputs it cannot take
		if r := recover(); r != nil {
			torso, err = nil, fmt.Errorf("agent: CNN torso on %dx%dx%d inputs: %v", c, h, w, r)
		}
	}()
	// A throwaway graph on one observation tells the parameters' names and shapes.
	g := G.NewGraph()
	x := G.NewTensor(g, tensor.Uint8, 4, G.WithShape(1, c, h, w), G.WithName("obs"),
		G.WithValue(tensor.New(tensor.WithShape(1, c, h, w), tensor.Of(tensor.Uint8))))
	_, ps := nn.NatureCNN(g, x, nn.NatureOpts{Fast: true, Arch: arch})
	torso = &CNNTorso{C: c, H: h, W: w, Arch: arch}
	for _, p := range ps {
		torso.Params = append(torso.Params, Param{Name: p.Name(),
			T: tensor.New(tensor.WithShape(p.Shape().Clone()...), tensor.Of(tensor.Float32))})
	}
	return torso, nil
}

// Init sets orthogonal weights with gain sqrt 2 (rows are the output channels, as
// PyTorch's orthogonal_ flattens a kernel) and zero biases, as CleanRL's Atari agent.
func (t *CNNTorso) Init(rng *rand.Rand) {
	for _, p := range t.Params {
		sh := p.T.Shape()
		if len(sh) == 1 {
			clear(p.F32())
			continue
		}
		SetFloat64s(p.T, nn.Orthogonal(sh[0], sh.TotalSize()/sh[0], math.Sqrt2, rng))
	}
}

// TorsoKernels chooses the kernels a torso's graph runs on: the backend, their
// arithmetic, and whether the graph is for inference only (see nn.NatureOpts).
type TorsoKernels struct {
	Backend   nn.Backend
	Inference bool
	Precision nn.Precision
}

// Build applies the torso to x, a (batch, C, H, W) uint8 input of raw pixels, on the
// kernels k chooses, and returns the (batch, Arch.Features) features and the weight
// nodes in Params order.
func (t *CNNTorso) Build(g *G.ExprGraph, x *G.Node, k TorsoKernels) (features *G.Node, params G.Nodes, err error) {
	sh := x.Shape()
	if sh.Dims() != 4 || sh[1] != t.C || sh[2] != t.H || sh[3] != t.W || x.Dtype() != tensor.Uint8 {
		return nil, nil, fmt.Errorf("agent: the CNN torso takes uint8 (batch, %d, %d, %d) input, got %v %v", t.C, t.H, t.W, x.Dtype(), sh)
	}
	defer func() {
		if r := recover(); r != nil {
			features, params, err = nil, nil, fmt.Errorf("agent: build the CNN torso: %v", r)
		}
	}()
	vals := make([]tensor.Tensor, len(t.Params))
	for i, p := range t.Params {
		vals[i] = p.T
	}
	f, ps := nn.NatureCNN(g, x, nn.NatureOpts{Fast: true, Values: vals, Backend: k.Backend, Arch: t.Arch,
		Inference: k.Inference, Precision: k.Precision})
	return f, append(G.Nodes(nil), ps...), nil
}

// NewCNNPolicy allocates CleanRL's Atari actor-critic for a spec with uint8 C x H x W
// observations: one CNN torso (arch; nil means the Nature CNN, whose 512 features are
// CleanRL's) whose features feed a linear actor
// (orthogonal gain 0.01) and a linear critic (gain 1). The actor's outputs are the
// logits of a categorical head for Discrete actions, or the means of a diagonal
// Gaussian for a Box, whose state-independent log std (net.init_log_std) is the MLP
// policy's. Only cfg.Head, cfg.OrthoInit and cfg.InitLogStd are read from cfg; the
// torso has no hidden sizes to choose. PPO, IMPALA and evaluation all build it, so
// their checkpoints name its weights alike: conv1_w ... dense_b, actor.w0, actor.b0,
// actor.logstd (Gaussian), critic.w0, critic.b0.
func NewCNNPolicy(spec *envpool.Spec, cfg NetConfig, arch *nn.CNNArch) (*Policy, error) {
	if !IsImageSpace(spec.ObsSpace) {
		return nil, fmt.Errorf("agent: a CNN policy needs uint8 C x H x W observations; %s has %v %v", spec.TaskID, spec.ObsSpace.DType, spec.ObsSpace.Shape)
	}
	head, err := ResolveHead(cfg.Head, spec.ActionSpace)
	if err != nil {
		return nil, err
	}
	sh := spec.ObsSpace.Shape
	p := &Policy{ObsDim: spec.ObsSpace.Size(), cfg: cfg}
	p.setHead(head, spec.ActionSpace, tensor.Float32)
	if p.Torso, err = NewCNNTorso(arch, sh[0], sh[1], sh[2]); err != nil {
		return nil, err
	}
	feat := p.Torso.Arch.Features
	// One-layer MLPs: their only layer is the output layer, so Act is never applied.
	if p.Actor, err = NewMLP("actor", []int{feat, p.ActDim}, ActReLU, 0.01, tensor.Float32); err != nil {
		return nil, err
	}
	if p.Critic, err = NewMLP("critic", []int{feat, 1}, ActReLU, 1.0, tensor.Float32); err != nil {
		return nil, err
	}
	return p, nil
}

// ObsInput makes the graph input Build takes for a batch of observations, bound to a
// fresh zero tensor that the caller fills in place: a batch x ObsDim matrix of dtype dt
// for an MLP policy, or a uint8 (batch, C, H, W) tensor of raw pixels for a policy
// with a CNN torso.
func (p *Policy) ObsInput(g *G.ExprGraph, dt tensor.Dtype, name string, batch int) (*G.Node, *tensor.Dense) {
	if p.Torso == nil {
		return Input(g, dt, name, batch, p.ObsDim)
	}
	t := tensor.New(tensor.WithShape(batch, p.Torso.C, p.Torso.H, p.Torso.W), tensor.Of(tensor.Uint8))
	return G.NewTensor(g, tensor.Uint8, 4, G.WithShape(t.Shape()...), G.WithName(name), G.WithValue(t)), t
}
