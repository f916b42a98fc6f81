package model

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// Forward is a policy's inference graph on a batch of observations with its machine:
// the pass that acts. PPO's rollouts, IMPALA's actors and `train eval` all run it, so
// an evaluation
// computes exactly what the learner computed when it acted (float32, the same
// kernels: the torso on the chosen backend, the MLPs on the Go kernels).
type Forward struct {
	// Obs is the graph's input, filled in place before Run: a batch x ObsDim float32
	// matrix for an MLP policy, or (batch, C, H, W) uint8 pixels under a CNN torso.
	Obs *tensor.Dense
	// Nodes are the policy's nodes in the graph.
	Nodes      *PolicyNodes
	g          *G.ExprGraph
	m          G.VM
	out, value G.Value
}

// NewForward builds p's inference graph on batch observations and its machine.
// Creating a machine may write into the tensors bound to the graph, the weights
// among them: NewForward puts p's weights back afterwards, so it may be called before
// or after they are set.
func NewForward(p *Policy, batch int) (*Forward, error) {
	f := &Forward{g: G.NewGraph()}
	obs, in := p.ObsInput(f.g, tensor.Float32, "obs", batch)
	f.Obs = in
	var err error
	if f.Nodes, err = p.BuildInference(f.g, obs); err != nil {
		return nil, fmt.Errorf("model: inference graph: %w", err)
	}
	G.Read(f.Nodes.Out, &f.out)
	G.Read(f.Nodes.Value, &f.value)
	params := p.Params()
	saved := make([][]float32, len(params))
	for i, q := range params {
		saved[i] = append([]float32(nil), q.F32()...)
	}
	f.m = G.NewTapeMachine(f.g)
	for i, q := range params {
		copy(q.F32(), saved[i])
	}
	return f, nil
}

// SetObs writes row row of a pool batch into observation i of the input.
func (f *Forward) SetObs(i int, b *envpool.Batch, row int) {
	k := b.ObsSize
	if in, ok := f.Obs.Data().([]uint8); ok {
		copy(in[i*k:(i+1)*k], b.RowU8(row))
		return
	}
	copy(f.Obs.Data().([]float32)[i*k:(i+1)*k], b.RowF32(row))
}

// WeightsFixed declares that the weights keep their values until the next call (see
// nn.WeightsFixed): call it after every change to them.
func (f *Forward) WeightsFixed() { nn.WeightsFixed(f.g) }

// Run runs the graph on the observations in Obs and returns the actor's outputs
// (logits or a Gaussian's means, batch x ActDim) and the values (batch). The slices
// are the graph's own, overwritten by the next Run.
func (f *Forward) Run() (out, value []float32, err error) {
	defer f.m.Reset()
	if err := f.m.RunAll(); err != nil {
		return nil, nil, fmt.Errorf("model: policy forward pass: %w", err)
	}
	return f.out.Data().([]float32), f.value.Data().([]float32), nil
}
