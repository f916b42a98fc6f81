// Package all links every environment family into a binary: import it for its side
// effect of registering the families' tasks with package envs.
package all

import (
	_ "github.com/rlpool/rlpool/envs/atari"   // the Atari tasks, <Game>-v5 (needs ALE's ROMs: train roms import DIR)
	_ "github.com/rlpool/rlpool/envs/classic" // CartPole, Acrobot, MountainCar, Pendulum
	_ "github.com/rlpool/rlpool/envs/mujoco"  // the Gymnasium v4 MuJoCo tasks (needs libmujoco2.2.2 at run time)
)
