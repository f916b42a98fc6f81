package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/dnnl"
)

// needOneDNN skips a test when oneDNN's library cannot be loaded.
func needOneDNN(t *testing.T) {
	t.Helper()
	if err := dnnl.Load(); err != nil {
		t.Skipf("oneDNN is not available (%v): the onednn backend's tests need Debian's libdnnl2", err)
	}
}

// relL2 is |got - want| / |want|.
func relL2(got, want []float64) float64 {
	var d, n float64
	for i := range want {
		d += (got[i] - want[i]) * (got[i] - want[i])
		n += want[i] * want[i]
	}
	return math.Sqrt(d / max(n, 1e-300))
}

func f32Tensor(v []float64, shape ...int) *tensor.Dense {
	d := make([]float32, len(v))
	for i, x := range v {
		d[i] = float32(x)
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
}

// layerRun builds one layer on backend with float32 weights from w and b (and the
// input x, float32 or uint8), and returns y and the gradients of sum(y * r) with
// respect to w, b and, when the layer has one, x.
type layerRun func(backend Backend, x tensor.Tensor, w, b, r []float64) result

func convRun(t *testing.T, c convCase) layerRun {
	return func(backend Backend, x tensor.Tensor, w, b, r []float64) result {
		g := G.NewGraph()
		xn := G.NewTensor(g, x.Dtype(), 4, G.WithShape(x.Shape()...), G.WithValue(x.Clone()), G.WithName("x"))
		wn := G.NewTensor(g, tensor.Float32, 4, G.WithShape(c.cout, c.c, c.k, c.k), G.WithValue(f32Tensor(w, c.cout, c.c, c.k, c.k)), G.WithName("w"))
		bn := G.NewVector(g, tensor.Float32, G.WithShape(c.cout), G.WithValue(f32Tensor(b, c.cout)), G.WithName("b"))
		y, err := Conv(xn, wn, bn, ConvOpts{Stride: c.s, ReLU: c.relu, Flatten: c.flatten, Scale: c.scale, NoInputGrad: c.noInputGrad, Backend: backend})
		if err != nil {
			t.Fatal(err)
		}
		wrt := []*G.Node{wn, bn}
		if x.Dtype() != tensor.Uint8 && !c.noInputGrad {
			wrt = append(wrt, xn)
		}
		return runLoss(t, g, y, f32Tensor(r, y.Shape()...), wrt)
	}
}

// compareBackends runs a layer on both backends and checks y and every gradient within
// 1e-4 relative L2.
func compareBackends(t *testing.T, run layerRun, x tensor.Tensor, w, b, r []float64) {
	t.Helper()
	want := run(BackendGo, x, w, b, r)
	got := run(BackendOneDNN, x, w, b, r)
	if e := relL2(got.y, want.y); e > 1e-4 {
		t.Errorf("y: relative L2 %.3g between onednn and go", e)
	}
	for j, name := range []string{"dW", "db", "dx"}[:len(want.grads)] {
		if e := relL2(got.grads[j], want.grads[j]); e > 1e-4 {
			t.Errorf("%s: relative L2 %.3g between onednn and go", name, e)
		}
	}
}

func randFloats(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64() * 0.3
	}
	return v
}

// The onednn convolution computes what the go one does: output and the gradients of
// weights, bias and input, for uint8 pixels (scaled, space-to-depth), float inputs,
// with and without ReLU, flattened, odd sizes.
func TestOneDNNConvMatchesGo(t *testing.T) {
	needOneDNN(t)
	cases := []convCase{
		{"nature1 uint8 8x8/4", 3, 4, 36, 36, 8, 8, 4, true, false, tensor.Uint8, 1.0 / 255, true},
		{"nature2 4x4/2 with dx", 5, 32, 12, 12, 16, 4, 2, true, false, tensor.Float32, 0, false},
		{"nature3 3x3/1 flatten", 4, 16, 7, 7, 16, 3, 1, true, true, tensor.Float32, 0, false},
		{"odd size linear", 3, 5, 11, 13, 7, 4, 2, false, false, tensor.Float32, 0, false},
		{"batch 1, no dx", 1, 8, 10, 10, 8, 3, 1, true, false, tensor.Float32, 0, true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			x := randTensor(rng, c.xdt, c.b, c.c, c.h, c.w)
			oh, ow := (c.h-c.k)/c.s+1, (c.w-c.k)/c.s+1
			compareBackends(t, convRun(t, c), x, randFloats(rng, c.cout*c.c*c.k*c.k), randFloats(rng, c.cout), randFloats(rng, c.b*c.cout*oh*ow))
		})
	}
}

