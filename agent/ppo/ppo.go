// Package ppo is Proximal Policy Optimization (Schulman et al. 2017, arXiv 1707.06347)
// on Gorgonia, fed by an envpool pool, with every implementation detail of
// docs/design/algorithms.md switchable in Config.
//
// One Iterate is one rollout of num_steps x num_envs env steps followed by
// update_epochs passes of num_minibatches shuffled minibatches.
//
// Episode ends: the pool runs in SameStep auto-reset mode. A row that ends an episode
// carries that step's reward and flags, the next episode's first observation, and the
// terminal observation in FinalObs, so every row is a real transition (no reset rows
// to mask, no env steps wasted). Terminated steps do not bootstrap; truncated ones
// (the time limit) bootstrap from V(final observation) when bootstrap_truncated is on.
// The time limit is applied around each env by agent.NewPool, so that it is part of
// each env's saved state and a resumed run truncates exactly where an uninterrupted
// one would.
//
// Sync and async: with batch_size == num_envs every Recv returns all envs; with a
// smaller batch_size the learner acts on each batch as it arrives (rows carry env
// ids) and the rollout ends once num_steps x num_envs actions are taken and all
// results are in. Rollout slots are linked per env for GAE.
package ppo

import (
	"fmt"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/agent/optim"
	"github.com/rlpool/rlpool/envpool"
)

// Trainer runs PPO. It is driven by one goroutine.
type Trainer struct {
	cfg    Config
	spec   envpool.Spec
	pool   *envpool.Pool
	policy *model.Policy
	params []model.Param
	clock  agent.PhaseClock // collect and learn times (Phases)

	// The acting pass: the policy's inference graph on one batch of batch_size
	// observations, whose weights change only in learn; actor is the policy it runs:
	// policy itself, or under ppo.overlap a copy (overlap.go).
	acting *model.Forward
	actor  *model.Policy
	// Training graph: the loss on one minibatch.
	train  *lossGraph
	trainM G.VM
	opt    optim.Optimizer
	// optState is Adam's state from a checkpoint, loaded after the next training run
	// binds the gradients.
	optState *optim.State

	pcg    *rand.PCG
	rng    *rand.Rand
	obsRMS *agent.RunningMeanStd
	rew    *RewardScaler
	store  *Rollout
	// ppo.overlap (overlap.go): other is the second rollout, waiting for its update
	// once it holds slots; learnRNG shuffles the minibatches beside the sampling.
	other    *Rollout
	learnRNG *rand.Rand

	numEnvs, batch, obsDim, actWidth int
	held                             []float32 // N x obsDim: each env's current raw observation
	heldU8                           []uint8   // the same for pixel observations (pixels.go)
	rawRewardCol, gameOverCol        int       // info columns "reward" and "terminated", or -1
	pending                          []int     // rollout slot waiting for each env's result
	epRet                            []float64 // raw return of each env's running episode
	success                          agent.SuccessTracker
	epLen                            []int
	lastValues                       []float32
	envSteps                         int64
	updates                          int
	numUpdates                       int
	annealUpdates                    int     // updates over which the anneals reach 0
	warmupUpdates                    int     // updates of the learning rate's warm-up (0: none)
	lr                               float64 // the adaptive schedule's current rate (adaptive_kl)
	temp                             float64 // sampling temperature of the rollout being collected
	started                          bool
	inFlight                         int

	// Scratch.
	envActs  []float32
	ids      []int32
	rewards  []float32
	dones    []bool
	finals   []int     // rows needing V(final obs)
	logits   []float32 // one row of logits divided by temp
	idx      []int
	episodes []agent.Episode
}

