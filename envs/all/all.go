// Package all links every environment family into a binary: import it for its side
// effect of registering the families' tasks with package envs.
package all

import (
	_ "github.com/rlpool/rlpool/envs/atari"            // the Atari tasks, <Game>-v5 (needs ALE's ROMs: train roms import DIR)
	_ "github.com/rlpool/rlpool/envs/box2d"            // LunarLander, BipedalWalker, CarRacing (pure Go Box2D)
	_ "github.com/rlpool/rlpool/envs/classic"          // CartPole, Acrobot, MountainCar, Pendulum
	_ "github.com/rlpool/rlpool/envs/minigrid"         // MiniGrid-*-v0/v1 and BabyAI-*: minigrid's grid worlds
	_ "github.com/rlpool/rlpool/envs/mujoco"           // Gymnasium's MuJoCo tasks, v4 and v5 (needs libmujoco2.2.2 at run time)
	_ "github.com/rlpool/rlpool/envs/mujoco/dmc"       // the DeepMind Control Suite, <Domain><Task>-v1 (libmujoco2.2.2 too)
	_ "github.com/rlpool/rlpool/envs/mujoco/metaworld" // MetaWorld/<Task>-v3: MetaWorld v3's Sawyer tasks (libmujoco2.2.2 too)
	_ "github.com/rlpool/rlpool/envs/toytext"          // FrozenLake, Taxi, CliffWalking, Blackjack, Catch, NChain

	// Gymnasium-Robotics, on libmujoco2.2.2 too.
	_ "github.com/rlpool/rlpool/envs/mujoco/robotics/adroit"    // AdroitHand{Door,Hammer,Pen,Relocate}[Sparse]-v1
	_ "github.com/rlpool/rlpool/envs/mujoco/robotics/fetch"     // Fetch{Reach,Push,Slide,PickAndPlace}[Dense]-v1/v4
	_ "github.com/rlpool/rlpool/envs/mujoco/robotics/hand"      // the Shadow hand: HandReach*, HandManipulate{Block,Egg,Pen}*
	_ "github.com/rlpool/rlpool/envs/mujoco/robotics/kitchen"   // FrankaKitchen-v1
	_ "github.com/rlpool/rlpool/envs/mujoco/robotics/pointmaze" // PointMaze_*-v3
)
