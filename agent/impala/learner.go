package impala

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	G "gorgonia.org/gorgonia"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/agent/optim"
)

// Algo is the learner name written into checkpoints and configs.
const Algo = "impala"

// Learner is IMPALA's learner with its actors. Iterate (one learner step) is driven by
// one goroutine; the actors run on their own from the first Iterate until Close.
type Learner struct {
	cfg   Config
	setup agent.Setup
	net   *acNet // the weights the optimiser writes; actors never read them
	graph *netGraph
	st    *lossState
	m     G.VM
	opt   optim.Optimizer

	snaps   snapshots
	queue   *unrollQueue
	actors  []*actor
	stop    chan struct{}
	wg      sync.WaitGroup
	failed  chan struct{}
	errOnce sync.Once
	err     error

	envSteps atomic.Int64
	epMu     sync.Mutex
	episodes []agent.Episode

	version   int64 // learner updates so far: the version of the latest snapshot
	started   bool
	closed    bool
	frameSkip int
	batch     []*Unroll
	versions  []int64 // behaviour versions of the last batch (the unrolls are recycled)
	out       []agent.Episode
	rates     rateWindow
	// pendingOpt is optimiser state from a checkpoint, restored at the first step.
	pendingOpt *optim.State

	// beforeStep, when set (tests), runs at the start of each Iterate: a slow learner.
	beforeStep func()
}

// New builds the learner's network, loss graph and optimiser, and the actors with
// their pools and graphs (all machines before any runs, as Gorgonia requires).
func New(s agent.Setup, c Config) (*Learner, error) {
	l := &Learner{cfg: c, setup: s, stop: make(chan struct{}), failed: make(chan struct{}),
		frameSkip: max(s.Spec.FrameSkip, 1)}
	var err error
	if l.net, err = newNet(&s.Spec, s.Net, s.Seed); err != nil {
		return nil, err
	}
	T, B := c.UnrollLength, c.BatchSize
	l.st = newLossState(T, B, l.net.actDim, G.Float32, c.loss())
	if l.graph, err = l.net.build(l.st.rows()); err != nil {
		return nil, err
	}
	loss, err := vtraceLoss(l.graph.logits, l.graph.value, l.st)
	if err != nil {
		return nil, err
	}
	if _, err = G.Grad(loss, l.graph.params...); err != nil {
		return nil, fmt.Errorf("impala: differentiate the loss: %w", err)
	}
	// Creating the machine writes into bound tensors: save the initial weights first.
	init := make([][]float32, len(l.net.params))
	for i, w := range l.net.weights() {
		init[i] = append([]float32(nil), w...)
	}
	l.m = G.NewTapeMachine(l.graph.g, G.BindDualValues(l.graph.params...))
	pixels := l.graph.obsU8 != nil
	envs := s.Pool.NumEnvs * c.NumActors
	l.queue = newUnrollQueue(c.QueueSize, c.QueueSize+B+envs, T, l.net.actDim, l.net.obsSize, pixels)
	l.batch, l.versions = make([]*Unroll, B), make([]int64, B)
	for i := range c.NumActors {
		a, err := newActor(l, i)
		if err != nil {
			l.closeActors()
			return nil, err
		}
		l.actors = append(l.actors, a)
	}
	for i, w := range l.net.weights() {
		copy(w, init[i])
	}
	switch c.Optimizer {
	case OptAdam:
		l.opt = optim.NewAdam(l.graph.params, optim.AdamConfig{LR: c.LearningRate, Eps: c.AdamEps, MaxGradNorm: c.MaxGradNorm})
	default:
		l.opt = optim.NewRMSProp(l.graph.params, optim.RMSPropConfig{LR: c.LearningRate, Rho: c.RMSPropDecay,
			Eps: c.RMSPropEps, Momentum: c.RMSPropMomentum, MaxGradNorm: c.MaxGradNorm})
	}
	l.snaps.publish(l.net.weights(), 0)
	return l, nil
}

