package envs_test

import (
	"fmt"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	_ "github.com/rlpool/rlpool/envs/classic"
)

// An async pool: 8 CartPoles, batches of the first 4 to finish.
func ExampleMake() {
	pool, err := envs.Make("CartPole-v1", envs.Options{Options: envpool.Options{
		NumEnvs: 8, BatchSize: 4, NumThreads: 2, Seed: 1,
	}})
	if err != nil {
		panic(err)
	}
	defer pool.Close()
	if err := pool.AsyncReset(); err != nil {
		panic(err)
	}
	steps := 0
	for range 100 {
		b, err := pool.Recv()
		if err != nil {
			panic(err)
		}
		actions := make([]float32, b.Size)
		for i := range b.Size {
			if b.RowF32(i)[2] > 0 { // push towards the side the pole leans to
				actions[i] = 1
			}
		}
		steps += b.Size
		if err := pool.Send(actions, b.EnvID); err != nil {
			panic(err)
		}
	}
	fmt.Println(pool.Spec().ObsSpace, pool.Spec().ActionSpace, steps)
	// Output: Box([4], float32) Discrete(2) 400
}
