package atari_test

import (
	"fmt"
	"log"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/atari"
)

// Play Pong for one episode with a fixed action, the way an agent drives the ALE:
// agent action i is the game's MinimalActionSet()[i].
func ExampleNewALE() {
	rom, err := atari.FindROM("pong") // searched in $RLPOOL_ROMS, else ./roms
	if err != nil {
		log.Fatal(err) // names the md5 and folders, and says to run `train roms import DIR`
	}
	ale, err := atari.NewALE(rom.Data, atari.Options{RepeatActionProbability: 0.25, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	actions := ale.MinimalActionSet() // NOOP FIRE RIGHT LEFT RIGHTFIRE LEFTFIRE
	total := 0
	for !ale.GameOver() {
		r, err := ale.Act(int(actions[2]))
		if err != nil {
			log.Fatal(err)
		}
		total += r
	}
	fmt.Println("return", total, "after", ale.EpisodeFrame(), "frames")
}

// Build a Pong-v5 env with EnvPool's preprocessing (84x84 gray, 4 stacked frames,
// frame skip 4, noop starts, fire reset) and play random actions until the game ends.
// Pools do the same through envs.Make("Pong-v5", ...).
func ExampleNewEnv() {
	rom, err := atari.FindROM("pong")
	if err != nil {
		log.Fatal(err)
	}
	cfg := atari.DefaultEnvConfig()
	env, err := atari.NewEnv(rom.Data, cfg, 42)
	if err != nil {
		log.Fatal(err)
	}
	spec := cfg.Spec("Pong-v5", rom.Game)
	obs := envpool.Obs{U8: make([]uint8, spec.ObsSpace.Size())} // [4, 84, 84]
	info := make([]float32, spec.InfoWidth())
	env.Reset()
	score := float32(0)
	for step := 0; ; step++ {
		res := env.Step([]float32{float32(step % spec.ActionSpace.N)})
		env.Observe(obs, info)
		score += info[spec.InfoIndex("reward")]
		if res.Terminated || res.Truncated {
			break
		}
	}
	fmt.Println("score", score)
}
