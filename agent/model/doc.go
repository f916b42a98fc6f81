// Package model is the policy network's one home: the [net] config section
// (NetConfig), the decision of network, backend and precision for a task (Resolve,
// made once per run and reported in one line), the actor-critic policy built from it
// (MLP bodies or a CNN torso under linear heads, categorical or diagonal-Gaussian
// heads) as Gorgonia graph pieces and Go-side samplers, and Forward, the one-batch
// inference pass that evaluation shares with the learners' acting graphs.
//
// The layers and their kernels are agent/nn's; a network backend is chosen there by
// name (nn.Backend), and this package decides which layers run on it.
// docs/design/model.md says what a new backend touches.
package model
