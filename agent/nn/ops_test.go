package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/agent/blas"
	"github.com/rlpool/rlpool/agent/gradcheck"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestMain(m *testing.M) {
	blas.Use()
	m.Run()
}

func randTensor(rng *rand.Rand, dt tensor.Dtype, shape ...int) *tensor.Dense {
	n := tensor.Shape(shape).TotalSize()
	switch dt {
	case tensor.Float64:
		d := make([]float64, n)
		for i := range d {
			d[i] = rng.NormFloat64()
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
	case tensor.Float32:
		d := make([]float32, n)
		for i := range d {
			d[i] = float32(rng.NormFloat64())
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
	}
	d := make([]uint8, n)
	for i := range d {
		d[i] = uint8(rng.IntN(256))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
}

// asFloat64 copies a tensor's values into float64.
func asFloat64(t tensor.Tensor) []float64 {
	switch d := t.Data().(type) {
	case []float64:
		return append([]float64(nil), d...)
	case []float32:
		return widen(d)
	case []uint8:
		return widen(d)
	}
	panic(fmt.Sprintf("unexpected %T", t.Data()))
}

// widen returns d's values as float64.
func widen[T float32 | uint8](d []T) []float64 {
	o := make([]float64, len(d))
	for i, v := range d {
		o[i] = float64(v)
	}
	return o
}

func f64Tensor(v []float64, shape tensor.Shape) *tensor.Dense {
	return tensor.New(tensor.WithShape(shape.Clone()...), tensor.WithBacking(append([]float64(nil), v...)))
}

// result holds a graph's output and the gradients of a weighted-sum loss.
type result struct {
	y     []float64
	grads [][]float64 // in the order of the wrt nodes
}

// runLoss builds loss = sum(y * r) on top of y, runs forward and backward once and
// returns y and the gradients of wrt.
func runLoss(t *testing.T, g *G.ExprGraph, y *G.Node, r *tensor.Dense, wrt []*G.Node) result {
	t.Helper()
	rn := G.NewTensor(g, r.Dtype(), r.Dims(), G.WithShape(r.Shape()...), G.WithValue(r), G.WithName("r"))
	// Read y as it is computed: a later op may reuse its register.
	var yv G.Value
	G.Read(y, &yv)
	loss := G.Must(G.Sum(G.Must(G.HadamardProd(y, rn))))
	if _, err := G.Grad(loss, wrt...); err != nil {
		t.Fatalf("Grad: %v", err)
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(wrt...))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatalf("RunAll: %v", err)
	}
	res := result{y: asFloat64(yv.(tensor.Tensor))}
	for _, n := range wrt {
		gv, err := n.Grad()
		if err != nil {
			t.Fatalf("grad of %v: %v", n, err)
		}
		res.grads = append(res.grads, asFloat64(gv.(tensor.Tensor)))
	}
	return res
}

func compare(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	var scale float64
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range want {
		if d := math.Abs(got[i] - want[i]); d > tol*(1+scale) {
			t.Fatalf("%s[%d] = %g, want %g (|diff| %g, scale %g)", what, i, got[i], want[i], d, scale)
		}
	}
}

type convCase struct {
	name          string
	b, c, h, w    int
	cout, k, s    int
	relu, flatten bool
	xdt           tensor.Dtype // tensor.Uint8 for raw pixels
	scale         float64
	noInputGrad   bool
}

var convCases = []convCase{
	{"nature1 uint8 8x8/4 s2d", 3, 4, 36, 36, 5, 8, 4, true, false, tensor.Uint8, 1.0 / 255, true},
	{"nature1 float 8x8/4 scaled with dx", 2, 4, 36, 40, 5, 8, 4, true, false, tensor.Float64, 1.0 / 255, false},
	{"nature2 4x4/2 s2d", 5, 3, 12, 12, 6, 4, 2, true, false, tensor.Float64, 0, false},
	{"nature3 3x3/1 flatten", 4, 6, 7, 7, 5, 3, 1, true, true, tensor.Float64, 0, false},
	{"odd size 4x4/2 (unused border)", 3, 2, 11, 13, 4, 4, 2, true, false, tensor.Float64, 0, false},
	{"3x3/2 strided gather", 3, 2, 9, 10, 3, 3, 2, false, false, tensor.Float64, 0, false},
	{"5x5/1 linear", 2, 3, 8, 9, 2, 5, 1, false, false, tensor.Float64, 0, false},
	{"uint8 3x3/1 no s2d", 2, 2, 6, 6, 3, 3, 1, true, false, tensor.Uint8, 0.5, true},
	{"batch 1", 1, 2, 10, 10, 3, 4, 2, true, false, tensor.Float64, 0, false},
}

// TestConvMatchesStock checks the fused convolution's output and its gradients with
// respect to weights, bias and input against stock Gorgonia (Conv2d, BroadcastAdd,
// Rectify) in float64.
func TestConvMatchesStock(t *testing.T) {
	for i, c := range convCases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			x := randTensor(rng, c.xdt, c.b, c.c, c.h, c.w)
			w := randTensor(rng, tensor.Float64, c.cout, c.c, c.k, c.k)
			bv := randTensor(rng, tensor.Float64, c.cout)
			oh, ow := (c.h-c.k)/c.s+1, (c.w-c.k)/c.s+1
			outShape := tensor.Shape{c.b, c.cout, oh, ow}
			if c.flatten {
				outShape = tensor.Shape{c.b, c.cout * oh * ow}
			}
			r := randTensor(rng, tensor.Float64, outShape...)
			scale := c.scale
			if scale == 0 {
				scale = 1
			}
			needDX := c.xdt != tensor.Uint8 && !c.noInputGrad

			// Fused.
			g1 := G.NewGraph()
			x1 := G.NewTensor(g1, c.xdt, 4, G.WithShape(x.Shape()...), G.WithValue(x), G.WithName("x"))
			w1 := G.NewTensor(g1, tensor.Float64, 4, G.WithShape(w.Shape()...), G.WithValue(f64Tensor(asFloat64(w), w.Shape())), G.WithName("w"))
			b1 := G.NewVector(g1, tensor.Float64, G.WithShape(c.cout), G.WithValue(f64Tensor(asFloat64(bv), bv.Shape())), G.WithName("b"))
			y1, err := Conv(x1, w1, b1, ConvOpts{Stride: c.s, ReLU: c.relu, Flatten: c.flatten, Scale: c.scale, NoInputGrad: c.noInputGrad})
			if err != nil {
				t.Fatal(err)
			}
			wrt1 := []*G.Node{w1, b1}
			if needDX {
				wrt1 = append(wrt1, x1)
			}
			got := runLoss(t, g1, y1, r, wrt1)

			// Stock.
			g2 := G.NewGraph()
			x2 := G.NewTensor(g2, tensor.Float64, 4, G.WithShape(x.Shape()...), G.WithValue(f64Tensor(asFloat64(x), x.Shape())), G.WithName("x"))
			w2 := G.NewTensor(g2, tensor.Float64, 4, G.WithShape(w.Shape()...), G.WithValue(f64Tensor(asFloat64(w), w.Shape())), G.WithName("w"))
			b2 := G.NewVector(g2, tensor.Float64, G.WithShape(c.cout), G.WithValue(f64Tensor(asFloat64(bv), bv.Shape())), G.WithName("b"))
			xs := G.Must(G.Mul(x2, G.NewConstant(scale)))
			y2 := G.Must(G.Conv2d(xs, w2, tensor.Shape{c.k, c.k}, []int{0, 0}, []int{c.s, c.s}, []int{1, 1}))
			y2 = G.Must(G.BroadcastAdd(y2, G.Must(G.Reshape(b2, tensor.Shape{1, c.cout, 1, 1})), nil, []byte{0, 2, 3}))
			if c.relu {
				y2 = G.Must(G.Rectify(y2))
			}
			if c.flatten {
				y2 = G.Must(G.Reshape(y2, outShape))
			}
			wrt2 := []*G.Node{w2, b2}
			if needDX {
				wrt2 = append(wrt2, x2)
			}
			want := runLoss(t, g2, y2, r, wrt2)

			compare(t, "y", got.y, want.y, 1e-10)
			for j, name := range []string{"dW", "db", "dx"}[:len(wrt1)] {
				compare(t, name, got.grads[j], want.grads[j], 1e-10)
			}
		})
	}
}