func denseRun(t *testing.T, batch, in, out int, act Activation, noInputGrad bool) layerRun {
	return func(backend Backend, x tensor.Tensor, w, b, r []float64) result {
		g := G.NewGraph()
		xn := G.NewMatrix(g, tensor.Float32, G.WithShape(batch, in), G.WithValue(x.Clone()), G.WithName("x"))
		wn := G.NewMatrix(g, tensor.Float32, G.WithShape(in, out), G.WithValue(f32Tensor(w, in, out)), G.WithName("w"))
		bn := G.NewVector(g, tensor.Float32, G.WithShape(out), G.WithValue(f32Tensor(b, out)), G.WithName("b"))
		y, err := Dense(xn, wn, bn, DenseOpts{Act: act, NoInputGrad: noInputGrad, Backend: backend})
		if err != nil {
			t.Fatal(err)
		}
		wrt := []*G.Node{wn, bn}
		if !noInputGrad {
			wrt = append(wrt, xn)
		}
		return runLoss(t, g, y, f32Tensor(r, batch, out), wrt)
	}
}

// The onednn dense layer computes what the go one does, with ReLU and linear, with and
// without the input gradient; tanh is refused with a message.
func TestOneDNNDenseMatchesGo(t *testing.T) {
	needOneDNN(t)
	cases := []struct {
		name        string
		b, in, out  int
		act         Activation
		noInputGrad bool
	}{
		{"nature dense relu", 16, 3136, 512, ReLU, false},
		{"head linear", 9, 512, 6, Linear, false},
		{"odd relu, no dx", 5, 37, 11, ReLU, true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 13))
			x := f32Tensor(randFloats(rng, c.b*c.in), c.b, c.in)
			compareBackends(t, denseRun(t, c.b, c.in, c.out, c.act, c.noInputGrad), x,
				randFloats(rng, c.in*c.out), randFloats(rng, c.out), randFloats(rng, c.b*c.out))
		})
	}
	g := G.NewGraph()
	x := G.NewMatrix(g, tensor.Float32, G.WithShape(2, 3), G.WithName("x"))
	w := G.NewMatrix(g, tensor.Float32, G.WithShape(3, 4), G.WithName("w"))
	b := G.NewVector(g, tensor.Float32, G.WithShape(4), G.WithName("b"))
	if _, err := Dense(x, w, b, DenseOpts{Act: Tanh, Backend: BackendOneDNN}); err == nil {
		t.Error("a tanh dense layer on onednn built without error")
	}
}

// directional checks a layer's gradients against finite differences of
// L = sum(y * r) along a random direction of the weights and of the bias, with the
// layer itself computing L (float32, so the step is large and the tolerance loose).
func directional(t *testing.T, run layerRun, x tensor.Tensor, w, b, r []float64) {
	t.Helper()
	loss := func(w, b []float64) float64 {
		res := run(BackendOneDNN, x, w, b, r)
		s := 0.0
		for i, v := range res.y {
			s += v * r[i]
		}
		return s
	}
	grad := run(BackendOneDNN, x, w, b, r)
	rng := rand.New(rand.NewPCG(3, 3))
	for j, p := range [][]float64{w, b} {
		d := randFloats(rng, len(p))
		const eps = 1e-2
		plus, minus := append([]float64(nil), p...), append([]float64(nil), p...)
		for i := range p {
			plus[i] += eps * d[i]
			minus[i] -= eps * d[i]
		}
		var fd float64
		if j == 0 {
			fd = (loss(plus, b) - loss(minus, b)) / (2 * eps)
		} else {
			fd = (loss(w, plus) - loss(w, minus)) / (2 * eps)
		}
		an := 0.0
		for i, g := range grad.grads[j] {
			an += g * d[i]
		}
		if math.Abs(fd-an) > 2e-2*(math.Abs(an)+1) {
			t.Errorf("%s: finite differences %.6g, gradient %.6g", []string{"dW", "db"}[j], fd, an)
		}
	}
}

// The onednn layers' weight and bias gradients agree with finite differences of the
// loss they compute themselves.
func TestOneDNNFiniteDifferences(t *testing.T) {
	needOneDNN(t)
	rng := rand.New(rand.NewPCG(9, 9))
	c := convCase{"conv", 2, 4, 12, 12, 8, 4, 2, false, false, tensor.Float32, 0, false}
	directional(t, convRun(t, c), randTensor(rng, tensor.Float32, 2, 4, 12, 12),
		randFloats(rng, 8*4*16), randFloats(rng, 8), randFloats(rng, 2*8*5*5))
	px := convCase{"pixels", 2, 4, 16, 16, 8, 8, 4, false, false, tensor.Uint8, 1.0 / 255, true}
	directional(t, convRun(t, px), randTensor(rng, tensor.Uint8, 2, 4, 16, 16),
		randFloats(rng, 8*4*64), randFloats(rng, 8), randFloats(rng, 2*8*3*3))
	directional(t, denseRun(t, 3, 20, 7, Linear, false), f32Tensor(randFloats(rng, 60), 3, 20),
		randFloats(rng, 140), randFloats(rng, 7), randFloats(rng, 21))
}