// New builds the pool, the policy and its two graphs, and initialises the weights.
func New(s agent.Setup, cfg Config) (*Trainer, error) {
	if err := cfg.Check(s.Pool.NumEnvs); err != nil {
		return nil, err
	}
	if err := agent.CheckPool(s.Pool); err != nil {
		return nil, err
	}
	po, err := s.Pool.Resolve(&s.Spec)
	if err != nil {
		return nil, err
	}
	t := &Trainer{cfg: cfg, spec: s.Spec, numEnvs: po.NumEnvs, batch: po.BatchSize}
	if t.policy, err = newPolicy(&t.spec, s.Net, cfg); err != nil { // pixels.go
		return nil, err
	}
	t.params = t.policy.Params()
	t.obsDim = t.policy.ObsDim
	t.actWidth = 1
	if t.policy.Head == model.HeadGaussian {
		t.actWidth = t.policy.ActDim
	}
	total := cfg.NumSteps * t.numEnvs
	// The run ends at the first rollout boundary at or past total_steps; the anneals
	// reach 0 after anneal_steps (total_steps when 0).
	t.numUpdates = int(max(1, (s.TotalSteps+int64(total)-1)/int64(total)))
	t.annealUpdates = t.numUpdates
	if cfg.AnnealSteps > 0 {
		t.annealUpdates = int(max(1, (cfg.AnnealSteps+int64(total)-1)/int64(total)))
	}
	t.warmupUpdates = int((cfg.WarmupSteps + int64(total) - 1) / int64(total))

	// Graphs first, then both machines, then the weights: creating a machine may write
	// into bound tensors (docs/design/custom-ops.md).
	t.actor = t.policy
	if cfg.Overlap {
		if t.actor, err = newPolicy(&t.spec, s.Net, cfg); err != nil {
			return nil, err
		}
	}
	if t.acting, err = model.NewForward(t.actor, t.batch); err != nil {
		return nil, err
	}
	if t.train, err = buildLoss(t.policy, cfg, total/cfg.NumMinibatches, tensor.Float32); err != nil {
		return nil, err
	}
	// Gradients go into the weights' dual values, which the in-place Adam reads, clips
	// by their global norm (item 11) and zeroes.
	t.trainM = G.NewTapeMachine(t.train.g, G.BindDualValues(t.train.pn.Params...))

	t.pcg = agent.NewPCG(s.Seed, agent.StreamPPO)
	t.rng = rand.New(t.pcg)
	t.policy.Init(t.rng)
	if cfg.Overlap {
		t.learnRNG = agent.NewRand(s.Seed, agent.StreamPPOLearn)
	}
	t.opt = optim.NewAdam(t.train.pn.Params, optim.AdamConfig{LR: cfg.LearningRate, Eps: cfg.AdamEps, MaxGradNorm: cfg.MaxGradNorm})
	t.lr = cfg.LearningRate

	t.obsRMS = agent.NewRunningMeanStd(t.obsDim)
	t.rew = NewRewardScaler(t.numEnvs, cfg.Gamma, cfg.RewardClip)
	t.initObs(total) // held observations and the rollout, float32 or pixels (pixels.go)
	if cfg.Overlap {
		t.other = t.newRollout(total)
	}
	t.pending = make([]int, t.numEnvs)
	t.epRet = make([]float64, t.numEnvs)
	t.epLen = make([]int, t.numEnvs)
	t.success = agent.NewSuccessTracker(&s.Spec, t.numEnvs)
	t.lastValues = make([]float32, t.numEnvs)
	t.envActs = make([]float32, t.batch*s.Spec.ActionSpace.Size())
	t.ids = make([]int32, t.batch)
	t.rewards = make([]float32, t.batch)
	t.dones = make([]bool, t.batch)
	t.idx = make([]int, total)
	t.logits = make([]float32, t.policy.ActDim)
	t.temp = cfg.TemperatureAt(0) // Iterate sets it for each rollout

	// The pool: SameStep auto-reset, time limit in the env wrapper (see the package doc).
	if t.pool, err = agent.NewPool(s.Spec, s.Factory, s.Pool, s.Seed, 0); err != nil {
		return nil, err
	}
	return t, nil
}

// Close stops the pool.
func (t *Trainer) Close() error { return t.pool.Close() }

// EnvSteps is the number of env steps taken so far.
func (t *Trainer) EnvSteps() int64 { return t.envSteps }

// Updates is the number of completed PPO updates.
func (t *Trainer) Updates() int { return t.updates }

// NumUpdates is the number of updates the run's step budget allows.
func (t *Trainer) NumUpdates() int { return t.numUpdates }

// StepsPerUpdate is the number of env steps in one rollout.
func (t *Trainer) StepsPerUpdate() int { return t.store.Cap() }

// Policy returns the policy (its weights are the tensors being trained).
func (t *Trainer) Policy() *model.Policy { return t.policy }

// StatNames lists the per-update statistics Iterate returns, in order.
func StatNames() []string {
	return []string{"policy_loss", "value_loss", "entropy", "approx_kl", "clip_frac", "explained_variance", "learning_rate", "clip_coef", "epochs", "temperature"}
}

