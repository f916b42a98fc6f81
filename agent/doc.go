// Package agent holds what rlpool's learners share: MLP bodies and their orthogonal
// initialisation, categorical and diagonal-Gaussian action heads (as Gorgonia graph
// pieces and as Go-side samplers), rollout storage, generalised advantage estimation,
// running mean/std normalisation, env-state snapshots for exact resume, and the
// checkpoint container.
//
// Nothing here knows a particular learner: PPO (agent/ppo) and IMPALA build their losses
// from these parts. Everything is float32 in production; graph builders take a dtype so
// that tests can check gradients on float64 graphs.
package agent