// TestConvFiniteDifferences checks the float64 fused convolution's gradients against
// central finite differences of the loss on a few coordinates, independently of stock
// Gorgonia.
func TestConvFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	x := randTensor(rng, tensor.Float64, 2, 2, 9, 9)
	w := randTensor(rng, tensor.Float64, 3, 2, 4, 4)
	bv := randTensor(rng, tensor.Float64, 3)
	r := randTensor(rng, tensor.Float64, 2, 3, 3, 3)
	loss := func() (float64, []float64, []float64) {
		g := G.NewGraph()
		xn := G.NewTensor(g, tensor.Float64, 4, G.WithShape(x.Shape()...), G.WithValue(x), G.WithName("x"))
		wn := G.NewTensor(g, tensor.Float64, 4, G.WithShape(w.Shape()...), G.WithValue(w), G.WithName("w"))
		bn := G.NewVector(g, tensor.Float64, G.WithShape(3), G.WithValue(bv), G.WithName("b"))
		y, err := Conv(xn, wn, bn, ConvOpts{Stride: 2, ReLU: true})
		if err != nil {
			t.Fatal(err)
		}
		res := runLoss(t, g, y, r, []*G.Node{wn, xn})
		var l float64
		rd := r.Data().([]float64)
		for i, v := range res.y {
			l += v * rd[i]
		}
		return l, res.grads[0], res.grads[1]
	}
	_, dw, dx := loss()
	const h = 1e-6
	cases := []struct {
		name string
		vals []float64
		grad []float64
		idx  []int
	}{
		{"w", w.Data().([]float64), dw, []int{0, 5, 17, 40, 95}},
		{"x", x.Data().([]float64), dx, []int{0, 10, 44, 80, 161}},
	}
	for _, c := range cases {
		for _, i := range c.idx {
			fd := gradcheck.Central(c.vals, i, h, func() float64 { l, _, _ := loss(); return l })
			if math.Abs(fd-c.grad[i]) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("d loss/d %s[%d] = %g, finite difference %g", c.name, i, c.grad[i], fd)
			}
		}
	}
}

