package nn

import (
	"fmt"

	"github.com/rlpool/rlpool/agent/dnnl"
)

// oneDNNDense is a dense layer's kernels on oneDNN (an inner product), on float32
// tensors, computing in float32 or bf16 (kernelMode).
type oneDNNDense struct {
	d         *dnnl.Dense
	batch, in int
	y, dw, db []float32
	dx        []float32
}

func newOneDNNDense(batch, in, out int, act Activation, needDX bool, mode kernelMode, inLayout *dnnl.Layout) (*oneDNNDense, error) {
	if act != Linear && act != ReLU {
		return nil, fmt.Errorf("nn: the onednn backend's dense layers apply relu or nothing, not %s", act)
	}
	dnnl.SetNumThreads(workers())
	// Inference layers take the weights in oneDNN's layout: converted once per update
	// (WeightsFixed), they feed its faster brgemm kernels.
	d, err := dnnl.NewDense(dnnl.DenseConfig{Batch: batch, In: in, Out: out, ReLU: act == ReLU, NeedDX: needDX,
		InferenceOnly: mode.inference, BF16: mode.precision == PrecisionBF16, WeightsAny: mode.inference, InLayout: inLayout,
		Threads: mode.threads})
	if err != nil {
		return nil, fmt.Errorf("nn: onednn dense layer: %w", err)
	}
	k := &oneDNNDense{d: d, batch: batch, in: in, y: make([]float32, batch*out)}
	if !mode.inference {
		k.dw, k.db = make([]float32, in*out), make([]float32, out)
	}
	if needDX {
		k.dx = make([]float32, batch*in)
	}
	return k, nil
}

func (k *oneDNNDense) output() []float32             { return k.y }
func (k *oneDNNDense) grads() (dw, db, dx []float32) { return k.dw, k.db, k.dx }

// input is the part of x the layer reads: all of it, but for an input in a bf16
// layout, which fills only the start of the graph's float32 tensor.
func (k *oneDNNDense) input(xv any) ([]float32, error) {
	x, ok := xv.([]float32)
	if !ok || len(x) != k.batch*k.in {
		return nil, fmt.Errorf("nn: onednn dense input is %T of %d values, want %d float32 values", xv, lenOf(xv), k.batch*k.in)
	}
	return x[:k.d.InLen()], nil
}

func (k *oneDNNDense) forward(xv any, w, b []float32) error {
	x, err := k.input(xv)
	if err != nil {
		return err
	}
	return k.d.Forward(x, w, b, k.y)
}

func (k *oneDNNDense) backward(xv any, w, y, dy []float32) error {
	x, err := k.input(xv)
	if err != nil {
		return err
	}
	return k.d.Backward(x, w, y, dy, k.dw, k.db, k.dx)
}
