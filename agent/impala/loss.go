package impala

import (
	"fmt"
	"hash"
	"math"
	"sync/atomic"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/customop"
	"github.com/rlpool/rlpool/agent/model"
)

// The IMPALA loss is one custom Gorgonia op. Its forward pass takes the network's
// logits and values for the T+1 observations of B unrolls, computes the V-trace targets
// v_s and advantages A_s from those very values (so one forward pass serves both the
// targets and the gradient, as in the reference implementation), and returns
//
//	loss = -sum_s log pi(a_s|x_s) A_s                     (policy gradient)
//	       + baseline_cost * 0.5 * sum_s (v_s - V(x_s))^2  (baseline)
//	       - entropy_cost * sum_s H(pi(.|x_s))             (entropy bonus)
//
// summed over time and batch as the reference code does. v_s and A_s are constants for
// the gradient; the backward op writes d loss/d logits and d loss/d values analytically.
// docs/design/custom-ops.md explains the op conventions (owned buffers, pick nodes).

var lossIDs atomic.Uint64

// LossConfig holds the loss coefficients and the V-trace truncation levels.
type LossConfig struct {
	VTrace       VTraceParams
	BaselineCost float64
	EntropyCost  float64
}

// lossState is shared by the loss op and its backward ops: the batch the learner fills
// before each run, and what the forward pass leaves for the backward pass.
type lossState struct {
	id      uint64
	T, B, A int
	dt      tensor.Dtype
	cfg     LossConfig

	// The batch, time-major (element t*B+b), T*B values each; the learner fills them.
	action   []int     // a_t
	reward   []float64 // r_t (clipped when reward clipping is on)
	discount []float64 // gamma_t = gamma (1 - done_t)
	logMu    []float64 // log mu(a_t|x_t) under the behaviour policy

	// Forward results.
	logp   []float64 // T*B*A log-softmax of the logits
	ent    []float64 // H(pi(.|x_t))
	logRho []float64
	value  []float64 // V(x_t), T*B
	boot   []float64 // V(x_T), B
	vs     []float64
	pgAdv  []float64

	// Statistics of the last forward pass, summed over the batch.
	pgLoss, baselineLoss, entropy, total float64
	rhoSum, rhoClipped                   float64

	// frozen keeps v_s and A_s from the previous forward pass (finite-difference tests:
	// the gradient treats them as constants, so the numerical derivative must too).
	frozen bool

	dLogits, dValues   any // []float32 or []float64
	dLogitsT, dValuesT *tensor.Dense
	// float64 scratch: the inputs as read and the gradients before conversion.
	logits64, values64, dl64, dv64 []float64
}

func newLossState(T, B, A int, dt tensor.Dtype, cfg LossConfig) *lossState {
	n := T * B
	return &lossState{id: lossIDs.Add(1), T: T, B: B, A: A, dt: dt, cfg: cfg,
		action: make([]int, n), reward: make([]float64, n), discount: make([]float64, n), logMu: make([]float64, n),
		logp: make([]float64, n*A), ent: make([]float64, n), logRho: make([]float64, n),
		value: make([]float64, n), boot: make([]float64, B), vs: make([]float64, n), pgAdv: make([]float64, n)}
}

// rows is the number of observations the network sees: T+1 per unroll.
func (st *lossState) rows() int { return (st.T + 1) * st.B }

// forward computes log pi, the V-trace targets and the loss from logits (rows x A) and
// values (rows).
func (st *lossState) forward(logits, values []float64) error {
	n, A := st.T*st.B, st.A
	copy(st.value, values[:n])
	copy(st.boot, values[n:])
	st.pgLoss, st.baselineLoss, st.entropy, st.rhoSum, st.rhoClipped = 0, 0, 0, 0, 0
	for i := range n {
		z, lp := logits[i*A:(i+1)*A], st.logp[i*A:(i+1)*A]
		m := math.Inf(-1)
		for _, v := range z {
			m = math.Max(m, v)
		}
		sum := 0.0
		for _, v := range z {
			sum += math.Exp(v - m)
		}
		lse := m + math.Log(sum)
		h := 0.0
		for j, v := range z {
			lp[j] = v - lse
			h -= math.Exp(lp[j]) * lp[j]
		}
		st.ent[i] = h
		st.logRho[i] = lp[st.action[i]] - st.logMu[i]
		rho := math.Exp(st.logRho[i])
		st.rhoSum += rho
		if rho > st.cfg.VTrace.RhoBar {
			st.rhoClipped++
		}
	}
	if !st.frozen {
		in := VTraceBatch{T: st.T, B: st.B, LogRho: st.logRho, Discount: st.discount, Reward: st.reward,
			Value: st.value, Bootstrap: st.boot}
		if err := VTrace(st.cfg.VTrace, in, st.vs, st.pgAdv); err != nil {
			return err
		}
	}
	for i := range n {
		logPi := st.logp[i*A+st.action[i]]
		st.pgLoss -= logPi * st.pgAdv[i]
		d := st.vs[i] - st.value[i]
		st.baselineLoss += 0.5 * d * d
		st.entropy += st.ent[i]
	}
	st.total = st.pgLoss + st.cfg.BaselineCost*st.baselineLoss - st.cfg.EntropyCost*st.entropy
	return nil
}

