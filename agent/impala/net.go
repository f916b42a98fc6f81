package impala

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// acNet is an actor-critic network's weights and how to build graphs on them: the
// model.Policy PPO uses (the [net] MLPs, or the Nature CNN with linear heads), with a
// categorical head. The learner owns one; each actor owns a clone that it refreshes
// from weight snapshots, so that no actor ever reads a tensor the optimiser writes.
type acNet struct {
	spec    envpool.Spec
	netCfg  model.NetConfig
	actDim  int
	obsSize int
	policy  *model.Policy
	params  []model.Param // every learnable tensor, in Policy.Params order
}

// newNet allocates and initialises the network for a spec (net.network): orthogonal
// init (seeded), policy output gain 0.01 and value output gain 1, as CleanRL's agents.
func newNet(spec *envpool.Spec, netCfg model.NetConfig, seed int64) (*acNet, error) {
	if err := checkActions(spec); err != nil {
		return nil, err
	}
	netCfg.Head = model.HeadCategorical
	n := &acNet{spec: *spec, netCfg: netCfg, actDim: spec.ActionSpace.N, obsSize: spec.ObsSpace.Size()}
	if err := n.alloc(); err != nil {
		return nil, err
	}
	n.policy.Init(agent.NewRand(seed, agent.StreamInit))
	return n, nil
}

func (n *acNet) alloc() (err error) {
	if n.policy, err = model.New(n.netCfg, &n.spec); err != nil {
		return err
	}
	n.params = n.policy.Params()
	return nil
}

// clone returns a network of the same shape with its own copies of the weights.
func (n *acNet) clone() (*acNet, error) {
	c := *n
	if err := c.alloc(); err != nil {
		return nil, err
	}
	for i, p := range n.params {
		copy(c.params[i].F32(), p.F32())
	}
	return &c, nil
}

// weights returns the backing arrays of the learnable tensors.
func (n *acNet) weights() [][]float32 {
	w := make([][]float32, len(n.params))
	for i, p := range n.params {
		w[i] = p.F32()
	}
	return w
}

// netGraph is the network applied to a batch of rows observations in one graph.
type netGraph struct {
	g      *G.ExprGraph
	obsF32 []float32 // the input to fill: rows x obsSize (mlp)
	obsU8  []uint8   // or rows x C x H x W pixels (a CNN torso)
	logits *G.Node   // rows x A
	value  *G.Node   // rows
	params G.Nodes   // in Policy.Params order
}

// build applies the network to rows observations in a new graph for the learner's
// loss (actors act through model.Forward).
func (n *acNet) build(rows int) (*netGraph, error) {
	ng := &netGraph{g: G.NewGraph()}
	obs, t := n.policy.ObsInput(ng.g, tensor.Float32, "obs", rows)
	switch d := t.Data().(type) {
	case []uint8:
		ng.obsU8 = d
	case []float32:
		ng.obsF32 = d
	}
	pn, err := n.policy.Build(ng.g, obs)
	if err != nil {
		return nil, err
	}
	ng.logits, ng.value, ng.params = pn.Out, pn.Value, pn.Params
	return ng, nil
}

// CheckSpec reports whether the network a config asks for (net.network) fits a
// task's spaces; configs call it before a run directory is made.
func CheckSpec(net model.NetConfig, spec *envpool.Spec) error {
	if err := checkActions(spec); err != nil {
		return err
	}
	_, err := model.ResolveNetwork(net.Network, spec)
	return err
}

// checkActions refuses a task whose actions are not Discrete, whatever the network:
// V-trace here weighs categorical policies only, so neither the MLP nor the Nature CNN
// has a Gaussian head under IMPALA (PPO has both).
func checkActions(spec *envpool.Spec) error {
	if spec.ActionSpace.Kind != envpool.Discrete {
		return fmt.Errorf("env.task = %s has a %v action space; the IMPALA learner has a categorical policy and needs Discrete actions (run.algo = \"ppo\" trains Box actions, with mlp or nature_cnn)", spec.TaskID, spec.ActionSpace)
	}
	return nil
}
