package envpool

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// noopEnv does nothing, so a benchmark over it measures the pool's own cost.
type noopEnv struct{}

func (noopEnv) Reset()                       {}
func (noopEnv) Step([]float32) StepResult    { return StepResult{} }
func (noopEnv) Observe(obs Obs, _ []float32) { obs.F32[0] = 1 }
func noopFactory(int, int64) (Env, error)    { return noopEnv{}, nil }
func noopSpec() Spec {
	return Spec{TaskID: "Noop-v0", ObsSpace: UniformBox(0, 1, Float32, 4), ActionSpace: DiscreteSpace(2)}
}

// BenchmarkPoolOverhead reports the pool's cost per env step (ns/envstep) with a no-op
// env: sync and async modes, 64 envs, 2 worker threads.
func BenchmarkPoolOverhead(b *testing.B) {
	for _, c := range []struct{ envs, batch, threads int }{{64, 64, 2}, {64, 16, 2}, {64, 64, 1}} {
		b.Run(fmt.Sprintf("envs%d-batch%d-threads%d", c.envs, c.batch, c.threads), func(b *testing.B) {
			p, err := New(noopSpec(), noopFactory, Options{NumEnvs: c.envs, BatchSize: c.batch, NumThreads: c.threads})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			if err := p.AsyncReset(); err != nil {
				b.Fatal(err)
			}
			batch, _ := p.Recv()
			acts := make([]float32, c.batch)
			ids := make([]int32, c.batch)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				copy(ids, batch.EnvID)
				batch, err = p.Step(acts, ids)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*c.batch), "ns/envstep")
		})
	}
}

// BenchmarkAsyncVsLoop runs envs that burn 20 us per step through the async pool (2
// threads) and through a plain loop in this goroutine, side by side, and reports the
// ratio of their step rates. Each iteration is one full comparison (about 0.2 s); run it
// with -benchtime 5x and read the median ratio.
func BenchmarkAsyncVsLoop(b *testing.B) {
	const work = 20 * time.Microsecond
	const steps = 4000
	factory := countFactory(work)
	loopRate := func() float64 {
		envs := make([]Env, 8)
		for i := range envs {
			envs[i], _ = factory(i, int64(i))
			envs[i].Reset()
		}
		obs := Obs{F32: make([]float32, 4)}
		start := time.Now()
		for s := range steps {
			e := envs[s%len(envs)]
			if e.Step([]float32{1}).Terminated {
				e.Reset()
			}
			e.Observe(obs, nil)
		}
		return steps / time.Since(start).Seconds()
	}
	poolRate := func() float64 {
		p, err := New(countSpec(), factory, Options{NumEnvs: 8, BatchSize: 4, NumThreads: 2})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		p.AsyncReset()
		batch, _ := p.Recv()
		acts := []float32{1, 1, 1, 1}
		ids := make([]int32, 4)
		start := time.Now()
		for range steps / 4 {
			copy(ids, batch.EnvID)
			batch, _ = p.Step(acts, ids)
		}
		return steps / time.Since(start).Seconds()
	}
	var loops, pools, ratios []float64
	for range b.N {
		l, p := loopRate(), poolRate()
		loops, pools, ratios = append(loops, l), append(pools, p), append(ratios, p/l)
	}
	b.ReportMetric(medianOf(loops), "loop-steps/s")
	b.ReportMetric(medianOf(pools), "pool-steps/s")
	b.ReportMetric(medianOf(ratios), "ratio")
}

func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