// TestDenseMatchesStock checks the fused dense layer against Mul, BroadcastAdd and
// Rectify or Tanh in float64.
func TestDenseMatchesStock(t *testing.T) {
	cases := []struct {
		name        string
		b, in, out  int
		act         Activation
		noInputGrad bool
	}{
		{"relu", 7, 30, 11, ReLU, false},
		{"linear", 5, 16, 9, Linear, false},
		{"tanh", 6, 13, 8, Tanh, false},
		{"no input grad", 3, 8, 4, ReLU, true},
		{"batch 1", 1, 12, 6, ReLU, false},
		{"small batch, wide: column split", 3, 40, 100, ReLU, false},
		{"large batch: row split", 300, 20, 70, ReLU, false},
		{"large batch tanh", 300, 20, 70, Tanh, false},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 99))
			x := asFloat64(randTensor(rng, tensor.Float64, c.b, c.in))
			w := asFloat64(randTensor(rng, tensor.Float64, c.in, c.out))
			bv := asFloat64(randTensor(rng, tensor.Float64, c.out))
			r := randTensor(rng, tensor.Float64, c.b, c.out)
			build := func() (*G.ExprGraph, *G.Node, *G.Node, *G.Node) {
				g := G.NewGraph()
				xn := G.NewMatrix(g, tensor.Float64, G.WithShape(c.b, c.in), G.WithValue(f64Tensor(x, tensor.Shape{c.b, c.in})), G.WithName("x"))
				wn := G.NewMatrix(g, tensor.Float64, G.WithShape(c.in, c.out), G.WithValue(f64Tensor(w, tensor.Shape{c.in, c.out})), G.WithName("w"))
				bn := G.NewVector(g, tensor.Float64, G.WithShape(c.out), G.WithValue(f64Tensor(bv, tensor.Shape{c.out})), G.WithName("b"))
				return g, xn, wn, bn
			}
			g1, x1, w1, b1 := build()
			y1, err := Dense(x1, w1, b1, DenseOpts{Act: c.act, NoInputGrad: c.noInputGrad})
			if err != nil {
				t.Fatal(err)
			}
			wrt1 := []*G.Node{w1, b1}
			g2, x2, w2, b2 := build()
			y2 := G.Must(G.BroadcastAdd(G.Must(G.Mul(x2, w2)), b2, nil, []byte{0}))
			switch c.act {
			case ReLU:
				y2 = G.Must(G.Rectify(y2))
			case Tanh:
				y2 = G.Must(G.Tanh(y2))
			}
			wrt2 := []*G.Node{w2, b2}
			if !c.noInputGrad {
				wrt1, wrt2 = append(wrt1, x1), append(wrt2, x2)
			}
			got := runLoss(t, g1, y1, r, wrt1)
			want := runLoss(t, g2, y2, r, wrt2)
			compare(t, "y", got.y, want.y, 1e-12)
			for j, name := range []string{"dW", "db", "dx"}[:len(wrt1)] {
				compare(t, name, got.grads[j], want.grads[j], 1e-12)
			}
		})
	}
}

