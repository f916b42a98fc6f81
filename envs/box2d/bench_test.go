package box2d

import (
	"math/rand/v2"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

// BenchmarkStep measures one env step plus its observation, with random actions and a
// reset at each episode's end, for every task of the family.
func BenchmarkStep(b *testing.B) {
	for _, id := range ids {
		b.Run(id, func(b *testing.B) {
			env, spec := makeEnv(b, id, nil, 1)
			r := rand.New(rand.NewPCG(1, 1))
			f32 := make([]float32, spec.ObsSpace.Size())
			u8 := make([]uint8, spec.ObsSpace.Size())
			obs := envpool.Obs{F32: f32}
			if spec.ObsSpace.DType == envpool.Uint8 {
				obs = envpool.Obs{U8: u8}
			}
			env.Reset()
			b.ResetTimer()
			for range b.N {
				if env.Step(randomAction(r, spec.ActionSpace)).Terminated {
					env.Reset()
				}
				env.Observe(obs, nil)
			}
		})
	}
}
