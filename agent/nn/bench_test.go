package nn

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rlpool/rlpool/agent/blas"
	"github.com/rlpool/rlpool/agent/dnnl"
	"github.com/rlpool/rlpool/agent/optim"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

var (
	sgemmOnce    sync.Once
	sgemmRate    float64 // GFLOP/s of OpenBLAS sgemm on all cores, 0 without OpenBLAS
	sgemmCPURate float64 // GFLOP per CPU second of single-threaded OpenBLAS sgemm
)

// sgemmBaseline measures OpenBLAS sgemm on a 1024^3 product, the rate the fused ops are
// compared with: split over GOMAXPROCS goroutines in wall time (best of 6), and on one
// thread per CPU second of that thread, which other load on a shared machine disturbs
// less.
func sgemmBaseline() (wall, perCPU float64) {
	sgemmOnce.Do(func() {
		im := blas.Active()
		if im == nil {
			return
		}
		const n = 1024
		const flops = 2 * n * n * n
		a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
		for i := range a {
			a[i], b[i] = float32(i%7), float32(i%5)
		}
		best := time.Duration(1 << 62)
		for r := 0; r < 6; r++ {
			start := time.Now()
			im.Sgemm('N', 'N', n, n, n, 1, a, n, b, n, 0, c, n)
			best = min(best, time.Since(start))
		}
		sgemmRate = flops / best.Seconds() / 1e9
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		bestCPU := time.Duration(1 << 62)
		for r := 0; r < 6; r++ {
			t0 := threadCPUTime()
			blas.Sgemm(false, false, n, n, n, 1, a, n, b, n, 0, c, n)
			bestCPU = min(bestCPU, threadCPUTime()-t0)
		}
		if bestCPU > 0 {
			sgemmCPURate = flops / bestCPU.Seconds() / 1e9
		}
	})
	return sgemmRate, sgemmCPURate
}

// threadCPUTime is the calling thread's CPU time (RUSAGE_THREAD).
func threadCPUTime() time.Duration {
	const rusageThread = 1
	return rusageTime(rusageThread)
}

// cpuTime is the process's user+system CPU time: on a shared machine, CPU ms per step
// (all threads together) is steadier than wall time.
func cpuTime() time.Duration { return rusageTime(syscall.RUSAGE_SELF) }

// rusageTime is the user+system CPU time getrusage reports for who (0 when it fails).
func rusageTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// natureBench is a Nature CNN graph with a stand-in loss (mean of features * r), its
// machine and its solver.
type natureBench struct {
	vm    G.VM
	step  func() error
	flops float64 // per step, counted as 3 x forward (forward + backward ~ 2 x forward)
}

func newNatureBench(b *testing.B, arch *CNNArch, impl string, train bool, batch int) *natureBench {
	return newNatureBenchThreads(b, arch, impl, train, batch, 0)
}

// newNatureBenchThreads is newNatureBench with the onednn layers on OpenMP teams of
// threads (0: SetNumThreads's count).
func newNatureBenchThreads(b *testing.B, arch *CNNArch, impl string, train bool, batch, threads int) *natureBench {
	fast := impl != "stock"
	backend, prec := BackendGo, PrecisionFP32
	switch impl {
	case "onednn":
		backend = BackendOneDNN
	case "onednn-bf16":
		backend, prec = BackendOneDNN, PrecisionBF16
	}
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	g := G.NewGraph()
	shape := []int{batch, 4, 84, 84}
	var x *G.Node
	if fast {
		x = G.NewTensor(g, tensor.Uint8, 4, G.WithShape(shape...), G.WithValue(randTensor(rng, tensor.Uint8, shape...)), G.WithName("obs"))
	} else {
		pix := randTensor(rng, tensor.Float32, shape...)
		for i := range pix.Data().([]float32) {
			pix.Data().([]float32)[i] = float32(rng.IntN(256))
		}
		x = G.NewTensor(g, tensor.Float32, 4, G.WithShape(shape...), G.WithValue(pix), G.WithName("obs"))
	}
	feat, params, err := natureCNN(g, x, NatureOpts{Fast: fast, Seed: 1, Backend: backend, Arch: arch,
		Inference: !train && fast, Precision: prec, Threads: threads})
	if err != nil && prec == PrecisionBF16 && strings.Contains(err.Error(), "no fast bfloat16") {
		b.Skipf("%s: %v", impl, err)
	}
	if err != nil {
		b.Fatal(err)
	}
	nb := &natureBench{flops: arch.ForwardFLOPs(batch, 4, 84, 84)}
	if !train {
		nb.vm = G.NewTapeMachine(g)
		// As an actor runs it: weights converted once per update (WeightsFixed), and
		// an update is hundreds of batches of actions away.
		WeightsFixed(g)
		nb.step = func() error {
			err := nb.vm.RunAll()
			nb.vm.Reset()
			return err
		}
		return nb
	}
	nb.flops *= 3
	r := G.NewMatrix(g, tensor.Float32, G.WithShape(batch, arch.Features), G.WithValue(randTensor(rng, tensor.Float32, batch, arch.Features)), G.WithName("r"))
	loss := G.Must(G.Mean(G.Must(G.HadamardProd(feat, r))))
	if _, err := G.Grad(loss, params...); err != nil {
		b.Fatal(err)
	}
	nb.vm = G.NewTapeMachine(g, G.BindDualValues(params...))
	if fast {
		adam := optim.NewAdam(params, optim.AdamConfig{LR: 2.5e-4, Eps: 1e-5, MaxGradNorm: 0.5})
		nb.step = func() error {
			if err := nb.vm.RunAll(); err != nil {
				return err
			}
			nb.vm.Reset()
			_, err := adam.Step()
			return err
		}
		return nb
	}
	solver := G.NewAdamSolver(G.WithLearnRate(2.5e-4), G.WithEps(1e-5))
	nb.step = func() error {
		if err := nb.vm.RunAll(); err != nil {
			return err
		}
		nb.vm.Reset()
		return solver.Step(G.NodesToValueGrads(params))
	}
	return nb
}