// The whole Nature CNN and the small torso on onednn (their convolutions handing each
// other oneDNN's layouts) compute the go backend's features and weight gradients:
// within 1e-4 relative L2 in float32. In bf16 the features are within 1% (each
// layer's operands rounded to 8 bits of mantissa) and the gradients within 10%: on
// top of the rounding, every ReLU whose input the rounding moves across zero masks
// the gradient differently, which the per-layer tests in agent/dnnl exclude (there
// the bf16 layers match a reference masked like them within 1%). A wrong layout or
// operand would be off by order 1. Nor may bf16 equal float32 (the bf16 kernels ran).
func TestOneDNNNatureCNNMatchesGo(t *testing.T) {
	needOneDNN(t)
	for _, arch := range testArchs {
		for _, prec := range []Precision{PrecisionFP32, PrecisionBF16} {
			t.Run(arch.name+"/"+string(prec), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(5, 6))
				pix := randTensor(rng, tensor.Uint8, 3, 4, 84, 84)
				r := randTensor(rng, tensor.Float32, 3, arch.a.Features)
				run := func(backend Backend, prec Precision) (result, error) {
					g := G.NewGraph()
					x := G.NewTensor(g, tensor.Uint8, 4, G.WithShape(pix.Shape()...), G.WithValue(pix), G.WithName("obs"))
					f, params, err := natureCNN(g, x, NatureOpts{Fast: true, Seed: 3, Backend: backend, Arch: arch.a, Precision: prec})
					if err != nil {
						return result{}, err
					}
					return runLoss(t, g, f, r, params), nil
				}
				want, _ := run(BackendGo, PrecisionFP32)
				got, err := run(BackendOneDNN, prec)
				if prec == PrecisionBF16 && err != nil && strings.Contains(err.Error(), "no fast bfloat16") {
					t.Skipf("bf16 not offered on this CPU: %v", err)
				}
				if err != nil {
					t.Fatal(err)
				}
				tol, gradTol := 1e-4, 1e-4
				if prec == PrecisionBF16 {
					tol, gradTol = 1e-2, 0.1
				}
				outs := append([][]float64{got.y}, got.grads...)
				wants := append([][]float64{want.y}, want.grads...)
				for j := range wants {
					name, tol := "features", tol
					if j > 0 {
						name, tol = fmt.Sprintf("gradient of parameter %d", j-1), gradTol
					}
					e := relL2(outs[j], wants[j])
					if e > tol {
						t.Errorf("%s: relative L2 %.3g > %.0e", name, e, tol)
					}
					if prec == PrecisionBF16 && e < 1e-6 {
						t.Errorf("%s: bf16 equals float32 (relative L2 %.3g): no bf16 arithmetic ran", name, e)
					}
					if prec == PrecisionBF16 {
						t.Logf("%s: relative L2 %.3g", name, e)
					}
				}
			})
		}
	}
}

