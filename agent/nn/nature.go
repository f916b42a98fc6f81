package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// NatureOpts configures NatureCNN.
type NatureOpts struct {
	// Fast builds the network from this package's fused ops (what learners use); false
	// builds the same network from stock Gorgonia ops (Conv2d, BroadcastAdd, Rectify,
	// Reshape, Mul), for comparison and as a reference in tests.
	Fast bool
	// Dtype of the weights: tensor.Float32 (the zero value means Float32) or Float64.
	Dtype tensor.Dtype
	// Scale multiplies the input; 0 means 1/255 (raw pixels 0..255). Set 1 for input
	// already in [0, 1].
	Scale float64
	// Gain of the orthogonal initialisation; 0 means sqrt(2).
	Gain float64
	// Seed of the initialisation.
	Seed uint64
	// Prefix is prepended to the parameter names.
	Prefix string
	// Backend chooses the fused ops' kernels ("" means BackendGo).
	Backend Backend
	// Values, when not nil, are the parameter tensors to use instead of new ones (two
	// per layer, in the order NatureCNN returns the nodes): a second graph, such as an
	// actor's inference graph, can share or copy a learner's weights.
	Values []tensor.Tensor
	// Arch is the torso's layers; nil means NatureArch.
	Arch *CNNArch
	// Inference builds the fused layers for a graph that is never differentiated
	// (ConvOpts.Inference).
	Inference bool
	// Precision is the fused layers' arithmetic on the onednn backend ("" means
	// PrecisionFP32).
	Precision Precision
	// Threads is the fused layers' OpenMP team size on the onednn backend
	// (ConvOpts.Threads).
	Threads int
}

// ConvLayer is one convolution of a CNNArch: Out channels, a Kernel x Kernel window,
// Stride, no padding, ReLU.
type ConvLayer struct {
	Out, Kernel, Stride int
}

// CNNArch is a torso of the DQN family: convolutions, each with ReLU, then one dense
// layer of Features units with ReLU.
type CNNArch struct {
	Convs    []ConvLayer
	Features int
}

// NatureArch is the DQN Nature torso (Mnih et al. 2015), as CleanRL's Atari PPO uses
// it: conv 32 8x8/4, conv 64 4x4/2, conv 64 3x3/1, dense 512.
var NatureArch = CNNArch{Convs: []ConvLayer{{32, 8, 4}, {64, 4, 2}, {64, 3, 1}}, Features: 512}

// SmallArch is the torso of the first DQN paper (Mnih et al. 2013), which A3C also
// used: conv 16 8x8/4, conv 32 4x4/2, dense 256. On 84x84 frames it needs about a
// third of NatureArch's arithmetic, which is what a CPU-bound learner is short of.
var SmallArch = CNNArch{Convs: []ConvLayer{{16, 8, 4}, {32, 4, 2}}, Features: 256}

// NumParams is the number of parameter tensors of the torso: a weight and a bias per
// layer.
func (a *CNNArch) NumParams() int { return 2 * (len(a.Convs) + 1) }

// ForwardFLOPs is 2 x the multiply-adds of one forward pass over a batch of c x h x w
// inputs (convolutions and the dense layer), for GFLOP/s reports.
func (a *CNNArch) ForwardFLOPs(batch, c, h, w int) float64 {
	var f float64
	for _, l := range a.Convs {
		oh, ow := (h-l.Kernel)/l.Stride+1, (w-l.Kernel)/l.Stride+1
		f += 2 * float64(batch*oh*ow*l.Out*c*l.Kernel*l.Kernel)
		c, h, w = l.Out, oh, ow
	}
	return f + 2*float64(batch*c*h*w*a.Features)
}

// NatureCNN builds the DQN Nature convolutional torso (Mnih et al. 2015), as CleanRL's
// Atari PPO uses it: conv 32 8x8/4, conv 64 4x4/2, conv 64 3x3/1, each with ReLU, then
// dense 512 with ReLU; or, with opts.Arch, another torso of that family. input is (B, C, H, W) (4x84x84 for stacked Atari frames) holding
// raw pixel values 0..255, scaled by opts.Scale inside the first layer. With Fast the
// input may be uint8 (no conversion pass, 4x less memory) or the weights' float type;
// the stock network needs the float type.
//
// Weights are orthogonal with gain sqrt(2) and biases zero. params are
// [w1 b1 w2 b2 w3 b3 w4 b4] for NatureArch, convolution kernels (Cout, Cin, K, K),
// dense (3136, 512); named conv1_w, conv1_b, ..., dense_w, dense_b.
// It panics on an input it cannot take (wrong rank, too small, wrong type): that is a
// programming error.
func NatureCNN(g *G.ExprGraph, input *G.Node, opts NatureOpts) (features *G.Node, params []*G.Node) {
	features, params, err := natureCNN(g, input, opts)
	if err != nil {
		panic(err)
	}
	return features, params
}

