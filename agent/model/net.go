package model

import (
	"fmt"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/nn"
)

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
	Threads   int // OpenMP team size of the onednn layers (nn.NatureOpts.Threads)
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
		Inference: k.Inference, Precision: k.Precision, Threads: k.Threads})
	return f, append(G.Nodes(nil), ps...), nil
}

// Policy is a separate actor and critic MLP (as CleanRL's classic-control and MuJoCo
// agents), or a CNN torso under linear ones, with a categorical or
// diagonal-Gaussian head. The Gaussian's log std is one learnable vector, independent
// of the state.
type Policy struct {
	Head   string
	ObsDim int
	ActDim int // number of choices (categorical) or action dimensions (Gaussian)
	Actor  *MLP
	Critic *MLP
	LogStd *Param // Gaussian only; shape 1 x ActDim
	// Torso, when set (NewCNNPolicy), is a CNN under both heads: Build feeds its
	// features to Actor and Critic, which are then single linear layers.
	Torso *CNNTorso
	// Backend is the CNN torso's kernels in every graph Build makes
	// (net.backend, decided by Resolve).
	Backend nn.Backend
	// Precision is the CNN torso's arithmetic in every graph Build and BuildInference
	// make (net.precision).
	Precision nn.Precision
	cfg       NetConfig
}

// Params lists every learnable tensor: torso (CNN policies), actor, log std
// (Gaussian), critic.
func (p *Policy) Params() []Param {
	var ps []Param
	if p.Torso != nil {
		ps = append(ps, p.Torso.Params...)
	}
	ps = append(ps, p.Actor.Params...)
	if p.LogStd != nil {
		ps = append(ps, *p.LogStd)
	}
	return append(ps, p.Critic.Params...)
}

// Init initialises the weights from rng and sets the log std to its configured start.
func (p *Policy) Init(rng *rand.Rand) {
	if p.Torso != nil {
		p.Torso.Init(rng)
	}
	p.Actor.Init(rng, p.cfg.OrthoInit)
	p.Critic.Init(rng, p.cfg.OrthoInit)
	if p.LogStd != nil {
		SetFloat64s(p.LogStd.T, constSlice(p.ActDim, p.cfg.InitLogStd))
	}
}