// No primitive of either torso on onednn falls to oneDNN's reference implementation,
// which is many times slower: training at batch 256 (forward and backward) and
// inference at batch 16, the shapes PPO's learner and actor run.
func TestOneDNNTorsosNotRef(t *testing.T) {
	needOneDNN(t)
	for _, arch := range testArchs {
		for _, c := range []struct {
			name  string
			batch int
			train bool
			prec  Precision
		}{{"train-b256", 256, true, PrecisionFP32}, {"infer-b16", 16, false, PrecisionFP32},
			{"train-b256-bf16", 256, true, PrecisionBF16}, {"infer-b16-bf16", 16, false, PrecisionBF16}} {
			t.Run(arch.name+"/"+c.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(1, 2))
				g := G.NewGraph()
				pix := randTensor(rng, tensor.Uint8, c.batch, 4, 84, 84)
				x := G.NewTensor(g, tensor.Uint8, 4, G.WithShape(pix.Shape()...), G.WithValue(pix), G.WithName("obs"))
				f, params, err := natureCNN(g, x, NatureOpts{Fast: true, Seed: 3, Backend: BackendOneDNN, Arch: arch.a,
					Inference: !c.train, Precision: c.prec})
				if c.prec == PrecisionBF16 && err != nil && strings.Contains(err.Error(), "no fast bfloat16") {
					t.Skipf("bf16 not offered on this CPU: %v", err)
				}
				if err != nil {
					t.Fatal(err)
				}
				if c.train {
					runLoss(t, g, f, randTensor(rng, tensor.Float32, c.batch, arch.a.Features), params)
				} else {
					vm := G.NewTapeMachine(g)
					defer vm.Close()
					if err := vm.RunAll(); err != nil {
						t.Fatal(err)
					}
				}
				layers := 0
				for _, n := range g.AllNodes() {
					op, ok := n.Op().(forwardOp)
					if !ok {
						continue
					}
					var impls map[string]string
					switch k := op.l.k32.(type) {
					case *oneDNNConv:
						impls = k.c.Impls()
					case *oneDNNDense:
						impls = k.d.Impls()
					default:
						t.Fatalf("%s runs on %T, not oneDNN", op.l.name, op.l.k32)
					}
					layers++
					for prim, impl := range impls {
						if impl == "" || strings.HasPrefix(impl, "ref") {
							t.Errorf("%s: %s uses implementation %q", op.l.name, prim, impl)
						}
					}
					t.Logf("%s: %v", op.l.name, impls)
				}
				if layers != len(arch.a.Convs)+1 {
					t.Errorf("%d oneDNN layers, want %d", layers, len(arch.a.Convs)+1)
				}
			})
		}
	}
}

// An inference graph (NatureOpts.Inference) computes the training graph's features:
// in float32 on both backends within 1e-5, in bf16 on onednn within 1% (and not
// identically, so the bf16 kernels ran). It refuses gradients, and bf16 is refused
// on the go backend.
func TestInferenceGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pix := randTensor(rng, tensor.Uint8, 5, 4, 84, 84)
	features := func(o NatureOpts) ([]float64, error) {
		g := G.NewGraph()
		x := G.NewTensor(g, tensor.Uint8, 4, G.WithShape(pix.Shape()...), G.WithValue(pix), G.WithName("obs"))
		o.Fast, o.Seed, o.Arch = true, 3, &SmallArch
		f, _, err := natureCNN(g, x, o)
		if err != nil {
			return nil, err
		}
		var fv G.Value
		G.Read(f, &fv)
		vm := G.NewTapeMachine(g)
		defer vm.Close()
		if err := vm.RunAll(); err != nil {
			return nil, err
		}
		return asFloat64(fv.(tensor.Tensor)), nil
	}
	want, err := features(NatureOpts{Backend: BackendGo})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, o NatureOpts, tol float64) []float64 {
		got, err := features(o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e := relL2(got, want); e > tol {
			t.Errorf("%s: features differ from the go training graph's by %.3g (> %.0e)", name, e, tol)
		}
		return got
	}
	check("go inference", NatureOpts{Backend: BackendGo, Inference: true}, 1e-5)
	if _, err := features(NatureOpts{Backend: BackendGo, Inference: true, Precision: PrecisionBF16}); err == nil || !strings.Contains(err.Error(), "onednn") {
		t.Errorf("bf16 on the go backend: err = %v, want a refusal naming onednn", err)
	}

	// Gradients through an inference graph are refused.
	g := G.NewGraph()
	x := G.NewTensor(g, tensor.Uint8, 4, G.WithShape(pix.Shape()...), G.WithValue(pix), G.WithName("obs"))
	f, params := NatureCNN(g, x, NatureOpts{Fast: true, Seed: 3, Arch: &SmallArch, Inference: true})
	if _, err := G.Grad(G.Must(G.Sum(f)), params...); err == nil {
		t.Error("Grad through an inference graph succeeded")
	}

	if dnnl.Load() != nil {
		t.Log("oneDNN is not available: its inference graphs are not checked")
		return
	}
	f32 := check("onednn inference", NatureOpts{Backend: BackendOneDNN, Inference: true}, 1e-5)
	bf, err := features(NatureOpts{Backend: BackendOneDNN, Inference: true, Precision: PrecisionBF16})
	if err != nil && strings.Contains(err.Error(), "no fast bfloat16") {
		t.Logf("bf16 not offered on this CPU: %v", err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if e := relL2(bf, want); e > 1e-2 {
		t.Errorf("onednn bf16 inference: features differ by %.3g (> 1e-2)", e)
	}
	if e := relL2(bf, f32); e < 1e-6 {
		t.Errorf("onednn bf16 features equal float32's (%.3g): no bf16 arithmetic ran", e)
	}
}
