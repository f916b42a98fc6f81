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
	// Values, when not nil, are the 8 parameter tensors to use instead of new ones (in
	// the order NatureCNN returns the nodes): a second graph, such as an actor's
	// inference graph, can share or copy a learner's weights.
	Values []tensor.Tensor
}

// NatureFeatures is the size of NatureCNN's feature vector.
const NatureFeatures = 512

// NatureCNN builds the DQN Nature convolutional torso (Mnih et al. 2015), as CleanRL's
// Atari PPO uses it: conv 32 8x8/4, conv 64 4x4/2, conv 64 3x3/1, each with ReLU, then
// dense 512 with ReLU. input is (B, C, H, W) (4x84x84 for stacked Atari frames) holding
// raw pixel values 0..255, scaled by opts.Scale inside the first layer. With Fast the
// input may be uint8 (no conversion pass, 4x less memory) or the weights' float type;
// the stock network needs the float type.
//
// Weights are orthogonal with gain sqrt(2) and biases zero. params are
// [w1 b1 w2 b2 w3 b3 w4 b4], convolution kernels (Cout, Cin, K, K), dense (3136, 512).
// It panics on an input it cannot take (wrong rank, too small, wrong type): that is a
// programming error.
func NatureCNN(g *G.ExprGraph, input *G.Node, opts NatureOpts) (features *G.Node, params []*G.Node) {
	features, params, err := natureCNN(g, input, opts)
	if err != nil {
		panic(err)
	}
	return features, params
}

type natureLayer struct {
	cout, k, s int
}

var natureConvs = []natureLayer{{32, 8, 4}, {64, 4, 2}, {64, 3, 1}}

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
	if o.Values != nil && len(o.Values) != 8 {
		return nil, nil, fmt.Errorf("nn: NatureCNN takes 8 parameter values, got %d", len(o.Values))
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
	for i, l := range natureConvs {
		if h < l.k || w < l.k {
			return nil, nil, fmt.Errorf("nn: NatureCNN input %v is too small for layer %d", xs, i+1)
		}
		wn := param(2*i, fmt.Sprintf("conv%d_w", i+1), l.cout, c, l.k, l.k)
		bn := param(2*i+1, fmt.Sprintf("conv%d_b", i+1), l.cout)
		params = append(params, wn, bn)
		var err error
		if o.Fast {
			last := i == len(natureConvs)-1
			opts := ConvOpts{Stride: l.s, ReLU: true, Flatten: last, Backend: o.Backend}
			if i == 0 {
				opts.Scale, opts.NoInputGrad = scale, true
			}
			if o.Backend == BackendOneDNN {
				// The convolutions hand each other activations in oneDNN's layout; the
				// last one writes the plain layout the dense layer reads.
				opts.link = convLink{nativeOut: !last}
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
		c, h, w = l.cout, (h-l.k)/l.s+1, (w-l.k)/l.s+1
	}
	flat := c * h * w
	wn := param(6, "dense_w", flat, NatureFeatures)
	bn := param(7, "dense_b", NatureFeatures)
	params = append(params, wn, bn)
	var err error
	if o.Fast {
		cur, err = Dense(cur, wn, bn, DenseOpts{Act: ReLU, Backend: o.Backend})
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
func stockConv(x, w, b *G.Node, l natureLayer) (*G.Node, error) {
	y, err := G.Conv2d(x, w, tensor.Shape{l.k, l.k}, []int{0, 0}, []int{l.s, l.s}, []int{1, 1})
	if err != nil {
		return nil, err
	}
	b4, err := G.Reshape(b, tensor.Shape{1, l.cout, 1, 1})
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

// NatureForwardFLOPs is 2 x the multiply-adds of one NatureCNN forward pass over a batch
// of batch c x h x w inputs (convolutions and the dense layer), for GFLOP/s reports.
func NatureForwardFLOPs(batch, c, h, w int) float64 {
	var f float64
	for _, l := range natureConvs {
		oh, ow := (h-l.k)/l.s+1, (w-l.k)/l.s+1
		f += 2 * float64(batch*oh*ow*l.cout*c*l.k*l.k)
		c, h, w = l.cout, oh, ow
	}
	return f + 2*float64(batch*c*h*w*NatureFeatures)
}
