package vcs

import (
	"reflect"
	"testing"
)

// TestLoopSkipsAreExact runs each game twice from the same reset with the same random
// actions, once with the loop skips (timer waits, delay loops) and once without (the
// CPU executing every iteration), and requires the whole machine state to be equal
// after every frame: registers, cycle counter, RIOT timer state, TIA state and both
// screens. All three games run such loops every frame, so the skips must have fired.
// Then both consoles run on in chunks of 97 instructions, which end at arbitrary points
// inside and after wait loops, where a wrong cycle count would show before a WSYNC
// could realign it.
func TestLoopSkipsAreExact(t *testing.T) {
	for _, game := range []string{"breakout", "space_invaders", "pong"} {
		t.Run(game, func(t *testing.T) {
			rom := loadROM(t, game+".bin")
			cfg := gameConfig(game)
			var drivers [2]*aleDriver
			for i := range drivers {
				c, err := NewConsole(rom, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if i == 1 {
					c.cpu.noSkip = true
				}
				drivers[i] = &aleDriver{c: c, game: game, paddles: cfg.Paddles}
				if err := drivers[i].resetGame(); err != nil {
					t.Fatal(err)
				}
			}
			acts := randomActions(600, []int{0, 1, 3, 4, 11, 12}, 7)
			var s [2]State
			for f, a := range acts {
				for i, d := range drivers {
					if err := d.emulate(a, 1); err != nil {
						t.Fatal(err)
					}
					d.c.Save(&s[i])
				}
				if !reflect.DeepEqual(s[0], s[1]) {
					t.Fatalf("frame %d: states differ with and without the loop skips\nskip:    %+v\nno skip: %+v", f, s[0].cpu, s[1].cpu)
				}
			}
			for k := 0; k < 20000; k++ {
				for i, d := range drivers {
					if _, err := d.c.cpu.Run(97); err != nil {
						t.Fatal(err)
					}
					d.c.Save(&s[i])
				}
				if !reflect.DeepEqual(s[0], s[1]) {
					t.Fatalf("chunk %d: states differ with and without the loop skips\nskip:    %+v\nno skip: %+v", k, s[0].cpu, s[1].cpu)
				}
			}
			if n := drivers[0].c.cpu.skippedIters; n < uint64(len(acts)) {
				t.Errorf("only %d loop iterations skipped in %d frames", n, len(acts))
			} else {
				t.Logf("%d loop iterations skipped in %d frames", n, len(acts))
			}
		})
	}
}