// Iterate collects one rollout and runs one PPO update. It returns the episodes that
// finished during the rollout and the update's statistics (StatNames order).
func (t *Trainer) Iterate() ([]agent.Episode, []agent.Stat, error) {
	t.episodes = t.episodes[:0]
	if !t.started {
		if err := t.reset(); err != nil {
			return nil, nil, err
		}
	}
	// Check refuses anneal_lr together with adaptive_kl, which learn applies.
	done, horizon := float64(t.updates), float64(t.annealUpdates)
	lr := optim.Schedule{Base: t.cfg.LearningRate, Anneal: t.cfg.AnnealLR, Horizon: horizon, Warmup: float64(t.warmupUpdates)}.At(done)
	clip := optim.Schedule{Base: t.cfg.ClipCoef, Anneal: t.cfg.AnnealClip, Horizon: horizon}.At(done)
	t.train.setClip(clip)
	t.temp = t.cfg.TemperatureAt(t.envSteps)
	var stats []agent.Stat
	var err error
	if t.cfg.Overlap {
		stats, err = t.iterateOverlapped(lr, clip) // overlap.go
	} else {
		stats, err = t.iterateInTurn(lr, clip)
	}
	if err != nil {
		return nil, nil, err
	}
	t.updates++
	return t.episodes, stats, nil
}

// iterateInTurn collects a rollout, then learns from it.
func (t *Trainer) iterateInTurn(lr, clip float64) ([]agent.Stat, error) {
	t.clock.Start()
	if err := t.rollout(); err != nil {
		return nil, err
	}
	t.clock.Stop("collect")
	var stats []agent.Stat
	err := inPhase("learn", func() (err error) {
		stats, err = t.learn(t.store, t.rng, lr, clip)
		return err
	})
	t.clock.Stop("learn")
	return stats, err
}

// Phases returns the wall and CPU time of collecting rollouts and of learning from
// them (agent.PhaseTimer); nil with ppo.overlap, where the two run at once.
func (t *Trainer) Phases() []agent.PhaseTime {
	if t.cfg.Overlap {
		return nil
	}
	return t.clock.Totals()
}

// rollout collects a rollout into store with its bootstrap values and advantages.
// Profiler labels split a run's CPU time into acting and learning (profile.go).
func (t *Trainer) rollout() error {
	return inPhase("collect", func() error {
		if err := t.collect(); err != nil {
			return err
		}
		if err := t.values(); err != nil {
			return err
		}
		return t.store.ComputeGAE(t.lastValues, t.cfg.Gamma, t.cfg.GAELambda, t.cfg.BootstrapTruncated)
	})
}

// reset starts every env and records the first observations.
func (t *Trainer) reset() error {
	if err := t.pool.AsyncReset(); err != nil {
		return err
	}
	for range t.numEnvs / t.batch {
		b, err := t.pool.Recv()
		if err != nil {
			return err
		}
		for i := range b.Size {
			t.hold(int(b.EnvID[i]), b, i)
		}
		t.updateObsStats(b)
	}
	t.started = true
	return nil
}

// collect runs one rollout: act on every env, then on each batch as it comes back,
// until num_steps x num_envs actions are taken and their results are in.
func (t *Trainer) collect() error {
	// The weights stay as the last update (or Load) left them until the next learn:
	// the acting graph's layers convert them once for the whole rollout and values.
	t.acting.WeightsFixed()
	t.store.Clear()
	t.store.Temperature = t.temp
	total := t.store.Cap()
	acted := 0
	for c := 0; c < t.numEnvs; c += t.batch {
		for k := range t.batch {
			t.ids[k] = int32(c + k)
		}
		if err := t.act(t.ids); err != nil {
			return err
		}
		acted += t.batch
	}
	for t.inFlight > 0 {
		b, err := t.pool.Recv()
		if err != nil {
			return err
		}
		t.inFlight -= b.Size
		if err := t.absorb(b); err != nil {
			return err
		}
		if acted < total {
			copy(t.ids, b.EnvID)
			if err := t.act(t.ids); err != nil {
				return err
			}
			acted += t.batch
		}
	}
	return nil
}

// normalized writes env e's current observation as the policy sees it into dst.
func (t *Trainer) normalized(raw, dst []float32) {
	if t.cfg.NormObs {
		t.obsRMS.Normalize(raw, dst, t.cfg.ObsClip)
		return
	}
	copy(dst, raw)
}

