package impala

import (
	"fmt"
	"math/rand/v2"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
)

// actor drives one pool in async mode with its own copy of the behaviour policy mu:
// each batch the pool returns completes a step of some envs' unrolls, and the actor
// picks those envs' next actions and sends them at once. Full unrolls go to the
// learner's queue. Before each forward pass the actor takes the latest weight snapshot
// if it is newer than the weights it has.
type actor struct {
	l       *Learner
	id      int
	pool    *envpool.Pool
	net     *acNet         // the actor's own weights
	acting  *model.Forward // the policy's acting pass on a batch, on net's weights
	rng     *rand.Rand
	version int64 // learner version of net's weights

	cur   []*Unroll // each env's unroll being filled
	t     []int     // steps of cur[e] whose results are in
	epRet []float64 // raw return of each env's running episode
	epLen []int
	succ  agent.SuccessTracker
	acts  []float32
	ids   []int32

	rawReward, gameOver int // info columns ("reward", "terminated"), -1 when absent
}

func newActor(l *Learner, id int) (*actor, error) {
	s := l.setup
	po, err := s.Pool.Resolve(&s.Spec)
	if err != nil {
		return nil, err
	}
	n, batch := po.NumEnvs, po.BatchSize
	a := &actor{l: l, id: id, rng: agent.NewRand(s.Seed, agent.StreamActor+uint64(id)),
		cur: make([]*Unroll, n), t: make([]int, n), epRet: make([]float64, n), epLen: make([]int, n),
		rawReward: s.Spec.InfoIndex("reward"), gameOver: s.Spec.InfoIndex("terminated"),
		succ: agent.NewSuccessTracker(&s.Spec, n)}
	if a.net, err = l.net.clone(); err != nil {
		return nil, err
	}
	a.acts, a.ids = make([]float32, batch), make([]int32, batch)
	// The weights are copied in from the first snapshot before the first forward pass.
	if a.acting, err = model.NewForward(a.net.policy, batch); err != nil {
		return nil, err
	}
	a.version = -1
	// SameStep auto-reset: every row is a real transition; see the package doc.
	if a.pool, err = agent.NewPool(s.Spec, s.Factory, s.Pool, s.Seed, id); err != nil {
		return nil, err
	}
	return a, nil
}

// run is the actor's goroutine. It returns when the learner stops it or on an error,
// which it reports to the learner.
func (a *actor) run() {
	defer a.l.wg.Done()
	if err := a.loop(); err != nil {
		a.l.fail(fmt.Errorf("impala: actor: %w", err))
	}
	// Return the unrolls in progress to the free list.
	for _, u := range a.cur {
		if u != nil {
			a.l.queue.put(u)
		}
	}
}

func (a *actor) loop() error {
	q := a.l.queue
	T, A := q.T, q.A
	if err := a.pool.AsyncReset(); err != nil {
		return err
	}
	for {
		select {
		case <-a.l.stop:
			return nil
		default:
		}
		b, err := a.pool.Recv()
		if err != nil {
			return err
		}
		a.refresh()
		n := b.Size
		for i := range n {
			e := int(b.EnvID[i])
			a.acting.SetObs(i, b, i)
			u := a.cur[e]
			if u == nil { // the env's first observation
				u = q.get()
				u.EnvID = e
				a.cur[e], a.t[e] = u, 0
			} else { // the result of the action sent at step t
				t := a.t[e]
				u.Reward[t], u.Done[t] = b.Reward[i], b.Done(i)
				a.record(b, i, e)
				if t++; t == T {
					a.storeObs(u, T, b, i) // x_T: the bootstrap observation
					if !q.push(u, a.l.stop) {
						return nil
					}
					u = q.get()
					u.EnvID = e
					a.cur[e], t = u, 0
				}
				a.t[e] = t
			}
			a.storeObs(u, a.t[e], b, i)
		}
		// mu: sample each env's next action from the actor's copy of the policy.
		logits, _, err := a.acting.Run()
		if err != nil {
			return err
		}
		for i := range n {
			e := int(b.EnvID[i])
			u, t := a.cur[e], a.t[e]
			row := logits[i*A : (i+1)*A]
			act, _ := model.SampleCategorical(row, a.rng)
			u.Action[t] = int32(act)
			copy(u.Logits[t*A:(t+1)*A], row)
			if t == 0 {
				u.Version = a.version
			}
			a.acts[i], a.ids[i] = float32(act), int32(e)
		}
		if err := a.pool.Send(a.acts[:n], a.ids[:n]); err != nil {
			return err
		}
	}
}

// refresh copies the latest weight snapshot into the actor's network when it is newer.
func (a *actor) refresh() {
	if a.l.snaps.latestVersion() == a.version {
		return
	}
	sn := a.l.snaps.acquire()
	for i, w := range a.net.weights() {
		copy(w, sn.weights[i])
	}
	a.version = sn.version
	sn.release()
	a.acting.WeightsFixed() // converted once per new snapshot, not per batch
}

// storeObs copies row i of b into observation slot t of u.
func (a *actor) storeObs(u *Unroll, t int, b *envpool.Batch, i int) {
	k := b.ObsSize
	if u.ObsU8 != nil {
		copy(u.ObsU8[t*k:(t+1)*k], b.RowU8(i))
	} else {
		copy(u.ObsF32[t*k:(t+1)*k], b.RowF32(i))
	}
}

// record counts the env step and the episode statistics (raw rewards; with episodic
// life, an episode is a whole game).
func (a *actor) record(b *envpool.Batch, i, e int) {
	steps := a.l.envSteps.Add(1)
	r := float64(b.Reward[i])
	if a.rawReward >= 0 {
		r = float64(b.InfoRow(i)[a.rawReward])
	}
	a.epRet[e] += r
	a.epLen[e]++
	a.succ.Step(e, b.InfoRow(i))
	if !b.Done(i) {
		return
	}
	if a.gameOver >= 0 && !b.Truncated[i] && b.InfoRow(i)[a.gameOver] == 0 {
		return // a life lost, not the game
	}
	a.l.addEpisode(agent.Episode{EnvStep: steps, EnvID: a.pool.NumEnvs()*a.id + e, Return: a.epRet[e], Length: a.epLen[e],
		Success: a.succ.Take(e)})
	a.epRet[e], a.epLen[e] = 0, 0
}