func natureCNN(g *G.ExprGraph, x *G.Node, o NatureOpts) (*G.Node, []*G.Node, error) {
	dt := o.Dtype
	if dt == (tensor.Dtype{}) {
		dt = tensor.Float32
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, nil, fmt.Errorf("nn: NatureCNN weights must be float32 or float64, not %v", dt)
	}
	xs := x.Shape()
	if xs.Dims() != 4 {
		return nil, nil, fmt.Errorf("nn: NatureCNN input must be (B, C, H, W), got %v", xs)
	}
	if x.Dtype() != dt && !(o.Fast && x.Dtype() == tensor.Uint8) {
		return nil, nil, fmt.Errorf("nn: NatureCNN input is %v; want %v (or uint8 with Fast)", x.Dtype(), dt)
	}
	arch := o.Arch
	if arch == nil {
		arch = &NatureArch
	}
	if len(arch.Convs) == 0 || arch.Features < 1 {
		return nil, nil, fmt.Errorf("nn: a CNN torso needs at least one convolution and a dense layer, got %+v", *arch)
	}
	if o.Values != nil && len(o.Values) != arch.NumParams() {
		return nil, nil, fmt.Errorf("nn: NatureCNN takes %d parameter values, got %d", arch.NumParams(), len(o.Values))
	}
	scale := o.Scale
	if scale == 0 {
		scale = 1.0 / 255
	}
	gain := o.Gain
	if gain == 0 {
		gain = math.Sqrt2
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	param := func(i int, name string, shape ...int) *G.Node {
		opt := []G.NodeConsOpt{G.WithShape(shape...), G.WithName(o.Prefix + name)}
		switch {
		case o.Values != nil:
			opt = append(opt, G.WithValue(o.Values[i]))
		case len(shape) == 1:
			opt = append(opt, G.WithInit(G.Zeroes()))
		default:
			opt = append(opt, G.WithInit(OrthogonalInit(gain, rng)))
		}
		return G.NewTensor(g, dt, len(shape), opt...)
	}

	b, c, h, w := xs[0], xs[1], xs[2], xs[3]
	var params []*G.Node
	cur := x
	if !o.Fast {
		// Stock: scale first (the fused op folds it into the GEMMs).
		sc := G.NewConstant(castScalar(scale, dt))
		var err error
		if cur, err = G.Mul(cur, sc); err != nil {
			return nil, nil, err
		}
	}
	for i, l := range arch.Convs {
		if h < l.Kernel || w < l.Kernel {
			return nil, nil, fmt.Errorf("nn: NatureCNN input %v is too small for layer %d", xs, i+1)
		}
		wn := param(2*i, fmt.Sprintf("conv%d_w", i+1), l.Out, c, l.Kernel, l.Kernel)
		bn := param(2*i+1, fmt.Sprintf("conv%d_b", i+1), l.Out)
		params = append(params, wn, bn)
		var err error
		if o.Fast {
			last := i == len(arch.Convs)-1
			opts := ConvOpts{Stride: l.Stride, ReLU: true, Flatten: last, Backend: o.Backend,
				Inference: o.Inference, Precision: o.Precision, Threads: o.Threads}
			if i == 0 {
				opts.Scale, opts.NoInputGrad = scale, true
			}
			if o.Backend == BackendOneDNN {
				// The convolutions hand each other activations in oneDNN's layout; the
				// last one writes the plain layout the dense layer's training
				// primitives read, or in an inference graph its own layout, which the
				// dense layer reads as it is.
				opts.link = convLink{nativeOut: !last || o.Inference, toDense: last}
				if i > 0 {
					opts.link.in = nativeLayout(cur)
				}
			}
			cur, err = Conv(cur, wn, bn, opts)
		} else {
			cur, err = stockConv(cur, wn, bn, l)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("nn: NatureCNN layer %d: %w", i+1, err)
		}
		c, h, w = l.Out, (h-l.Kernel)/l.Stride+1, (w-l.Kernel)/l.Stride+1
	}
	flat := c * h * w
	nd := 2 * len(arch.Convs)
	wn := param(nd, "dense_w", flat, arch.Features)
	bn := param(nd+1, "dense_b", arch.Features)
	params = append(params, wn, bn)
	var err error
	if o.Fast {
		dopts := DenseOpts{Act: ReLU, Backend: o.Backend, Inference: o.Inference, Precision: o.Precision, Threads: o.Threads}
		if o.Backend == BackendOneDNN {
			dopts.in = nativeLayout(cur)
		}
		cur, err = Dense(cur, wn, bn, dopts)
	} else {
		cur, err = stockDense(cur, wn, bn, b, flat)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("nn: NatureCNN dense layer: %w", err)
	}
	return cur, params, nil
}

func castScalar(v float64, dt tensor.Dtype) interface{} {
	if dt == tensor.Float32 {
		return float32(v)
	}
	return v
}

// stockConv is relu(conv2d(x, w) + b) in stock Gorgonia ops.
func stockConv(x, w, b *G.Node, l ConvLayer) (*G.Node, error) {
	y, err := G.Conv2d(x, w, tensor.Shape{l.Kernel, l.Kernel}, []int{0, 0}, []int{l.Stride, l.Stride}, []int{1, 1})
	if err != nil {
		return nil, err
	}
	b4, err := G.Reshape(b, tensor.Shape{1, l.Out, 1, 1})
	if err != nil {
		return nil, err
	}
	if y, err = G.BroadcastAdd(y, b4, nil, []byte{0, 2, 3}); err != nil {
		return nil, err
	}
	return G.Rectify(y)
}

// stockDense is relu(reshape(x, (B, flat)) w + b) in stock Gorgonia ops.
func stockDense(x, w, b *G.Node, batch, flat int) (*G.Node, error) {
	x2, err := G.Reshape(x, tensor.Shape{batch, flat})
	if err != nil {
		return nil, err
	}
	y, err := G.Mul(x2, w)
	if err != nil {
		return nil, err
	}
	if y, err = G.BroadcastAdd(y, b, nil, []byte{0}); err != nil {
		return nil, err
	}
	return G.Rectify(y)
}
