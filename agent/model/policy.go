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

// Action heads, as spelt in configs.
const (
	HeadAuto        = "auto" // categorical for Discrete action spaces, Gaussian for boxes
	HeadCategorical = "categorical"
	HeadGaussian    = "gaussian"
)

// ResolveHead returns the head a config asks for on an action space, or an error naming
// net.head when the two do not fit (a categorical head on a box, a Gaussian on Discrete).
func ResolveHead(head string, space envpool.Space) (string, error) {
	want := HeadCategorical
	if space.Kind == envpool.Box {
		want = HeadGaussian
	}
	switch head {
	case HeadAuto, "":
		return want, nil
	case want:
		return head, nil
	case HeadCategorical, HeadGaussian:
		return "", fmt.Errorf("net.head = %q does not fit the task's action space %v: use %q (or \"auto\")", head, space, want)
	}
	return "", fmt.Errorf("net.head = %q: use auto, categorical or gaussian", head)
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

// NewPolicy allocates a policy for a spec's spaces.
func NewPolicy(spec *envpool.Spec, cfg NetConfig, dt tensor.Dtype) (*Policy, error) {
	head, err := ResolveHead(cfg.Head, spec.ActionSpace)
	if err != nil {
		return nil, err
	}
	p := &Policy{ObsDim: spec.ObsSpace.Size(), cfg: cfg}
	p.setHead(head, spec.ActionSpace, dt)
	sizes := func(out int) []int {
		s := append([]int{p.ObsDim}, cfg.Hidden...)
		return append(s, out)
	}
	if p.Actor, err = NewMLP("actor", sizes(p.ActDim), cfg.Activation, 0.01, dt); err != nil {
		return nil, err
	}
	if p.Critic, err = NewMLP("critic", sizes(1), cfg.Activation, 1.0, dt); err != nil {
		return nil, err
	}
	return p, nil
}

// setHead gives the policy a resolved head on an action space: its output size
// (choices or action dimensions) and, for a Gaussian, the state-independent log std
// vector "actor.logstd" that Init sets to net.init_log_std. MLP and CNN policies share
// it, so their Gaussian heads are one and the same.
func (p *Policy) setHead(head string, space envpool.Space, dt tensor.Dtype) {
	p.Head = head
	if head == HeadCategorical {
		p.ActDim = space.N
		return
	}
	p.ActDim = space.Size()
	p.LogStd = &Param{"actor.logstd", tensor.New(tensor.WithShape(1, p.ActDim), tensor.Of(dt))}
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

// Build applies the policy to obs (batch x ObsDim; for a CNN policy the uint8 pixels
// ObsInput makes) in g, for training: gradients may be taken.
func (p *Policy) Build(g *G.ExprGraph, obs *G.Node) (*PolicyNodes, error) {
	return p.build(g, obs, TorsoKernels{Backend: p.Backend, Precision: p.Precision})
}

// BuildInference is Build for a graph that is never differentiated (an actor's or an
// evaluation's): a CNN torso then runs on inference-only kernels.
func (p *Policy) BuildInference(g *G.ExprGraph, obs *G.Node) (*PolicyNodes, error) {
	return p.build(g, obs, TorsoKernels{Backend: p.Backend, Inference: true, Precision: p.Precision})
}

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
	dt := n.Out.Dtype()
	if p.Head == HeadCategorical {
		lsm, err := G.LogSoftMax(n.Out, 1)
		if err != nil {
			return nil, nil, err
		}
		sel, err := G.HadamardProd(lsm, act)
		if err != nil {
			return nil, nil, err
		}
		if logp, err = G.Sum(sel, 1); err != nil {
			return nil, nil, err
		}
		probs, err := G.Exp(lsm)
		if err != nil {
			return nil, nil, err
		}
		plogp, err := G.HadamardProd(probs, lsm)
		if err != nil {
			return nil, nil, err
		}
		h, err := G.Sum(plogp, 1)
		if err != nil {
			return nil, nil, err
		}
		m, err := G.Mean(h)
		if err != nil {
			return nil, nil, err
		}
		entropy, err = G.Neg(m)
		return logp, entropy, err
	}
	// Gaussian: log N(a; mu, sigma) = -0.5 z^2 - log sigma - 0.5 log 2pi, summed over dims.
	ones := Ones(g, dt, "logstd.ones", n.batch)
	ls, err := G.Mul(ones, n.LogStd) // batch x ActDim
	if err != nil {
		return nil, nil, err
	}
	std, err := G.Exp(ls)
	if err != nil {
		return nil, nil, err
	}
	diff, err := G.Sub(act, n.Out)
	if err != nil {
		return nil, nil, err
	}
	z, err := G.HadamardDiv(diff, std)
	if err != nil {
		return nil, nil, err
	}
	z2, err := G.Square(z)
	if err != nil {
		return nil, nil, err
	}
	half := Scalar(g, dt, 0.5)
	hz2, err := G.HadamardProd(z2, half)
	if err != nil {
		return nil, nil, err
	}
	e, err := G.Add(hz2, ls)
	if err != nil {
		return nil, nil, err
	}
	s, err := G.Sum(e, 1)
	if err != nil {
		return nil, nil, err
	}
	negs, err := G.Neg(s)
	if err != nil {
		return nil, nil, err
	}
	logp, err = G.Sub(negs, Scalar(g, dt, 0.5*math.Log(2*math.Pi)*float64(p.ActDim)))
	if err != nil {
		return nil, nil, err
	}
	// Entropy of a diagonal Gaussian: sum(log sigma) + ActDim * 0.5 (1 + log 2pi).
	sl, err := G.Sum(n.LogStd)
	if err != nil {
		return nil, nil, err
	}
	entropy, err = G.Add(sl, Scalar(g, dt, 0.5*(1+math.Log(2*math.Pi))*float64(p.ActDim)))
	return logp, entropy, err
}

// Scalar returns a constant scalar node of the given dtype.
func Scalar(g *G.ExprGraph, dt tensor.Dtype, v float64) *G.Node {
	if dt == tensor.Float64 {
		return G.NewConstant(v)
	}
	return G.NewConstant(float32(v))
}

// Sample draws an action for one row of head outputs (logits or means), writes it into
// act (1 element for categorical, ActDim for Gaussian) and returns its log-probability.
// Gaussian actions are left unclipped: they are clipped to the action space only when
// sent to the env, so the stored action matches its log-probability.
func (p *Policy) Sample(out []float32, rng *rand.Rand, act []float32) float32 {
	if p.Head == HeadCategorical {
		a, lp := SampleCategorical(out, rng)
		act[0] = float32(a)
		return lp
	}
	ls := p.LogStd.F32()
	lp := 0.0
	for i, mu := range out {
		z := rng.NormFloat64()
		act[i] = float32(float64(mu) + math.Exp(float64(ls[i]))*z)
		// log-prob of the stored (float32) action, as the training graph will see it.
		zz := (float64(act[i]) - float64(mu)) / math.Exp(float64(ls[i]))
		lp += -0.5*zz*zz - float64(ls[i]) - 0.5*math.Log(2*math.Pi)
	}
	return float32(lp)
}

// Greedy writes the most likely action of one row (argmax or the mean) into act.
func (p *Policy) Greedy(out []float32, act []float32) {
	if p.Head == HeadCategorical {
		best := 0
		for i, v := range out {
			if v > out[best] {
				best = i
			}
		}
		act[0] = float32(best)
		return
	}
	copy(act, out)
}

// SampleCategorical draws from softmax(logits) by inverse CDF and returns the index and
// its log-probability.
func SampleCategorical(logits []float32, rng *rand.Rand) (int, float32) {
	m := math.Inf(-1)
	for _, v := range logits {
		m = math.Max(m, float64(v))
	}
	sum := 0.0
	for _, v := range logits {
		sum += math.Exp(float64(v) - m)
	}
	lse := m + math.Log(sum)
	u := rng.Float64()
	c := 0.0
	a := len(logits) - 1
	for i, v := range logits {
		c += math.Exp(float64(v) - lse)
		if u < c {
			a = i
			break
		}
	}
	return a, float32(float64(logits[a]) - lse)
}
