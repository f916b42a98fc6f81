package ppo

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/blas"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/agent/optim"
	"github.com/rlpool/rlpool/envpool"
)

// BenchmarkPPOMinibatchStep is one PPO minibatch update as agent/ppo runs it (the loss
// graph's forward and backward pass, global-norm clipping and Adam) for a 64-64 tanh
// actor-critic on a 4-dim observation with 2 actions (CartPole) at minibatch 256, and
// for MuJoCo-sized inputs (obs 27, 8-dim Gaussian) at minibatch 2048, with OpenBLAS and
// with gonum's pure-Go BLAS installed in Gorgonia.
func BenchmarkPPOMinibatchStep(b *testing.B) {
	im, loadErr := blas.Load()
	defer G.Use(G.WhichBLAS())
	shapes := []struct {
		name  string
		obs   int
		space envpool.Space
		m     int
	}{
		{"cartpole-256", 4, envpool.DiscreteSpace(2), 256},
		{"ant-2048", 27, envpool.UniformBox(-1, 1, envpool.Float32, 8), 2048},
	}
	for _, sh := range shapes {
		for _, lib := range []struct {
			name string
			impl G.BLAS
		}{{"openblas", im}, {"gonum", gonum.Implementation{}}} {
			b.Run(sh.name+"/"+lib.name, func(b *testing.B) {
				if lib.name == "openblas" && loadErr != nil {
					b.Skip("OpenBLAS not available: ", loadErr)
				}
				G.Use(lib.impl)
				spec := envpool.Spec{TaskID: "bench", ObsSpace: envpool.UniformBox(-1, 1, envpool.Float32, sh.obs), ActionSpace: sh.space}
				p, err := model.NewPolicy(&spec, model.DefaultNetConfig(), tensor.Float32)
				if err != nil {
					b.Fatal(err)
				}
				l, err := buildLoss(p, DefaultConfig(), sh.m, tensor.Float32)
				if err != nil {
					b.Fatal(err)
				}
				vm := G.NewTapeMachine(l.g, G.BindDualValues(l.pn.Params...))
				defer vm.Close()
				rng := rand.New(rand.NewPCG(1, 1))
				p.Init(rng)
				for _, d := range []*tensor.Dense{l.obs, l.adv, l.ret} {
					x := d.Data().([]float32)
					for i := range x {
						x[i] = float32(rng.NormFloat64())
					}
				}
				act := l.act.Data().([]float32)
				for i := 0; i < sh.m; i++ {
					act[i*p.ActDim+i%p.ActDim] = 1
				}
				opt := optim.NewAdam(l.pn.Params, optim.AdamConfig{LR: 1e-4, Eps: 1e-5, MaxGradNorm: 0.5})
				step := func() {
					if err := vm.RunAll(); err != nil {
						b.Fatal(err)
					}
					if _, err := opt.Step(); err != nil {
						b.Fatal(err)
					}
					vm.Reset()
				}
				step()
				start, cpu0 := time.Now(), cpuTime()
				for b.Loop() {
					step()
				}
				b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/step")
				b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1e3/float64(b.N), "cpu-ms/step")
			})
		}
	}
}

// cpuTime is the process's user+system CPU time: on a shared machine CPU time per step
// is steadier than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