// StatNames lists the statistics Iterate returns, in order. Losses and entropy are
// per step (the loss itself sums them over the batch); explained_variance is that of the
// V-trace targets by the values of the batch (before the update); policy_lag is the learner's
// version minus the version of the weights that acted, in updates; frames are env steps
// times the task's frame skip.
func StatNames() []string {
	return []string{"policy_loss", "baseline_loss", "entropy", "explained_variance", "grad_norm", "learning_rate",
		"policy_lag", "mean_rho", "rho_clip_frac", "actor_fps", "learner_fps", "learner_idle_frac", "queue_len"}
}

// EnvSteps is the number of env steps the actors have taken.
func (l *Learner) EnvSteps() int64 { return l.envSteps.Load() }

// Version is the number of learner updates so far.
func (l *Learner) Version() int64 { return l.version }

// Iterate is one learner step: wait for B unrolls, compute V-trace targets and the loss
// on the learner's current weights, apply one optimiser step, and publish the new
// weights to the actors. It returns the episodes that finished since the last call and
// the statistics (StatNames order).
func (l *Learner) Iterate() ([]agent.Episode, []agent.Stat, error) {
	if l.closed {
		return nil, nil, errors.New("impala: Iterate after Close")
	}
	if !l.started {
		l.rates.reset(time.Now(), l.envSteps.Load())
		l.wg.Add(len(l.actors))
		for _, a := range l.actors {
			go a.run()
		}
		l.started = true
	}
	if l.beforeStep != nil {
		l.beforeStep()
	}
	waitStart := time.Now()
	for k := range l.batch {
		select {
		case u := <-l.queue.ch:
			l.batch[k] = u
		case <-l.failed:
			return nil, nil, l.err
		}
	}
	idle := time.Since(waitStart)
	queueLen := len(l.queue.ch)

	lag := l.fill()
	for k, u := range l.batch {
		l.queue.put(u) // the actors may refill it from now on
		l.batch[k] = nil
	}
	T, B := l.cfg.UnrollLength, l.cfg.BatchSize
	// Linear decay over the steps the learner has consumed, as the reference does.
	consumed := float64(l.version) * float64(T*B)
	horizon := float64(l.setup.TotalSteps)
	lr := optim.Schedule{Base: l.cfg.LearningRate, Anneal: l.cfg.AnnealLR, Horizon: horizon}.At(consumed)
	l.opt.SetLR(lr)
	entHorizon := horizon
	if l.cfg.EntropySteps > 0 {
		entHorizon = float64(l.cfg.EntropySteps)
	}
	l.st.cfg.EntropyCost = optim.Schedule{Base: l.cfg.EntropyCost, Anneal: l.cfg.AnnealEntropy, Horizon: entHorizon}.At(consumed)
	if err := l.m.RunAll(); err != nil {
		l.m.Reset()
		return nil, nil, fmt.Errorf("impala: learner step: %w", err)
	}
	if l.pendingOpt != nil {
		if err := l.opt.LoadState(*l.pendingOpt); err != nil {
			l.m.Reset()
			return nil, nil, fmt.Errorf("impala: restore the optimiser: %w", err)
		}
		l.pendingOpt = nil
	}
	gradNorm, err := l.opt.Step()
	l.m.Reset()
	if err != nil {
		return nil, nil, err
	}
	l.version++
	l.snaps.publish(l.net.weights(), l.version)

	l.rates.add(time.Now(), l.envSteps.Load(), T*B, idle, float64(l.frameSkip))
	n := float64(T * B)
	st := l.st
	stats := []agent.Stat{
		{Name: "policy_loss", Value: st.pgLoss / n},
		{Name: "baseline_loss", Value: st.baselineLoss / n},
		{Name: "entropy", Value: st.entropy / n},
		{Name: "explained_variance", Value: agent.ExplainedVariance(st.vs, st.value)},
		{Name: "grad_norm", Value: gradNorm},
		{Name: "learning_rate", Value: lr},
		{Name: "policy_lag", Value: lag},
		{Name: "mean_rho", Value: st.rhoSum / n},
		{Name: "rho_clip_frac", Value: st.rhoClipped / n},
		{Name: "actor_fps", Value: l.rates.actorFPS},
		{Name: "learner_fps", Value: l.rates.learnerFPS},
		{Name: "learner_idle_frac", Value: l.rates.idleFrac},
		{Name: "queue_len", Value: float64(queueLen)},
	}
	l.epMu.Lock()
	l.out = append(l.out[:0], l.episodes...)
	l.episodes = l.episodes[:0]
	l.epMu.Unlock()
	return l.out, stats, nil
}

