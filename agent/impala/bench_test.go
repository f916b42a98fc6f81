package impala

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rlpool/rlpool/agent/blas"
	"github.com/rlpool/rlpool/envpool"
)

// BenchmarkLearnerStepNatureCNN times one learner step at the Pong settings (T = 20,
// B = 32: the Nature CNN forward and backward on 672 stacked 84x84 frames, V-trace, the
// loss and an RMSProp step), without actors. Learner frames/s = 4 x 640 / (s/op).
// It uses OpenBLAS when agent/blas finds it, as the train command does.
func BenchmarkLearnerStepNatureCNN(b *testing.B) {
	b.Logf("BLAS: %s", blas.Use())
	spec := envpool.Spec{TaskID: "Bench-v0", ObsSpace: envpool.UniformBox(0, 255, envpool.Uint8, 4, 84, 84),
		ActionSpace: envpool.DiscreteSpace(6), FrameSkip: 4, RewardThreshold: math.NaN()}
	s := guessSetup(true, nil)
	s.Spec, s.IMPALA = spec, DefaultConfig()
	l, err := newLearner(s)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range l.graph.obsU8 {
		l.graph.obsU8[i] = uint8(rng.IntN(256))
	}
	for i := range l.st.action {
		l.st.action[i] = rng.IntN(6)
		l.st.reward[i] = float64(rng.IntN(3) - 1)
		l.st.discount[i] = 0.99
		l.st.logMu[i] = math.Log(1.0 / 6)
	}
	b.ResetTimer()
	for range b.N {
		if err := l.m.RunAll(); err != nil {
			b.Fatal(err)
		}
		if _, err := l.opt.Step(); err != nil {
			b.Fatal(err)
		}
		l.m.Reset()
	}
	b.ReportMetric(float64(b.N*l.st.T*l.st.B*4)/b.Elapsed().Seconds(), "frames/s")
}