// backward writes g * d loss/d logits and g * d loss/d values (zero for the bootstrap
// rows, whose values only enter the constant targets):
//
//	d/dz_j [-log pi(a) A]       = -A (1[j = a] - p_j)
//	d/dz_j [-entropy_cost H]    = entropy_cost p_j (log p_j + H)
//	d/dV   [0.5 c (v_s - V)^2]  = -c (v_s - V)
func (st *lossState) backward(g float64, dLogits, dValues []float64) {
	n, A := st.T*st.B, st.A
	clear(dLogits)
	clear(dValues)
	for i := range n {
		lp, dz := st.logp[i*A:(i+1)*A], dLogits[i*A:(i+1)*A]
		for j := range A {
			p := math.Exp(lp[j])
			onehot := 0.0
			if j == st.action[i] {
				onehot = 1
			}
			dz[j] = g * (-st.pgAdv[i]*(onehot-p) + st.cfg.EntropyCost*p*(lp[j]+st.ent[i]))
		}
		dValues[i] = g * -st.cfg.BaselineCost * (st.vs[i] - st.value[i])
	}
}

// Gorgonia plumbing: float32/float64 conversion and the three ops.

func toF64(v G.Value, n int, what string, buf *[]float64) ([]float64, error) {
	t, ok := v.(tensor.Tensor)
	if !ok {
		return nil, fmt.Errorf("impala: loss %s is %T, not a tensor", what, v)
	}
	if len(*buf) != n {
		*buf = make([]float64, n)
	}
	switch d := t.Data().(type) {
	case []float32:
		if len(d) != n {
			return nil, fmt.Errorf("impala: loss %s has %d values, want %d", what, len(d), n)
		}
		for i, x := range d {
			(*buf)[i] = float64(x)
		}
	case []float64:
		if len(d) != n {
			return nil, fmt.Errorf("impala: loss %s has %d values, want %d", what, len(d), n)
		}
		copy(*buf, d)
	default:
		return nil, fmt.Errorf("impala: loss %s holds %T; want float32 or float64", what, d)
	}
	return *buf, nil
}

// vtraceLoss applies the loss op to logits ((T+1)B x A) and values ((T+1)B).
func vtraceLoss(logits, values *G.Node, st *lossState) (*G.Node, error) {
	if s := logits.Shape(); s.Dims() != 2 || s[0] != st.rows() || s[1] != st.A {
		return nil, fmt.Errorf("impala: loss wants logits (%d, %d), got %v", st.rows(), st.A, s)
	}
	if s := values.Shape(); s.Dims() != 1 || s[0] != st.rows() {
		return nil, fmt.Errorf("impala: loss wants values (%d), got %v", st.rows(), s)
	}
	return G.ApplyOp(lossOp{st: st}, logits, values)
}

// lossOp is the V-trace loss: (logits, values) -> scalar.
type lossOp struct {
	customop.Owned
	st *lossState
}

// Arity implements gorgonia.Op.
func (op lossOp) Arity() int { return 2 }

// Type implements gorgonia.Op; a fresh type per call, as Gorgonia pools types.
func (op lossOp) Type() hm.Type {
	return hm.NewFnType(customop.TensorType(2, op.st.dt), customop.TensorType(1, op.st.dt), op.st.dt)
}

// InferShape implements gorgonia.Op: a scalar.
func (op lossOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return tensor.ScalarShape(), nil }