// BenchmarkNatureCNN compares the Nature CNN built from the fused ops on the pure-Go
// kernels (go) and on oneDNN (onednn) with the same network from stock Gorgonia ops
// (stock), run one after the other in each round (-count N alternates them): a
// training step at batch 256 (forward, backward, Adam) and inference at batch 16 (the
// fused ops in inference mode, weights fixed as an actor's are), both with OpenBLAS installed; onednn-bf16 is oneDNN in
// bfloat16 (PrecisionBF16), skipped where the CPU has no fast bf16 kernels. Metrics:
// ms/step (wall) and cpu-ms/step (all threads), effective GFLOP/s (convolution and
// dense FLOPs: 2 x multiply-adds forward, 3 x that for a training step), the OpenBLAS
// sgemm rate of the same machine on all cores and the percentage of it reached
// (%sgemm), and the same per CPU second against single-threaded sgemm (%sgemm-cpu),
// which is the steadier figure when other processes share the cores. Run with
// -benchtime 5x: a stock training step takes seconds.
func BenchmarkNatureCNN(b *testing.B) {
	benchCNN(b, &NatureArch, []string{"go", "onednn", "onednn-bf16", "stock"})
}

// BenchmarkSmallCNN is BenchmarkNatureCNN for the small torso (SmallArch), on the go
// and onednn kernels.
func BenchmarkSmallCNN(b *testing.B) {
	benchCNN(b, &SmallArch, []string{"go", "onednn", "onednn-bf16"})
}

// BenchmarkSmallCNNShards asks whether a training step of the small torso at batch 256
// on oneDNN would use two cores better split in two: "team" is one step on an OpenMP
// team of GOMAXPROCS threads; "shards" is GOMAXPROCS steps of 256/GOMAXPROCS rows at
// once, one goroutine each, each layer on a team of one, each goroutine looping on its
// own so that nothing waits for anything. Both report wall and CPU time per 256 rows
// (-benchtime 200x or more).
func BenchmarkSmallCNNShards(b *testing.B) {
	if err := dnnl.Load(); err != nil {
		b.Skipf("oneDNN is not available: %v", err)
	}
	counts := []int{1}
	if n := runtime.GOMAXPROCS(0); n > 1 {
		counts = append(counts, n)
	}
	for _, shards := range counts {
		name, threads := "team", 0
		if shards > 1 {
			name, threads = "shards", 1
		}
		b.Run(name, func(b *testing.B) {
			nbs := make([]*natureBench, shards)
			for i := range nbs {
				nbs[i] = newNatureBenchThreads(b, &SmallArch, "onednn", true, 256/shards, threads)
				defer nbs[i].vm.Close()
				if err := nbs[i].step(); err != nil {
					b.Fatal(err)
				}
			}
			steps := b.N
			cpu0, t0 := cpuTime(), time.Now()
			var wg sync.WaitGroup
			errs := make([]error, shards)
			for i, nb := range nbs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range steps {
						if err := nb.step(); err != nil {
							errs[i] = err
							return
						}
					}
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(time.Since(t0).Seconds()/float64(steps)*1e3, "ms/step")
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(steps)*1e3, "cpu-ms/step")
		})
	}
}

func benchCNN(b *testing.B, arch *CNNArch, impls []string) {
	if blas.Use() != "openblas" {
		b.Log("OpenBLAS missing: numbers are for gonum's pure-Go BLAS")
	}
	base, baseCPU := sgemmBaseline()
	cases := []struct {
		name  string
		train bool
		batch int
	}{
		{"train-b256", true, 256},
		{"infer-b16", false, 16},
	}
	for _, c := range cases {
		for _, impl := range impls {
			b.Run(c.name+"/"+impl, func(b *testing.B) {
				if strings.HasPrefix(impl, "onednn") && dnnl.Load() != nil {
					b.Skipf("oneDNN is not available: %v", dnnl.Load())
				}
				nb := newNatureBench(b, arch, impl, c.train, c.batch)
				defer nb.vm.Close()
				if err := nb.step(); err != nil { // warm up: the first run allocates
					b.Fatal(err)
				}
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					if err := nb.step(); err != nil {
						b.Fatal(err)
					}
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				cpuSec := (cpuTime() - cpu0).Seconds() / float64(b.N)
				b.ReportMetric(sec*1e3, "ms/step")
				b.ReportMetric(cpuSec*1e3, "cpu-ms/step")
				b.ReportMetric(nb.flops/sec/1e9, "GFLOP/s")
				if base > 0 {
					b.ReportMetric(base, "sgemm-GFLOP/s")
					b.ReportMetric(100*nb.flops/sec/1e9/base, "%sgemm")
				}
				if baseCPU > 0 && cpuSec > 0 {
					b.ReportMetric(baseCPU, "sgemm1-GFLOP/cpu-s")
					b.ReportMetric(100*nb.flops/cpuSec/1e9/baseCPU, "%sgemm-cpu")
				}
			})
		}
	}
}