// PolicyNodes are a policy applied to a batch of observations inside one graph.
type PolicyNodes struct {
	Out    *G.Node // logits (categorical) or means (Gaussian), batch x ActDim
	Value  *G.Node // batch
	LogStd *G.Node // 1 x ActDim, Gaussian only
	Params G.Nodes // in Policy.Params order
	batch  int
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

// Build applies the policy to obs (batch x ObsDim; for a CNN policy the uint8 pixels
// ObsInput makes) in g, for training: gradients may be taken.
func (p *Policy) Build(g *G.ExprGraph, obs *G.Node) (*PolicyNodes, error) {
	return p.build(g, obs, TorsoKernels{Backend: p.Backend, Precision: p.Precision})
}

// BuildInference is Build for a graph that is never differentiated (an actor's or an
// evaluation's): a CNN torso then runs on inference-only kernels, each on one OpenMP
// thread (actingThreads).
func (p *Policy) BuildInference(g *G.ExprGraph, obs *G.Node) (*PolicyNodes, error) {
	return p.build(g, obs, TorsoKernels{Backend: p.Backend, Inference: true, Precision: p.Precision, Threads: actingThreads})
}

// actingThreads is the OpenMP team size of an inference graph's oneDNN layers. An
// acting pass runs a batch of 8 to 16 observations while the env pool's workers step
// the other envs on every core: a team of one per core then waits at each
// primitive's barrier for members the workers preempted (docs/benchmarks.md has the
// measurement).
const actingThreads = 1

func (p *Policy) build(g *G.ExprGraph, obs *G.Node, k TorsoKernels) (*PolicyNodes, error) {
	batch := obs.Shape()[0]
	var tn G.Nodes
	if p.Torso != nil {
		var err error
		if obs, tn, err = p.Torso.Build(g, obs, k); err != nil {
			return nil, err
		}
	}
	// The backend runs the torso; the heads and MLP bodies run on mlpBackend.
	out, an, err := p.Actor.Build(g, obs, mlpBackend)
	if err != nil {
		return nil, err
	}
	v, cn, err := p.Critic.Build(g, obs, mlpBackend)
	if err != nil {
		return nil, err
	}
	n := &PolicyNodes{Out: out, batch: batch}
	if n.Value, err = G.Reshape(v, tensor.Shape{n.batch}); err != nil {
		return nil, err
	}
	n.Params = append(n.Params, tn...)
	n.Params = append(n.Params, an...)
	if p.LogStd != nil {
		n.LogStd = Bind(g, p.LogStd.T, p.LogStd.Name)
		n.Params = append(n.Params, n.LogStd)
	}
	n.Params = append(n.Params, cn...)
	return n, nil
}

// LogProbEntropy adds the log-probability of the actions act (batch x ActDim: one-hot
// rows for a categorical head, which avoids Gorgonia's faulty ByIndices gradient; real
// actions for a Gaussian) and the mean entropy over the batch.
func (p *Policy) LogProbEntropy(g *G.ExprGraph, n *PolicyNodes, act *G.Node) (logp, entropy *G.Node, err error) {
	var c chain
	defer c.recover(&err)
	dt := n.Out.Dtype()
	if p.Head == HeadCategorical {
		lsm := c.do(G.LogSoftMax(n.Out, 1))
		logp = c.do(G.Sum(c.do(G.HadamardProd(lsm, act)), 1))
		// Entropy: -mean over the batch of sum_a p log p.
		plogp := c.do(G.HadamardProd(c.do(G.Exp(lsm)), lsm))
		entropy = c.do(G.Neg(c.do(G.Mean(c.do(G.Sum(plogp, 1))))))
		return logp, entropy, c.err
	}
	// Gaussian: log N(a; mu, sigma) = -0.5 z^2 - log sigma - 0.5 log 2pi, summed over dims.
	ones := Ones(g, dt, "logstd.ones", n.batch)
	ls := c.do(G.Mul(ones, n.LogStd)) // batch x ActDim
	std := c.do(G.Exp(ls))
	z := c.do(G.HadamardDiv(c.do(G.Sub(act, n.Out)), std))
	hz2 := c.do(G.HadamardProd(c.do(G.Square(z)), Scalar(g, dt, 0.5)))
	negs := c.do(G.Neg(c.do(G.Sum(c.do(G.Add(hz2, ls)), 1))))
	logp = c.do(G.Sub(negs, Scalar(g, dt, 0.5*math.Log(2*math.Pi)*float64(p.ActDim))))
	// Entropy of a diagonal Gaussian: sum(log sigma) + ActDim * 0.5 (1 + log 2pi).
	entropy = c.do(G.Add(c.do(G.Sum(n.LogStd)), Scalar(g, dt, 0.5*(1+math.Log(2*math.Pi))*float64(p.ActDim))))
	return logp, entropy, c.err
}

// chain strings graph ops together so that a formula reads as one: do passes an op's
// node on and stops the chain at the first error, which it raises as a panic that
// recover (deferred by the builder) turns back into that error. The next op is then
// never handed a nil node.
type chain struct{ err error }

// chainStop is the panic value by which do stops a chain.
type chainStop struct{}

func (c *chain) do(n *G.Node, err error) *G.Node {
	if err != nil {
		c.err = err
		panic(chainStop{})
	}
	return n
}

// recover ends a chain stopped by do, storing its error in *err; other panics go on.
func (c *chain) recover(err *error) {
	if r := recover(); r != nil {
		if _, ok := r.(chainStop); !ok {
			panic(r)
		}
		*err = c.err
	}
}
