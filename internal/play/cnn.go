package play

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// cnnNet is a Nature-CNN policy (IMPALA's network for pixel observations) evaluated on
// one observation at a time by a Gorgonia graph.
type cnnNet struct {
	m   G.VM
	obs []uint8 // the graph's input, 1 x C x H x W
	out G.Value // logits, 1 x A
}

// Names of the policy head's weights in IMPALA checkpoints (agent/impala's net.go).
const (
	policyWeight = "policy_w"
	policyBias   = "policy_b"
)

// loadNature builds the Nature CNN with its policy head for spec and fills it with the
// checkpoint's weights, looked up by the names the torso gives its parameters.
func loadNature(c *agent.Checkpoint, spec envpool.Spec) (net *cnnNet, err error) {
	sh := spec.ObsSpace.Shape
	if len(sh) != 3 || spec.ObsSpace.DType != envpool.Uint8 {
		return nil, fmt.Errorf("play: the Nature CNN takes uint8 C x H x W observations; %s has %v %v", spec.TaskID, spec.ObsSpace.DType, sh)
	}
	defer func() { // NatureCNN panics on inputs it cannot take
		if r := recover(); r != nil {
			net, err = nil, fmt.Errorf("play: building the Nature CNN for %s: %v", spec.TaskID, r)
		}
	}()
	input := func(g *G.ExprGraph) (*G.Node, *tensor.Dense) {
		t := tensor.New(tensor.WithShape(1, sh[0], sh[1], sh[2]), tensor.Of(tensor.Uint8))
		return G.NewTensor(g, tensor.Uint8, 4, G.WithShape(1, sh[0], sh[1], sh[2]), G.WithName("obs"), G.WithValue(t)), t
	}
	// A throwaway graph tells the torso's parameter names and shapes.
	g0 := G.NewGraph()
	x0, _ := input(g0)
	_, ps := nn.NatureCNN(g0, x0, nn.NatureOpts{Fast: true})
	vals := make([]tensor.Tensor, len(ps))
	src := make([][]float32, 0, len(ps)+2)
	for i, p := range ps {
		v, ok := c.F32[p.Name()]
		if !ok || len(v) != p.Shape().TotalSize() {
			return nil, fmt.Errorf("play: checkpoint has no usable %s (%d values, want %d): it was not written by a Nature-CNN learner", p.Name(), len(v), p.Shape().TotalSize())
		}
		vals[i] = tensor.New(tensor.WithShape(p.Shape().Clone()...), tensor.Of(tensor.Float32))
		src = append(src, v)
	}
	a := spec.ActionSpace.N
	w, b := c.F32[policyWeight], c.F32[policyBias]
	if len(w) != nn.NatureFeatures*a || len(b) != a {
		return nil, fmt.Errorf("play: checkpoint's policy head has %d and %d values, want %d and %d for %d actions", len(w), len(b), nn.NatureFeatures*a, a, a)
	}
	wT := tensor.New(tensor.WithShape(nn.NatureFeatures, a), tensor.Of(tensor.Float32))
	bT := tensor.New(tensor.WithShape(a), tensor.Of(tensor.Float32))

	g := G.NewGraph()
	x, obsT := input(g)
	features, _ := nn.NatureCNN(g, x, nn.NatureOpts{Fast: true, Values: vals})
	piW := G.NewMatrix(g, tensor.Float32, G.WithShape(nn.NatureFeatures, a), G.WithName(policyWeight), G.WithValue(wT))
	piB := G.NewVector(g, tensor.Float32, G.WithShape(a), G.WithName(policyBias), G.WithValue(bT))
	logits, err := nn.Dense(features, piW, piB, nn.DenseOpts{})
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	net = &cnnNet{obs: obsT.Data().([]uint8)}
	G.Read(logits, &net.out)
	net.m = G.NewTapeMachine(g)
	// Weights go in after the machine exists: creating one may write into bound tensors.
	for i, v := range src {
		copy(vals[i].Data().([]float32), v)
	}
	copy(wT.Data().([]float32), w)
	copy(bT.Data().([]float32), b)
	return net, nil
}

// logits runs the network on one observation.
func (n *cnnNet) logits(obs []uint8) ([]float32, error) {
	copy(n.obs, obs)
	defer n.m.Reset()
	if err := n.m.RunAll(); err != nil {
		return nil, fmt.Errorf("play: Nature CNN forward pass: %w", err)
	}
	return n.out.Data().([]float32), nil
}
