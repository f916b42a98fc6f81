package optim

import (
	"math"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// quadratic builds loss = sum(c * w^2) / 2 over one parameter w, whose gradient is c*w.
func quadratic(t *testing.T, dt tensor.Dtype, w0, c []float64) (*G.Node, G.VM) {
	t.Helper()
	g := G.NewGraph()
	mk := func(v []float64) *tensor.Dense {
		if dt == tensor.Float32 {
			f := make([]float32, len(v))
			for i, x := range v {
				f[i] = float32(x)
			}
			return tensor.New(tensor.WithShape(len(v)), tensor.WithBacking(f))
		}
		return tensor.New(tensor.WithShape(len(v)), tensor.WithBacking(append([]float64(nil), v...)))
	}
	w := G.NewVector(g, dt, G.WithShape(len(w0)), G.WithValue(mk(w0)), G.WithName("w"))
	cn := G.NewVector(g, dt, G.WithShape(len(c)), G.WithValue(mk(c)), G.WithName("c"))
	half := G.NewConstant(castScalar(0.5, dt))
	loss := G.Must(G.Mul(G.Must(G.Sum(G.Must(G.HadamardProd(cn, G.Must(G.Square(w)))))), half))
	if _, err := G.Grad(loss, w); err != nil {
		t.Fatal(err)
	}
	return w, G.NewTapeMachine(g, G.BindDualValues(w))
}

func castScalar(v float64, dt tensor.Dtype) interface{} {
	if dt == tensor.Float32 {
		return float32(v)
	}
	return v
}

func values(n *G.Node) []float64 { return toF64(n.Value().Data()) }

func gradValues(t *testing.T, n *G.Node) []float64 {
	t.Helper()
	gv, err := n.Grad()
	if err != nil {
		t.Fatal(err)
	}
	return toF64(gv.Data())
}

type stepper interface {
	Step() (float64, error)
}

// reference runs the update rule on float64 slices: grad(w) = c*w.
type reference func(w, grad []float64, step int)

func adamRef(cfg AdamConfig) reference {
	var m, v []float64
	return func(w, g []float64, t int) {
		if m == nil {
			m, v = make([]float64, len(w)), make([]float64, len(w))
		}
		scale := clipScale(norm(g), cfg.MaxGradNorm)
		for i := range w {
			gi := g[i] * scale
			m[i] = cfg.Beta1*m[i] + (1-cfg.Beta1)*gi
			v[i] = cfg.Beta2*v[i] + (1-cfg.Beta2)*gi*gi
			mh := m[i] / (1 - math.Pow(cfg.Beta1, float64(t)))
			vh := v[i] / (1 - math.Pow(cfg.Beta2, float64(t)))
			w[i] -= cfg.LR * mh / (math.Sqrt(vh) + cfg.Eps)
		}
	}
}

func rmsRef(cfg RMSPropConfig) reference {
	var ms, mom []float64
	return func(w, g []float64, t int) {
		if ms == nil {
			ms, mom = make([]float64, len(w)), make([]float64, len(w))
			for i := range ms {
				ms[i] = cfg.InitMS
			}
		}
		scale := clipScale(norm(g), cfg.MaxGradNorm)
		for i := range w {
			gi := g[i] * scale
			ms[i] = cfg.Rho*ms[i] + (1-cfg.Rho)*gi*gi
			mom[i] = cfg.Momentum*mom[i] + cfg.LR*gi/math.Sqrt(ms[i]+cfg.Eps)
			w[i] -= mom[i]
		}
	}
}

func norm(g []float64) float64 {
	var s float64
	for _, v := range g {
		s += v * v
	}
	return math.Sqrt(s)
}

func TestSolversMatchReference(t *testing.T) {
	w0 := []float64{1, -2, 0.5, 3, -0.25}
	c := []float64{1, 2, 3, 0.5, 4}
	adam := AdamConfig{LR: 0.01, Beta1: 0.9, Beta2: 0.999, Eps: 1e-5}
	adamClip := adam
	adamClip.MaxGradNorm = 0.5
	rms := RMSPropConfig{LR: 0.01, Rho: 0.99, Eps: 0.01, InitMS: 1}
	rmsMom := RMSPropConfig{LR: 0.001, Rho: 0.9, Eps: 1e-10, Momentum: 0.9, MaxGradNorm: 1}
	// Long enough for several parallel spans.
	wLong, cLong := make([]float64, 3*spanLen+7), make([]float64, 3*spanLen+7)
	for i := range wLong {
		wLong[i] = math.Sin(float64(i))
		cLong[i] = 1 + float64(i%5)
	}
	cases := []struct {
		name string
		w, c []float64
		dt   tensor.Dtype
		mk   func(w *G.Node) stepper
		ref  reference
	}{
		{"adam float64", w0, c, tensor.Float64, func(w *G.Node) stepper { return NewAdam([]*G.Node{w}, adam) }, adamRef(adam)},
		{"adam float32", w0, c, tensor.Float32, func(w *G.Node) stepper { return NewAdam([]*G.Node{w}, adam) }, adamRef(adam)},
		{"adam clipped", w0, c, tensor.Float64, func(w *G.Node) stepper { return NewAdam([]*G.Node{w}, adamClip) }, adamRef(adamClip)},
		{"adam parallel spans clipped", wLong, cLong, tensor.Float32, func(w *G.Node) stepper { return NewAdam([]*G.Node{w}, adamClip) }, adamRef(adamClip)},
		{"rmsprop tf1 impala", w0, c, tensor.Float64, func(w *G.Node) stepper { return NewRMSProp([]*G.Node{w}, rms) }, rmsRef(rms)},
		{"rmsprop momentum clipped float32", w0, c, tensor.Float32, func(w *G.Node) stepper { return NewRMSProp([]*G.Node{w}, rmsMom) }, rmsRef(rmsMom)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			w, vm := quadratic(t, tc.dt, tc.w, c)
			defer vm.Close()
			s := tc.mk(w)
			want := append([]float64(nil), tc.w...)
			tol := 1e-12
			if tc.dt == tensor.Float32 {
				tol = 1e-5
			}
			for step := 1; step <= 5; step++ {
				if err := vm.RunAll(); err != nil {
					t.Fatal(err)
				}
				vm.Reset()
				g := make([]float64, len(want))
				for i := range g {
					g[i] = c[i] * want[i]
				}
				gotNorm, err := s.Step()
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(gotNorm-norm(g)) > tol*10*(1+norm(g)) {
					t.Fatalf("step %d: norm %g, want %g", step, gotNorm, norm(g))
				}
				tc.ref(want, g, step)
				got := values(w)
				for i := range want {
					if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
						t.Fatalf("step %d: w[%d] = %g, want %g", step, i, got[i], want[i])
					}
				}
				for i, v := range gradValues(t, w) {
					if v != 0 {
						t.Fatalf("step %d: gradient[%d] = %g after Step, want 0", step, i, v)
					}
				}
			}
		})
	}
}
