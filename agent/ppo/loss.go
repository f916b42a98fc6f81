package ppo

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/model"
)

// lossGraph is the PPO objective on one minibatch of m rows, built once; each update
// overwrites the input tensors and reruns it.
type lossGraph struct {
	g     *G.ExprGraph
	pn    *model.PolicyNodes
	m     int
	obs   *tensor.Dense // m x ObsDim, normalised as the policy saw them (uint8 pixels for a CNN)
	act   *tensor.Dense // m x ActDim: one-hot (categorical) or the sampled action (Gaussian)
	oldLP *tensor.Dense // m: log pi_old(a|s)
	adv   *tensor.Dense // m: advantages, normalised by the caller when norm_adv is on
	ret   *tensor.Dense // m: GAE returns (value targets)
	oldV  *tensor.Dense // m: values at acting time
	// Clip bounds as inputs (1-eps, 1+eps, -eps, +eps per row), so that an annealed
	// clip_coef needs no new graph; setClip refills them.
	ratioLo, ratioHi, vLo, vHi *tensor.Dense
	// invTemp is m x ActDim, every entry 1/T (ppo.temperature): a categorical policy's
	// logits are divided by its sampling temperature before the softmax. Nil for a
	// Gaussian head.
	invTemp *tensor.Dense
	loss    *G.Node // pg - ent_coef * entropy + vf_coef * v
	pg      *G.Node // clipped surrogate (item 8)
	vl      *G.Node // value loss (item 9)
	ent     *G.Node // mean entropy (item 10)
	logp    *G.Node // m: log pi(a|s) under the current weights
	grads   G.Nodes // d loss / d param, in Policy.Params order
	// Copies of the values read after a run (G.Read): intermediate nodes' own values
	// may be overwritten later in the run when the compiler reuses their registers.
	logpOut, pgOut, vlOut, entOut, lossOut G.Value
	params                                 []model.Param
}

// buildLoss builds the PPO loss graph:
//
//	ratio = exp(log pi(a|s) - log pi_old(a|s))
//	pg    = mean(max(-A ratio, -A clip(ratio, 1-eps, 1+eps)))
//	v     = 0.5 mean((V - R)^2), or with clip_vloss
//	        0.5 mean(max((V - R)^2, (V_old + clip(V - V_old, -eps, eps) - R)^2))
//	loss  = pg - ent_coef H + vf_coef v
//
// Element-wise max and clip use MaxBetween/MinBetween, whose gradients go to the
// selected argument, which is what the clipped objective's gradient is.
func buildLoss(p *model.Policy, cfg Config, m int, dt tensor.Dtype) (*lossGraph, error) {
	g := G.NewGraph()
	l := &lossGraph{g: g, m: m, params: p.Params()}
	var obs, act, oldLP, adv, ret, oldV *G.Node
	obs, l.obs = p.ObsInput(g, dt, "obs", m)
	act, l.act = model.Input(g, dt, "act", m, p.ActDim)
	oldLP, l.oldLP = model.Input(g, dt, "old_logp", m)
	adv, l.adv = model.Input(g, dt, "adv", m)
	ret, l.ret = model.Input(g, dt, "ret", m)
	oldV, l.oldV = model.Input(g, dt, "old_value", m)
	var ratioLo, ratioHi, vLo, vHi *G.Node
	ratioLo, l.ratioLo = model.Input(g, dt, "ratio_lo", m)
	ratioHi, l.ratioHi = model.Input(g, dt, "ratio_hi", m)
	vLo, l.vLo = model.Input(g, dt, "v_lo", m)
	vHi, l.vHi = model.Input(g, dt, "v_hi", m)
	l.setClip(cfg.ClipCoef)
	var err error
	must := func(n *G.Node, e error) *G.Node {
		if e != nil && err == nil {
			err = e
		}
		return n
	}
	if l.pn, err = p.Build(g, obs); err != nil {
		return nil, err
	}
	// The loss sees the policy that sampled the actions: softmax(logits / T).
	tempered := l.pn
	if p.Head == model.HeadCategorical {
		var invTemp *G.Node
		invTemp, l.invTemp = model.Input(g, dt, "inv_temp", m, p.ActDim)
		l.setTemperature(1)
		scaled := *l.pn
		scaled.Out = must(G.HadamardProd(l.pn.Out, invTemp))
		tempered = &scaled
	}
	if err != nil {
		return nil, fmt.Errorf("ppo: build loss graph: %w", err)
	}
	logp, ent, err := p.LogProbEntropy(g, tempered, act)
	if err != nil {
		return nil, err
	}
	l.logp, l.ent = logp, ent

	// Clipped surrogate objective.
	ratio := must(G.Exp(must(G.Sub(logp, oldLP))))
	clipped := must(G.MinBetween(must(G.MaxBetween(ratio, ratioLo)), ratioHi))
	negAdv := must(G.Neg(adv))
	pg1 := must(G.HadamardProd(negAdv, ratio))
	pg2 := must(G.HadamardProd(negAdv, clipped))
	l.pg = must(G.Mean(must(G.MaxBetween(pg1, pg2))))

	// Value loss.
	v := l.pn.Value
	sq := must(G.Square(must(G.Sub(v, ret))))
	if cfg.ClipVLoss {
		dv := must(G.Sub(v, oldV))
		dvc := must(G.MinBetween(must(G.MaxBetween(dv, vLo)), vHi))
		vc := must(G.Add(oldV, dvc))
		sqc := must(G.Square(must(G.Sub(vc, ret))))
		sq = must(G.MaxBetween(sq, sqc))
	}
	l.vl = must(G.HadamardProd(must(G.Mean(sq)), model.Scalar(g, dt, 0.5)))

	// Total loss.
	entTerm := must(G.HadamardProd(ent, model.Scalar(g, dt, cfg.EntCoef)))
	vTerm := must(G.HadamardProd(l.vl, model.Scalar(g, dt, cfg.VFCoef)))
	l.loss = must(G.Add(must(G.Sub(l.pg, entTerm)), vTerm))
	if err != nil {
		return nil, fmt.Errorf("ppo: build loss graph: %w", err)
	}
	G.Read(l.logp, &l.logpOut)
	G.Read(l.pg, &l.pgOut)
	G.Read(l.vl, &l.vlOut)
	G.Read(l.ent, &l.entOut)
	G.Read(l.loss, &l.lossOut)
	if l.grads, err = G.Grad(l.loss, l.pn.Params...); err != nil {
		return nil, fmt.Errorf("ppo: differentiate loss: %w", err)
	}
	return l, nil
}

// setTemperature sets the sampling temperature T the loss divides logits by; 0 (a
// rollout that never recorded one) is 1.
func (l *lossGraph) setTemperature(temp float64) {
	if l.invTemp == nil {
		return
	}
	if temp <= 0 {
		temp = 1
	}
	vals := make([]float64, l.invTemp.Shape().TotalSize())
	for i := range vals {
		vals[i] = 1 / temp
	}
	model.SetFloat64s(l.invTemp, vals)
}

// setClip sets the clip coefficient eps of the surrogate and value clipping.
func (l *lossGraph) setClip(eps float64) {
	fill := func(t *tensor.Dense, v float64) {
		vals := make([]float64, l.m)
		for i := range vals {
			vals[i] = v
		}
		model.SetFloat64s(t, vals)
	}
	fill(l.ratioLo, 1-eps)
	fill(l.ratioHi, 1+eps)
	fill(l.vLo, -eps)
	fill(l.vHi, eps)
}
