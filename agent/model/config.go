package model

import (
	"fmt"
	"strings"

	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// NetConfig is the [net] section of a config: which network, its MLP sizes and head,
// and the kernels and arithmetic its layers run on. Every learner builds its policy
// from it (New), so the network is chosen in one place whatever the learner.
type NetConfig struct {
	// Network is the body under the heads: auto picks the Nature CNN for uint8 image
	// observations and the MLPs below for float32 vectors.
	Network string `toml:"network" oneof:"auto|mlp|nature_cnn|small_cnn" help:"policy network: auto (nature_cnn for pixels, mlp otherwise), mlp (the hidden sizes below), nature_cnn or small_cnn (pixels; small_cnn is the first DQN paper's torso, a third of the Nature CNN's arithmetic)"`
	Hidden  []int  `toml:"hidden" help:"hidden layer sizes of both the actor and the critic MLP"`
	// Channels and Features resize a CNN torso's layers, keeping its kernels and
	// strides: a cheaper network for a CPU-bound learner is a config away.
	Channels   []int   `toml:"channels" help:"a CNN torso's output channels, one per convolution (nature_cnn has 3, small_cnn 2); empty keeps the network's own"`
	Features   int     `toml:"features" range:"[0,65536]" help:"units of a CNN torso's dense layer; 0 keeps the network's own (nature_cnn 512, small_cnn 256)"`
	Activation string  `toml:"activation" oneof:"tanh|relu" help:"activation after each hidden layer"`
	Head       string  `toml:"head" oneof:"auto|categorical|gaussian" help:"action distribution; auto picks from the action space"`
	InitLogStd float64 `toml:"init_log_std" range:"[-5,2]" help:"initial state-independent log std of the Gaussian head"`
	OrthoInit  bool    `toml:"ortho_init" help:"orthogonal init (gains sqrt 2, 0.01 policy, 1 value) instead of PyTorch's default"`
	// Backend names agent/nn's backend (nn.Backend), checked by Check against the
	// backends the build has.
	Backend   string `toml:"backend" help:"kernels of a CNN torso's layers: auto (oneDNN when its library loads, else the Go kernels) or a backend by name: onednn (Intel oneDNN, Debian's libdnnl2), go (pure-Go fused ops)"`
	Precision string `toml:"precision" oneof:"fp32|bf16" help:"arithmetic of a CNN torso's layers, acting and training (weights stay float32): bf16 needs the onednn backend and a CPU with fast bf16 dot products (Intel AMX; AMD Zen 4)"`
}

// DefaultNetConfig is CleanRL's classic-control network: 64-64 tanh, orthogonal init,
// the network picked from the observations.
func DefaultNetConfig() NetConfig {
	return NetConfig{Network: NetworkAuto, Hidden: []int{64, 64}, Activation: ActTanh, Head: HeadAuto, OrthoInit: true,
		Backend: string(nn.BackendAuto), Precision: string(nn.PrecisionFP32)}
}

// Check reports settings of the section that no task can take: a backend this build
// does not have, an unknown precision. It loads no library: whether the backend is
// available is Resolve's question.
func (c NetConfig) Check() error {
	if _, err := nn.ParseBackend(c.Backend); err != nil {
		return err
	}
	_, err := nn.ParsePrecision(c.Precision)
	return err
}

// NetworkKey is the config key of the network kind, as errors name it.
const NetworkKey = "net.network"

// Networks a learner can put under its action and value heads, as spelt in configs
// (net.network).
const (
	NetworkAuto      = "auto"       // nature_cnn for uint8 C x H x W observations, mlp otherwise
	NetworkMLP       = "mlp"        // separate actor and critic MLPs ([net] hidden sizes)
	NetworkNatureCNN = "nature_cnn" // one Nature CNN torso shared by a linear actor and critic
	NetworkSmallCNN  = "small_cnn"  // the same with the smaller torso of the first DQN paper (nn.SmallArch)
)

// CNNArch returns the torso a CNN network name stands for, or nil for a network
// without one (mlp).
func CNNArch(network string) *nn.CNNArch {
	switch network {
	case NetworkNatureCNN:
		return &nn.NatureArch
	case NetworkSmallCNN:
		return &nn.SmallArch
	}
	return nil
}

// IsImageSpace reports whether a space holds uint8 images, channels first (C x H x W):
// what the CNN torsos take.
func IsImageSpace(s envpool.Space) bool {
	return s.DType == envpool.Uint8 && len(s.Shape) == 3
}

// ResolveNetwork returns the network net.network asks for on a task, or an error that
// names the key and says what fits: auto picks nature_cnn for image observations and
// mlp for float32 vectors; nature_cnn and small_cnn need images.
func ResolveNetwork(network string, spec *envpool.Spec) (string, error) {
	img := IsImageSpace(spec.ObsSpace)
	switch network {
	case NetworkAuto, "":
		if img {
			return NetworkNatureCNN, nil
		}
		network = NetworkMLP
	case NetworkMLP, NetworkNatureCNN, NetworkSmallCNN:
	default:
		return "", fmt.Errorf("%s = %q: use auto, mlp, nature_cnn or small_cnn", NetworkKey, network)
	}
	switch {
	case CNNArch(network) != nil && !img:
		return "", fmt.Errorf("%s = %s needs uint8 image observations (C x H x W); %s has %v %v (use mlp or auto)",
			NetworkKey, network, spec.TaskID, spec.ObsSpace.DType, spec.ObsSpace.Shape)
	case network == NetworkMLP && spec.ObsSpace.DType != envpool.Float32:
		return "", fmt.Errorf("%s = mlp needs float32 observations; %s has %v (use nature_cnn or auto)", NetworkKey, spec.TaskID, spec.ObsSpace.DType)
	}
	return network, nil
}

// mlpBackend is the kernels of every MLP layer: an MLP policy's bodies and every
// policy's heads run on the Go kernels whatever net.backend says, because their small
// GEMMs gain nothing from oneDNN's thread hand-offs (and tanh is Go's). net.backend
// chooses the kernels of a CNN torso only.
const mlpBackend = nn.BackendGo

// Choice is what a [net] section asks for on a task with every "auto" decided: the
// network, the backend its torso runs on, its arithmetic, and the line that says so
// at the start of a run. Resolve makes it; the run's start-of-run line and meta.json
// both come from it.
type Choice struct {
	Network   string       // mlp, nature_cnn or small_cnn
	Backend   nn.Backend   // go or onednn: the torso's kernels (go for an MLP policy)
	Precision nn.Precision // fp32, or bf16 (a CNN torso on onednn)
	Line      string       // "network backend: ... (why)", for the start of a run
	cfg       NetConfig
	torso     *nn.CNNArch // the CNN torso with net.channels and net.features applied; nil for an MLP
}

// Torso returns the CNN torso the choice runs under its heads, resized by net.channels
// and net.features, or nil for an MLP policy.
func (c Choice) Torso() *nn.CNNArch { return c.torso }

// torso returns network's CNN torso with the section's channels and features, or nil
// for a network without one; the error names the key that does not fit.
func (c NetConfig) torso(network string) (*nn.CNNArch, error) {
	base := CNNArch(network)
	if base == nil {
		if len(c.Channels) > 0 || c.Features > 0 {
			return nil, fmt.Errorf("net.channels and net.features resize a CNN torso; %s has none (leave them out)", network)
		}
		return nil, nil
	}
	arch := nn.CNNArch{Convs: append([]nn.ConvLayer(nil), base.Convs...), Features: base.Features}
	if len(c.Channels) > 0 {
		if len(c.Channels) != len(arch.Convs) {
			return nil, fmt.Errorf("net.channels = %v: %s has %d convolutions, so give %d sizes", c.Channels, network, len(arch.Convs), len(arch.Convs))
		}
		for i, n := range c.Channels {
			if n < 1 || n > 4096 {
				return nil, fmt.Errorf("net.channels[%d] = %d: a convolution has 1 to 4096 output channels", i, n)
			}
			arch.Convs[i].Out = n
		}
	}
	if c.Features > 0 {
		arch.Features = c.Features
	}
	return &arch, nil
}

// Config returns the [net] section with the network, backend and precision replaced by
// the decided ones: a learner handed it builds the same network without probing for
// a backend again (resolving a resolved section changes nothing).
func (c Choice) Config() NetConfig {
	cfg := c.cfg
	cfg.Network, cfg.Backend, cfg.Precision = c.Network, string(c.Backend), string(c.Precision)
	return cfg
}

// Resolve decides a [net] section on a task: the network (net.network), the backend
// (net.backend, resolved by nn.ResolveBackend; an MLP policy runs on mlpBackend
// whatever it says) and the precision (net.precision: anything but fp32 needs a CNN
// torso, on a backend that computes in it, nn.CheckPrecision). Errors name the key
// and what to change.
func Resolve(cfg NetConfig, spec *envpool.Spec) (Choice, error) {
	network, err := ResolveNetwork(cfg.Network, spec)
	if err != nil {
		return Choice{}, err
	}
	backend, line, err := nn.ResolveBackend(cfg.Backend)
	if err != nil {
		return Choice{}, err
	}
	prec, err := nn.ParsePrecision(cfg.Precision)
	if err != nil {
		return Choice{}, err
	}
	arch, err := cfg.torso(network)
	if err != nil {
		return Choice{}, err
	}
	c := Choice{Network: network, Backend: backend, Precision: prec, Line: line, cfg: cfg, torso: arch}
	if arch != nil && (len(cfg.Channels) > 0 || cfg.Features > 0) {
		c.Line += fmt.Sprintf("; %s resized by net.channels and net.features to %s", network, describeArch(arch))
	}
	if c.Torso() == nil {
		c.Backend = mlpBackend
		c.Line = fmt.Sprintf("network backend: %s (an MLP policy: its small layers run on the Go kernels whatever net.backend says)", mlpBackend)
	}
	if prec != nn.PrecisionFP32 {
		if c.Torso() == nil {
			return Choice{}, fmt.Errorf("net.precision = %s applies to CNN torsos; %s's network is an MLP (use fp32)", prec, spec.TaskID)
		}
		if err := nn.CheckPrecision(c.Backend, prec); err != nil {
			return Choice{}, err
		}
		c.Line += fmt.Sprintf("; computing in %s (net.precision = %s), weights kept in fp32", prec, prec)
	}
	return c, nil
}

// New builds the policy a [net] section asks for on a spec (Resolve decides the
// network, backend and precision), weights zero until Init.
func New(cfg NetConfig, spec *envpool.Spec) (*Policy, error) {
	c, err := Resolve(cfg, spec)
	if err != nil {
		return nil, err
	}
	cfg = c.Config()
	var p *Policy
	if arch := c.Torso(); arch != nil {
		p, err = NewCNNPolicy(spec, cfg, arch)
	} else {
		p, err = NewPolicy(spec, cfg, tensor.Float32)
	}
	if err != nil {
		return nil, err
	}
	p.Backend, p.Precision = c.Backend, c.Precision
	return p, nil
}

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

// describeArch spells a torso's layers, e.g. "conv 16 8x8/4, conv 32 4x4/2, dense 256".
func describeArch(a *nn.CNNArch) string {
	var b strings.Builder
	for _, l := range a.Convs {
		fmt.Fprintf(&b, "conv %d %dx%d/%d, ", l.Out, l.Kernel, l.Kernel, l.Stride)
	}
	fmt.Fprintf(&b, "dense %d", a.Features)
	return b.String()
}
