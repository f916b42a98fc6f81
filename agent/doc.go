// Package agent holds what rlpool's learners share: the actor-critic policy (MLP bodies
// or the Nature CNN torso, categorical and diagonal-Gaussian heads, as Gorgonia graph
// pieces and as Go-side samplers), rollout storage, generalised advantage estimation,
// running mean/std normalisation, the learners' pools (time limit, seeds), env-state
// snapshots for exact resume, the checkpoint container, and Algorithm, the description
// by which the application knows a learner.
//
// Nothing here knows a particular learner: PPO (agent/ppo) and IMPALA build their losses
// from these parts and describe themselves with AlgorithmOf. Everything is float32 in production; graph builders take a dtype so
// that tests can check gradients on float64 graphs.
package agent
