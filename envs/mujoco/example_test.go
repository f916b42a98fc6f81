package mujoco_test

import (
	"fmt"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	_ "github.com/rlpool/rlpool/envs/mujoco"
)

// A pool of Ant-v4 envs: 8 envs stepped by 2 threads, batches of the first 4 to finish.
// Constructor options of Gymnasium's AntEnv go in Family (a config's env.options).
func Example() {
	pool, err := envs.Make("Ant-v4", envs.Options{
		Options: envpool.Options{NumEnvs: 8, BatchSize: 4, NumThreads: 2, Seed: 1},
		Family:  map[string]any{"ctrl_cost_weight": 0.5, "healthy_z_range": []any{0.2, 1.0}},
	})
	if err != nil {
		fmt.Println(err) // names the Debian package when libmujoco is missing
		return
	}
	defer pool.Close()
	batch, _ := pool.Reset()
	actions := make([]float32, batch.Size*pool.Spec().ActionSpace.Size())
	for range 10 {
		batch, _ = pool.Step(actions, batch.EnvID) // step the envs that just returned
	}
	fmt.Println(pool.Spec().ObsSpace, pool.Spec().ActionSpace)
}