// forward runs the acting pass on the rows already written into its input.
func (t *Trainer) forward() (out, values []float32, err error) {
	out, values, err = t.acting.Run()
	if err != nil {
		return nil, nil, fmt.Errorf("ppo: %w", err)
	}
	return out, values, nil
}

// act samples actions for the envs in ids from their current observations, stores the
// slots and sends the actions.
func (t *Trainer) act(ids []int32) error {
	for k, e := range ids {
		t.inputHeld(k, int(e))
	}
	out, values, err := t.forward()
	if err != nil {
		return err
	}
	sp := &t.spec.ActionSpace
	aw := sp.Size()
	for k, e := range ids {
		slot, err := t.store.Add(e)
		if err != nil {
			return err
		}
		t.storeObs(slot, k)
		a := t.store.ActRow(slot)
		t.store.LogP[slot] = t.actor.Sample(model.Temper(t.logits, out[k*t.actor.ActDim:(k+1)*t.actor.ActDim], t.temp), t.rng, a)
		t.store.Value[slot] = values[k]
		t.pending[e] = slot
		// Gaussian actions are clipped to the box only on their way to the env (item 13).
		dst := t.envActs[k*aw : (k+1)*aw]
		copy(dst, a)
		if sp.Kind == envpool.Box {
			for j := range dst {
				dst[j] = min(max(dst[j], sp.Low[j]), sp.High[j])
			}
		}
	}
	if err := t.pool.Send(t.envActs[:len(ids)*aw], ids); err != nil {
		return err
	}
	t.inFlight += len(ids)
	return nil
}

// absorb records a batch of results: rewards and flags into the pending slots, episode
// statistics, the envs' new observations, and V(final obs) for truncated rows.
func (t *Trainer) absorb(b *envpool.Batch) error {
	n := b.Size
	copy(t.rewards, b.Reward)
	for i := range n {
		t.dones[i] = b.Done(i)
	}
	if t.cfg.NormReward {
		t.rew.Scale(b.EnvID, t.rewards[:n], t.dones[:n])
	}
	t.finals = t.finals[:0]
	for i := range n {
		e := int(b.EnvID[i])
		slot := t.pending[e]
		t.store.Reward[slot] = t.rewards[i]
		t.store.Terminated[slot] = b.Terminated[i]
		t.store.Truncated[slot] = b.Truncated[i] && !b.Terminated[i]
		t.store.Complete[slot] = true
		t.envSteps++
		t.epRet[e] += t.rawReward(b, i) // raw score, games not lives (pixels.go)
		t.epLen[e]++
		t.success.Step(e, b.InfoRow(i))
		if t.dones[i] {
			if t.episodeOver(b, i) {
				t.episodes = append(t.episodes, agent.Episode{EnvStep: t.envSteps, EnvID: e, Return: t.epRet[e], Length: t.epLen[e],
					Success: t.success.Take(e)})
				t.epRet[e], t.epLen[e] = 0, 0
			}
			if t.store.Truncated[slot] && t.cfg.BootstrapTruncated {
				t.finals = append(t.finals, i)
			}
		}
		t.hold(e, b, i)
	}
	t.updateObsStats(b)
	if len(t.finals) == 0 {
		return nil
	}
	t.clearInput()
	for k, i := range t.finals {
		t.inputFinal(k, b, i)
	}
	_, values, err := t.forward()
	if err != nil {
		return err
	}
	for k, i := range t.finals {
		t.store.FinalValue[t.pending[b.EnvID[i]]] = values[k]
	}
	return nil
}

// values computes V of every env's current observation: the bootstrap after its last
// slot of the rollout.
func (t *Trainer) values() error {
	for c := 0; c < t.numEnvs; c += t.batch {
		for k := range t.batch {
			t.inputHeld(k, c+k)
		}
		_, values, err := t.forward()
		if err != nil {
			return err
		}
		copy(t.lastValues[c:c+t.batch], values)
	}
	return nil
}

