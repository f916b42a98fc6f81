package play

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/nn"
)

// cnnNet is a policy with a Nature CNN torso (PPO's and IMPALA's network for pixel
// observations) evaluated on one observation at a time by a Gorgonia graph.
type cnnNet struct {
	m   G.VM
	obs []uint8 // the graph's input, 1 x C x H x W
	out G.Value // logits, 1 x A
}

// newCNNNet builds the graph of p on one observation.
func newCNNNet(p *agent.Policy) (*cnnNet, error) {
	g := G.NewGraph()
	x, in := p.ObsInput(g, tensor.Float32, "obs", 1)
	pn, err := p.BuildInference(g, x)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	net := &cnnNet{obs: in.Data().([]uint8)}
	G.Read(pn.Out, &net.out)
	// Creating a machine may write into bound tensors: keep the weights and put them
	// back after it.
	params := p.Params()
	saved := make([][]float32, len(params))
	for i, q := range params {
		saved[i] = append([]float32(nil), q.F32()...)
	}
	net.m = G.NewTapeMachine(g)
	for i, q := range params {
		copy(q.F32(), saved[i])
	}
	// The checkpoint's weights do not change during an evaluation: convert them once.
	nn.WeightsFixed(g)
	return net, nil
}

// output runs the network on one observation: the actor's output (logits, or a
// Gaussian's means).
func (n *cnnNet) output(obs []uint8) ([]float32, error) {
	copy(n.obs, obs)
	defer n.m.Reset()
	if err := n.m.RunAll(); err != nil {
		return nil, fmt.Errorf("play: CNN forward pass: %w", err)
	}
	return n.out.Data().([]float32), nil
}