// Do implements gorgonia.Op: V-trace and the loss.
func (op lossOp) Do(in ...G.Value) (G.Value, error) {
	st := op.st
	logits, err := toF64(in[0], st.rows()*st.A, "logits", &st.logits64)
	if err != nil {
		return nil, err
	}
	values, err := toF64(in[1], st.rows(), "values", &st.values64)
	if err != nil {
		return nil, err
	}
	if err := st.forward(logits, values); err != nil {
		return nil, err
	}
	if st.dt == tensor.Float32 {
		return G.NewF32(float32(st.total)), nil
	}
	return G.NewF64(st.total), nil
}

// WriteHash implements gorgonia.Op; the id keeps two losses from merging.
func (op lossOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "rlpool.impala.vtraceloss#%d", op.st.id) }

// Hashcode implements gorgonia.Op.
func (op lossOp) Hashcode() uint32 { return customop.Hash(op) }

// String implements fmt.Stringer.
func (op lossOp) String() string { return fmt.Sprintf("VTraceLoss#%d", op.st.id) }

// DiffWRT implements gorgonia.SDOp: both inputs get gradients.
func (op lossOp) DiffWRT(n int) []bool { return []bool{true, true} }

// SymDiff implements gorgonia.SDOp: one backward node returns d/dlogits, a pick node
// d/dvalues. The backward node takes the loss output as input so that it runs after
// the forward pass whose targets it uses.
func (op lossOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	back, err := G.ApplyOp(lossBackOp{st: op.st}, inputs[0], inputs[1], output, grad)
	if err != nil {
		return nil, err
	}
	dv, err := customop.Pick(back, op.st, 1, "vtraceloss.dvalues")
	if err != nil {
		return nil, err
	}
	return G.Nodes{back, dv}, nil
}

// lossBackOp computes both gradients and returns d loss/d logits.
type lossBackOp struct {
	customop.Grad
	st *lossState
}

// Arity implements gorgonia.Op: logits, values, loss, d cost/d loss.
func (op lossBackOp) Arity() int { return 4 }

// Type implements gorgonia.Op.
func (op lossBackOp) Type() hm.Type {
	dt := op.st.dt
	return hm.NewFnType(customop.TensorType(2, dt), customop.TensorType(1, dt), dt, dt, customop.TensorType(2, dt))
}

// InferShape implements gorgonia.Op.
func (op lossBackOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.st.rows(), op.st.A}, nil
}

// Do implements gorgonia.Op: it fills the state's gradient buffers.
func (op lossBackOp) Do(in ...G.Value) (G.Value, error) {
	st := op.st
	nl, nv := st.rows()*st.A, st.rows()
	g := model.ScalarValue(in[3])
	var dl, dv []float64
	if st.dt == tensor.Float64 {
		if st.dLogits == nil {
			st.dLogits, st.dValues = make([]float64, nl), make([]float64, nv)
		}
		dl, dv = st.dLogits.([]float64), st.dValues.([]float64)
		st.backward(g, dl, dv)
	} else {
		if st.dLogits == nil {
			st.dLogits, st.dValues = make([]float32, nl), make([]float32, nv)
		}
		if st.dl64 == nil {
			st.dl64, st.dv64 = make([]float64, nl), make([]float64, nv)
		}
		dl, dv = st.dl64, st.dv64
		st.backward(g, dl, dv)
		for i, x := range dl {
			st.dLogits.([]float32)[i] = float32(x)
		}
		for i, x := range dv {
			st.dValues.([]float32)[i] = float32(x)
		}
	}
	return customop.Wrap(&st.dLogitsT, st.dLogits, tensor.Shape{st.rows(), st.A})
}

// WriteHash implements gorgonia.Op.
func (op lossBackOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "rlpool.impala.vtraceloss.back#%d", op.st.id)
}

// Hashcode implements gorgonia.Op.
func (op lossBackOp) Hashcode() uint32 { return customop.Hash(op) }

// String implements fmt.Stringer.
func (op lossBackOp) String() string { return fmt.Sprintf("VTraceLossBackward#%d", op.st.id) }

// ResultShape implements customop.Results: d loss/d values, one per row.
func (st *lossState) ResultShape(int) tensor.Shape { return tensor.Shape{st.rows()} }

// Result implements customop.Results: d loss/d values as the backward op left them.
func (st *lossState) Result(int) (*tensor.Dense, error) {
	return customop.Wrap(&st.dValuesT, st.dValues, tensor.Shape{st.rows()})
}
