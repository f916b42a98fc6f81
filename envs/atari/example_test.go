package atari_test

import (
	"fmt"
	"log"

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