// TestNatureCNNFastMatchesStock builds the whole network both ways with the same
// weights and compares features and every parameter gradient, in float64 and float32,
// for both torsos.
func TestNatureCNNFastMatchesStock(t *testing.T) {
	cases := []struct {
		name  string
		dt    tensor.Dtype
		batch int
		tol   float64
	}{
		{"float64", tensor.Float64, 2, 1e-9},
		{"float32", tensor.Float32, 2, 2e-4},
	}
	for _, c := range cases {
		for _, arch := range testArchs {
			t.Run(c.name+"/"+arch.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(5, 5))
				pix := randTensor(rng, tensor.Uint8, c.batch, 4, 84, 84)
				r := randTensor(rng, c.dt, c.batch, arch.a.Features)
				// Fast, uint8 input.
				g1 := G.NewGraph()
				x1 := G.NewTensor(g1, tensor.Uint8, 4, G.WithShape(pix.Shape()...), G.WithValue(pix), G.WithName("obs"))
				f1, p1 := NatureCNN(g1, x1, NatureOpts{Fast: true, Dtype: c.dt, Seed: 3, Arch: arch.a})
				// Stock, float input holding the same pixels and a copy of the same weights.
				vals := make([]tensor.Tensor, len(p1))
				for i, p := range p1 {
					vals[i] = p.Value().(tensor.Tensor).Clone().(tensor.Tensor)
				}
				g2 := G.NewGraph()
				xf := randTensor(rng, c.dt, pix.Shape()...)
				for i, v := range asFloat64(pix) {
					if c.dt == tensor.Float32 {
						xf.Data().([]float32)[i] = float32(v)
					} else {
						xf.Data().([]float64)[i] = v
					}
				}
				x2 := G.NewTensor(g2, c.dt, 4, G.WithShape(pix.Shape()...), G.WithValue(xf), G.WithName("obs"))
				f2, p2 := NatureCNN(g2, x2, NatureOpts{Dtype: c.dt, Values: vals, Arch: arch.a})

				got := runLoss(t, g1, f1, r, p1)
				want := runLoss(t, g2, f2, r, p2)
				compare(t, "features", got.y, want.y, c.tol)
				for j := range p1 {
					compare(t, p1[j].Name(), got.grads[j], want.grads[j], c.tol)
				}
				if len(p1) != arch.a.NumParams() {
					t.Errorf("%d parameters, want %d", len(p1), arch.a.NumParams())
				}
			})
		}
	}
}

// testArchs are the CNN torsos the whole-network tests build.
var testArchs = []struct {
	name string
	a    *CNNArch
}{{"nature", &NatureArch}, {"small", &SmallArch}}

// TestRepeatedRunsReuseBuffers runs a fused graph several times, as a learner does
// (RunAll, Reset), and checks that results do not change although the ops reuse their
// buffers and a downstream Reshape reshapes them in place.
func TestRepeatedRunsReuseBuffers(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	g := G.NewGraph()
	x := G.NewTensor(g, tensor.Float32, 4, G.WithShape(3, 2, 10, 10), G.WithValue(randTensor(rng, tensor.Float32, 3, 2, 10, 10)))
	w := G.NewTensor(g, tensor.Float32, 4, G.WithShape(4, 2, 4, 4), G.WithValue(randTensor(rng, tensor.Float32, 4, 2, 4, 4)), G.WithName("w"))
	b := G.NewVector(g, tensor.Float32, G.WithShape(4), G.WithValue(randTensor(rng, tensor.Float32, 4)), G.WithName("b"))
	y := G.Must(Conv(x, w, b, ConvOpts{Stride: 2, ReLU: true}))
	flat := G.Must(G.Reshape(y, tensor.Shape{3, 4 * 4 * 4})) // reshapes the op's buffer in place
	loss := G.Must(G.Sum(G.Must(G.Square(flat))))
	if _, err := G.Grad(loss, w, b); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(w, b))
	defer vm.Close()
	var first []float64
	for run := 0; run < 3; run++ {
		for _, p := range []*G.Node{w, b} {
			if gv, err := p.Grad(); err == nil && gv != nil {
				gv.(tensor.Tensor).Zero()
			}
		}
		if err := vm.RunAll(); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		gw, _ := w.Grad()
		cur := asFloat64(gw.(tensor.Tensor))
		cur = append(cur, float64(loss.Value().Data().(float32)))
		if run == 0 {
			first = cur
		} else {
			compare(t, fmt.Sprintf("run %d", run), cur, first, 0)
		}
		vm.Reset()
	}
}

func TestTanh32(t *testing.T) {
	worst := 0.0
	for x := -12.0; x <= 12; x += 1e-4 {
		got := float64(Tanh32(float32(x)))
		worst = math.Max(worst, math.Abs(got-math.Tanh(float64(float32(x)))))
	}
	if worst > 5e-7 { // a few float32 ulps
		t.Errorf("Tanh32 is off by up to %g", worst)
	}
	if Tanh32(0) != 0 || Tanh32(100) > 1 || Tanh32(-100) < -1 {
		t.Error("Tanh32 at 0 or far out of range")
	}
}

func TestParseActivation(t *testing.T) {
	for in, want := range map[string]Activation{"": Linear, "none": Linear, "relu": ReLU, "tanh": Tanh} {
		if got, err := ParseActivation(in); err != nil || got != want {
			t.Errorf("ParseActivation(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseActivation("sigmoid"); err == nil || !strings.Contains(err.Error(), "tanh, relu or none") {
		t.Errorf("ParseActivation(sigmoid) error %v, want one naming the choices", err)
	}
}