// learn runs update_epochs passes of minibatches of r, shuffled by rng.
func (t *Trainer) learn(r *Rollout, rng *rand.Rand, lr, clip float64) ([]agent.Stat, error) {
	l := t.train
	m := l.m
	for i := range t.idx {
		t.idx[i] = i
	}
	act := l.act.Data().([]float32)
	oldLP, adv := l.oldLP.Data().([]float32), l.adv.Data().([]float32)
	ret, oldV := l.ret.Data().([]float32), l.oldV.Data().([]float32)
	l.setTemperature(r.Temperature)
	var sumPG, sumV, sumEnt, sumKL, sumClip float64
	nmb, epochs := 0, 0
	for epoch := 0; epoch < t.cfg.UpdateEpochs; epoch++ {
		epochs++
		if t.cfg.AdaptiveKL > 0 {
			lr = t.lr // optim.AdaptKL moves it after every epoch
		}
		rng.Shuffle(len(t.idx), func(i, j int) { t.idx[i], t.idx[j] = t.idx[j], t.idx[i] })
		approxKL, epochKL := 0.0, 0.0
		for start := 0; start < len(t.idx); start += m {
			mb := t.idx[start : start+m]
			clear(act)
			for k, i := range mb {
				t.loadObs(r, k, i)
				if t.policy.Head == model.HeadCategorical {
					act[k*t.policy.ActDim+int(r.Act[i])] = 1
				} else {
					copy(act[k*t.actWidth:(k+1)*t.actWidth], r.ActRow(i))
				}
				oldLP[k], adv[k] = r.LogP[i], r.Adv[i]
				ret[k], oldV[k] = r.Ret[i], r.Value[i]
			}
			if t.cfg.NormAdv {
				normalizeAdv(adv)
			}
			if err := t.trainM.RunAll(); err != nil {
				t.trainM.Reset()
				return nil, fmt.Errorf("ppo: training step: %w", err)
			}
			// Statistics before the weights move: approx KL as (r - 1) - log r (item 12)
			// and the fraction of ratios outside the clip range (item 8).
			newLP := l.logpOut.Data().([]float32)
			kl, clipped := 0.0, 0
			for k := range m {
				logRatio := float64(newLP[k]) - float64(oldLP[k])
				r := math.Exp(logRatio)
				kl += (r - 1) - logRatio
				if math.Abs(r-1) > clip {
					clipped++
				}
			}
			approxKL = kl / float64(m)
			sumKL += approxKL
			epochKL += approxKL
			sumClip += float64(clipped) / float64(m)
			sumPG += model.ScalarValue(l.pgOut)
			sumV += model.ScalarValue(l.vlOut)
			sumEnt += model.ScalarValue(l.entOut)
			nmb++
			if t.optState != nil {
				if err := t.opt.LoadState(*t.optState); err != nil {
					t.trainM.Reset()
					return nil, fmt.Errorf("ppo: checkpoint Adam state: %w", err)
				}
				t.optState = nil
			}
			t.opt.SetLR(lr)
			if _, err := t.opt.Step(); err != nil {
				t.trainM.Reset()
				return nil, fmt.Errorf("ppo: optimiser step: %w", err)
			}
			t.trainM.Reset()
		}
		if t.cfg.AdaptiveKL > 0 {
			t.lr = optim.AdaptKL(t.lr, epochKL/float64(t.cfg.NumMinibatches), t.cfg.AdaptiveKL)
		}
		if t.cfg.TargetKL > 0 && approxKL > t.cfg.TargetKL {
			break
		}
	}
	n := float64(nmb)
	return []agent.Stat{
		{Name: "policy_loss", Value: sumPG / n},
		{Name: "value_loss", Value: sumV / n},
		{Name: "entropy", Value: sumEnt / n},
		{Name: "approx_kl", Value: sumKL / n},
		{Name: "clip_frac", Value: sumClip / n},
		{Name: "explained_variance", Value: r.ExplainedVariance()},
		{Name: "learning_rate", Value: lr},
		{Name: "clip_coef", Value: clip},
		{Name: "epochs", Value: float64(epochs)},
		{Name: "temperature", Value: r.Temperature},
	}, nil
}

// normalizeAdv standardises a minibatch's advantages (item 7) with the sample standard
// deviation, as torch's std() does.
func normalizeAdv(a []float32) {
	n := float64(len(a))
	mean := 0.0
	for _, v := range a {
		mean += float64(v)
	}
	mean /= n
	ss := 0.0
	for _, v := range a {
		d := float64(v) - mean
		ss += d * d
	}
	std := math.Sqrt(ss / max(n-1, 1))
	for i, v := range a {
		a[i] = float32((float64(v) - mean) / (std + 1e-8))
	}
}
