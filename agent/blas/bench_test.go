package blas

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// reportGFLOPs adds a GFLOP/s metric for flops floating-point operations per iteration.
func reportGFLOPs(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// sgemmShapes are a square product and the thin shapes a Nature CNN issues per batch
// chunk of 32 images (im2col rows x output channels x patch size).
var sgemmShapes = []struct {
	name    string
	tB      bool
	m, n, k int
}{
	{"1024x1024x1024", false, 1024, 1024, 1024},
	{"conv1-12800x32x256", true, 12800, 32, 256},
	{"conv2-2592x64x512", true, 2592, 64, 512},
}

// BenchmarkSgemm compares OpenBLAS on one goroutine (the Sgemm helper custom ops use),
// OpenBLAS split over GOMAXPROCS goroutines (Impl.Sgemm, what stock Gorgonia ops get)
// and gonum's pure-Go Sgemm.
func BenchmarkSgemm(b *testing.B) {
	im, err := Load()
	r := rand.New(rand.NewPCG(1, 1))
	for _, s := range sgemmShapes {
		a := randSlice(r, s.m*s.k)
		bb := randSlice(r, s.k*s.n)
		c := make([]float32, s.m*s.n)
		ldb := s.n
		if s.tB {
			ldb = s.k
		}
		flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
		impls := []struct {
			name string
			f    func()
		}{
			{"openblas-1thread", func() { Sgemm(false, s.tB, s.m, s.n, s.k, 1, a, s.k, bb, ldb, 0, c, s.n) }},
			{"openblas-parallel", func() { im.Sgemm(tr(false), tr(s.tB), s.m, s.n, s.k, 1, a, s.k, bb, ldb, 0, c, s.n) }},
			{"gonum", func() { GonumSgemm(false, s.tB, s.m, s.n, s.k, 1, a, s.k, bb, ldb, 0, c, s.n) }},
		}
		for _, impl := range impls {
			b.Run(s.name+"/"+impl.name, func(b *testing.B) {
				if err != nil && impl.name != "gonum" {
					b.Skip("OpenBLAS not available")
				}
				for b.Loop() {
					impl.f()
				}
				reportGFLOPs(b, flops)
			})
		}
	}
}

// cpuTime is the process's user+system CPU time: on a shared machine, CPU time per step
// is steadier than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// mlp is a CleanRL-style PPO network for benchmarks: separate 64-64 tanh actor and critic
// MLPs, trained on a surrogate loss with Adam.
type mlp struct {
	g      *G.ExprGraph
	obs    *G.Node
	params []*G.Node
	vm     G.VM
	solver G.Solver
}

func dense(g *G.ExprGraph, x *G.Node, in, out int, name string, r *rand.Rand) (*G.Node, *G.Node, *G.Node) {
	wv := make([]float32, in*out)
	for i := range wv {
		wv[i] = float32(r.NormFloat64()) / float32(in)
	}
	w := G.NewMatrix(g, tensor.Float32, G.WithShape(in, out), G.WithName(name+"_w"),
		G.WithValue(tensor.New(tensor.WithShape(in, out), tensor.WithBacking(wv))))
	bias := G.NewVector(g, tensor.Float32, G.WithShape(out), G.WithName(name+"_b"), G.WithInit(G.Zeroes()))
	y := G.Must(G.BroadcastAdd(G.Must(G.Mul(x, w)), bias, nil, []byte{0}))
	return y, w, bias
}

func newMLP(batch, obsDim, actions int) *mlp {
	r := rand.New(rand.NewPCG(2, 2))
	g := G.NewGraph()
	obs := G.NewMatrix(g, tensor.Float32, G.WithShape(batch, obsDim), G.WithName("obs"), G.WithInit(G.Gaussian(0, 1)))
	var params []*G.Node
	tower := func(name string, out int) *G.Node {
		h := obs
		for i, width := range []int{64, 64} {
			in := obsDim
			if i > 0 {
				in = 64
			}
			y, w, bias := dense(g, h, in, width, fmt.Sprintf("%s%d", name, i), r)
			h = G.Must(G.Tanh(y))
			params = append(params, w, bias)
		}
		y, w, bias := dense(g, h, 64, out, name+"_out", r)
		params = append(params, w, bias)
		return y
	}
	logits := tower("pi", actions)
	value := tower("v", 1)
	adv := G.NewMatrix(g, tensor.Float32, G.WithShape(batch, actions), G.WithName("adv"), G.WithInit(G.Gaussian(0, 1)))
	ret := G.NewMatrix(g, tensor.Float32, G.WithShape(batch, 1), G.WithName("ret"), G.WithInit(G.Gaussian(0, 1)))
	piLoss := G.Must(G.Mean(G.Must(G.HadamardProd(logits, adv))))
	diff := G.Must(G.Sub(value, ret))
	vLoss := G.Must(G.Mean(G.Must(G.Square(diff))))
	loss := G.Must(G.Add(piLoss, vLoss))
	if _, err := G.Grad(loss, params...); err != nil {
		panic(err)
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(params...))
	return &mlp{g: g, obs: obs, params: params, vm: vm, solver: G.NewAdamSolver(G.WithLearnRate(3e-4))}
}

func (m *mlp) step() {
	if err := m.vm.RunAll(); err != nil {
		panic(err)
	}
	if err := m.solver.Step(G.NodesToValueGrads(m.params)); err != nil {
		panic(err)
	}
	m.vm.Reset()
}

// BenchmarkMLPTrainStep is one PPO minibatch step of a 64-64 tanh actor-critic MLP
// (batch 512, observation size 8, 4 actions; forward, backward, Adam) in Gorgonia, with
// OpenBLAS and with gonum's pure-Go BLAS installed.
func BenchmarkMLPTrainStep(b *testing.B) {
	im, err := Load()
	defer G.Use(G.WhichBLAS())
	for _, c := range []struct {
		name string
		blas G.BLAS
	}{{"openblas", im}, {"gonum", gonum.Implementation{}}} {
		b.Run(c.name, func(b *testing.B) {
			if c.name == "openblas" && err != nil {
				b.Skip("OpenBLAS not available")
			}
			G.Use(c.blas)
			m := newMLP(512, 8, 4)
			defer m.vm.Close()
			m.step() // warm up: first run allocates
			start, cpu0 := time.Now(), cpuTime()
			for b.Loop() {
				m.step()
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/step")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1e3/float64(b.N), "cpu-ms/step")
		})
	}
}
