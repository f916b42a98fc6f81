package nn

import (
	"fmt"

	G "gorgonia.org/gorgonia"

	"github.com/rlpool/rlpool/agent/dnnl"
)

// oneDNNConv is a convolution's kernels on Intel's oneDNN (agent/dnnl), on float32
// tensors, computing in float32 or bf16 (kernelMode).
type oneDNNConv struct {
	c      *dnnl.Conv
	native bool // y and dy are in oneDNN's layout (convLink.nativeOut, when it fits)
	scale  float32
	y      []float32
	dw, db []float32
	dx     []float32
}

// convLink passes oneDNN's activation layout from one convolution to the next, so
// that the activation between them and its gradient cross without conversion (see
// agent/dnnl's package comment). Only NatureCNN sets it, on layers it chains itself.
type convLink struct {
	in        *dnnl.Layout // the previous layer's output layout, or nil for plain input
	nativeOut bool         // write y (and read dy) in oneDNN's layout
	// toDense: the next layer is a dense inference layer, which reads only a
	// channels-last layout (dnnl.DenseConfig.InLayout); any other falls back to plain.
	toDense bool
}

func newOneDNNConv(g convGeom, relu bool, scale float32, needDX bool, uint8In bool, link convLink, mode kernelMode) (*oneDNNConv, error) {
	if !uint8In && scale != 1 {
		return nil, fmt.Errorf("nn: the onednn backend scales uint8 input only (scale %g on float input)", scale)
	}
	dnnl.SetNumThreads(workers())
	cfg := dnnl.ConvConfig{Batch: g.B, Cin: g.Cin, H: g.H, W: g.W, Cout: g.Cout, K: g.K, Stride: g.S,
		ReLU: relu, NeedDX: needDX, InLayout: link.in, NativeOut: link.nativeOut,
		InferenceOnly: mode.inference, BF16: mode.precision == PrecisionBF16, Threads: mode.threads,
		// oneDNN has no fast kernel for a strided filter on a few input channels (the
		// first layer's 8x8/4 on 4 frames): rearranged by space-to-depth it has.
		SpaceToDepth: g.Cin < 8 && g.S > 1 && g.K%g.S == 0 && g.H%g.S == 0 && g.W%g.S == 0 && link.in == nil}
	c, err := dnnl.NewConv(cfg)
	if err != nil {
		return nil, fmt.Errorf("nn: onednn convolution: %w", err)
	}
	if cfg.NativeOut && (c.OutLen() > g.B*g.Cout*g.P || link.toDense && !c.OutLayout().ChannelsLast()) {
		// oneDNN pads the channels of its layout: the graph's tensor would not hold
		// it. Or a dense layer follows, which reads no other layout than NHWC.
		c.Close()
		cfg.NativeOut = false
		if c, err = dnnl.NewConv(cfg); err != nil {
			return nil, fmt.Errorf("nn: onednn convolution: %w", err)
		}
	}
	// The graph's tensor has the plain size; a bf16 layout fills the first half of it.
	k := &oneDNNConv{c: c, native: cfg.NativeOut, scale: scale, y: make([]float32, max(c.OutLen(), g.B*g.Cout*g.P))}
	if !mode.inference {
		k.dw, k.db = make([]float32, g.Cout*g.KK), make([]float32, g.Cout)
	}
	if needDX {
		k.dx = make([]float32, c.InLen())
	}
	return k, nil
}

func (k *oneDNNConv) output() []float32             { return k.y }
func (k *oneDNNConv) grads() (dw, db, dx []float32) { return k.dw, k.db, k.dx }
func (k *oneDNNConv) forward(x any, w, b []float32) error {
	return k.c.Forward(k.input(x), k.scale, w, b, k.y[:k.c.OutLen()])
}

func (k *oneDNNConv) backward(x any, w, y, dy []float32) error {
	return k.c.Backward(k.input(x), k.scale, w, y, dy, k.dw, k.db, k.dx)
}

// input is the part of x the layer reads: all of it, but for a float32 tensor the
// previous layer filled only the start of (a bf16 layout).
func (k *oneDNNConv) input(x any) any {
	if v, ok := x.([]float32); ok && len(v) > k.c.InLen() {
		return v[:k.c.InLen()]
	}
	return x
}

// nativeLayout returns the oneDNN layout of a convolution node's output when the layer
// writes it in that layout (convLink.nativeOut), or nil: what the next layer's
// convLink.in must be.
func nativeLayout(n *G.Node) *dnnl.Layout {
	op, ok := n.Op().(forwardOp)
	if !ok {
		return nil
	}
	k, ok := op.l.k32.(*oneDNNConv)
	if !ok || !k.native {
		return nil
	}
	return k.c.OutLayout()
}
