// Package impala is IMPALA (Espeholt et al. 2018, arXiv 1802.01561): actors that act
// with a possibly stale copy of the policy, and a learner that corrects for the lag
// with V-trace, on Gorgonia and envpool.
//
// Actors. Each actor goroutine drives its own envpool.Pool in async mode (batch_size
// below num_envs): every Recv completes one step of some envs, the actor runs its copy
// of the behaviour policy mu on their new observations, samples their next actions and
// sends them at once, so the actor's forward pass overlaps the other envs stepping. An
// actor owns its network's tensors; before a forward pass it copies in the learner's
// latest weight snapshot when that is newer (snapshots are versioned, reference counted
// and double buffered, see snapshots), so no actor ever reads a tensor the optimiser is
// writing.
//
// Unrolls. An Unroll is T consecutive steps of one env: T+1 observations (the last is
// the bootstrap observation x_T and the first of the env's next unroll), actions,
// rewards, done flags and mu's logits, plus the version of the weights that acted. The
// pools run in SameStep auto-reset mode: a step that ends an episode carries its reward
// and the next episode's first observation, so every step is a real transition and a
// done flag (gamma_t = 0) cuts the trace there. Truncation (the time limit) also ends
// the trace, as in the reference implementation.
//
// Queue. Full unrolls go to a bounded queue (impala.queue_size). A full queue blocks the
// actors: memory stays bounded by the queue, one batch held by the learner and one
// unroll in progress per env, and unroll buffers are recycled.
//
// Learner. Each Iterate takes B unrolls, runs the learner's network on their (T+1)B
// observations (time-major), and applies one custom loss op that computes, from those
// same outputs, rho_t = pi(a_t|x_t)/mu(a_t|x_t), the V-trace targets v_s and the
// advantages A_s (VTrace), and the loss: policy gradient -sum log pi(a_s) A_s, baseline
// 0.5 sum (v_s - V(x_s))^2 and entropy bonus, summed over time and batch as the
// reference code does (see loss.go). Then one step of RMSProp (TensorFlow-style eps)
// or Adam from agent/optim with global-norm clipping and a linearly decaying learning
// rate, and the new weights are published as the next snapshot.
//
// Metrics. Besides the losses, each step reports the policy lag (learner version minus
// the version that acted, in updates), the mean importance weight and the fraction
// truncated, actor and learner frames per second, the learner's idle fraction (time
// waiting for unrolls) and the queue length.
//
// Networks: the [net] section's MLP actor and critic for vector observations
// (classic control), or the Nature CNN of agent/nn with policy and value heads for
// stacked Atari frames. The policy is categorical.
package impala