// fill writes the batch into the loss graph's inputs, time-major (row t*B+b is step t
// of unroll b; rows T*B.. are the bootstrap observations x_T), and returns the mean
// policy lag of the batch.
func (l *Learner) fill() float64 {
	T, B, A := l.cfg.UnrollLength, l.cfg.BatchSize, l.net.actDim
	k := l.net.obsSize
	st, g := l.st, l.graph
	lag := 0.0
	for b, u := range l.batch {
		l.versions[b] = u.Version
		lag += float64(l.version - u.Version)
		for t := 0; t <= T; t++ {
			row := t*B + b
			if g.obsU8 != nil {
				copy(g.obsU8[row*k:(row+1)*k], u.ObsU8[t*k:(t+1)*k])
			} else {
				copy(g.obsF32[row*k:(row+1)*k], u.ObsF32[t*k:(t+1)*k])
			}
		}
		for t := range T {
			i := t*B + b
			a := int(u.Action[t])
			st.action[i] = a
			r := float64(u.Reward[t])
			if c := l.cfg.RewardClip; c > 0 {
				r = math.Max(-c, math.Min(c, r))
			}
			st.reward[i] = r
			st.discount[i] = l.cfg.Gamma
			if u.Done[t] {
				st.discount[i] = 0
			}
			st.logMu[i] = logSoftmaxAt(u.Logits[t*A:(t+1)*A], a)
		}
	}
	return lag / float64(B)
}

// logSoftmaxAt returns log softmax(z)[a].
func logSoftmaxAt(z []float32, a int) float64 {
	m, s := model.SoftmaxShift(z)
	return float64(z[a]) - m - math.Log(s)
}

func (l *Learner) addEpisode(e agent.Episode) {
	l.epMu.Lock()
	l.episodes = append(l.episodes, e)
	l.epMu.Unlock()
}

// fail records the first actor error and wakes a waiting Iterate.
func (l *Learner) fail(err error) {
	l.errOnce.Do(func() {
		l.err = err
		close(l.failed)
	})
}

// Close stops the actors and their pools.
func (l *Learner) Close() error {
	if l.closed {
		return nil
	}
	l.closed = true
	return l.closeActors()
}

func (l *Learner) closeActors() error {
	close(l.stop)
	l.wg.Wait()
	var errs []error
	for _, a := range l.actors {
		if a.pool != nil {
			errs = append(errs, a.pool.Close())
		}
	}
	return errors.Join(errs...)
}

// rateWindow measures throughput over windows of about a second, so that the per-step
// statistics the run loop averages are not skewed by individual fast or slow steps.
type rateWindow struct {
	start    time.Time
	steps0   int64   // actor env steps at the start of the window
	consumed int     // env steps the learner consumed in the window
	idle     float64 // seconds the learner waited for unrolls in the window

	actorFPS   float64 // frames the actors produced per second
	learnerFPS float64 // frames the learner consumed per second
	idleFrac   float64 // fraction of the learner's wall time spent waiting for unrolls
	measured   bool
}

func (w *rateWindow) reset(now time.Time, steps int64) {
	w.start, w.steps0, w.consumed, w.idle = now, steps, 0, 0
}

// add records one learner step and refreshes the rates once the window is a second
// long (or at the first step).
func (w *rateWindow) add(now time.Time, steps int64, consumed int, idle time.Duration, frameSkip float64) {
	w.consumed += consumed
	w.idle += idle.Seconds()
	el := now.Sub(w.start).Seconds()
	if el <= 0 || el < 1 && w.measured {
		return
	}
	w.actorFPS = float64(steps-w.steps0) * frameSkip / el
	w.learnerFPS = float64(w.consumed) * frameSkip / el
	w.idleFrac = math.Min(1, w.idle/el)
	w.measured = true
	w.reset(now, steps)
}
