// Package agent holds what rlpool's learners share: the learners' pools (time limit,
// seeds), running mean/std normalisation, explained variance, the checkpoint
// container, and Algorithm, the description by which the application knows a learner.
//
// The policy network lives in agent/model (beneath it the layers and kernels of
// agent/nn); what only one learner uses lives in its package (PPO's rollout storage,
// GAE, reward scaling and env snapshots in agent/ppo).
//
// Nothing here knows a particular learner: PPO (agent/ppo) and IMPALA build their losses
// from these parts and describe themselves with AlgorithmOf. Everything is float32 in
// production; graph builders take a dtype so that tests can check gradients on float64
// graphs.
package agent
