package vcs

import (
	"testing"
)

// frameRecord is what the round-trip tests compare after each frame.
type frameRecord struct {
	ram    [128]byte
	screen uint64
	lines  int
}

// runActions plays actions frame by frame through an ALE driver and records each frame.
func runActions(t *testing.T, d *aleDriver, actions []int) []frameRecord {
	t.Helper()
	out := make([]frameRecord, len(actions))
	for i, a := range actions {
		if err := d.emulate(a, 1); err != nil {
			t.Fatal(err)
		}
		out[i] = frameRecord{*d.c.RAM(), fnv1a64(d.c.Screen()), d.c.Scanlines()}
	}
	return out
}

func randomActions(n int, set []int, seed uint64) []int {
	out := make([]int, n)
	for i := range out {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		out[i] = set[seed%uint64(len(set))]
	}
	return out
}

// TestSaveLoadRoundTrip saves mid-game, plays on, restores and replays: every frame
// (RAM, screen, scanlines) must repeat exactly. It covers the cartridges with state:
// plain, F8, Superchip, E0, FE and DPC.
func TestSaveLoadRoundTrip(t *testing.T) {
	dir := romDir(t)
	_ = dir
	for _, game := range []string{"pong", "breakout", "space_invaders", "ms_pacman", "elevator_action", "montezuma_revenge", "robotank", "pitfall2", "klax"} {
		t.Run(game, func(t *testing.T) {
			d := newDriver(t, game)
			c := d.c
			all := []int{0, 1, 2, 3, 4, 5, 11, 12}
			runActions(t, d, randomActions(200, all, 7))
			var s State
			c.Save(&s)
			paddle := d.paddle
			after := randomActions(120, all, 99)
			want := runActions(t, d, after)
			c.Load(&s)
			d.paddle = paddle
			got := runActions(t, d, after)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("frame %d after Load differs", i)
				}
			}
			if n := testing.AllocsPerRun(20, func() {
				c.Save(&s)
				c.Load(&s)
				_ = c.RunFrame()
			}); n != 0 {
				t.Errorf("%v allocations per Save+Load+RunFrame, want 0", n)
			}
		})
	}
}

// TestRenderDisabled checks that frames run with rendering off give the same RAM (and
// collisions) as with rendering on, and identical screens once rendering is back on.
func TestRenderDisabled(t *testing.T) {
	for _, game := range []string{"pong", "breakout", "space_invaders", "pitfall2"} {
		t.Run(game, func(t *testing.T) {
			cfg := gameConfig(game)
			rom := loadROM(t, game+".bin")
			var ds [2]*aleDriver
			for k := range ds {
				c, err := NewConsole(rom, cfg)
				if err != nil {
					t.Fatal(err)
				}
				ds[k] = &aleDriver{c: c, game: game, paddles: cfg.Paddles}
				if err := ds[k].resetGame(); err != nil {
					t.Fatal(err)
				}
			}
			acts := randomActions(600, []int{0, 1, 3, 4, 11, 12}, 5)
			for i, a := range acts {
				ds[1].c.SetRenderEnabled(i < 100 || i >= 400)
				for _, d := range ds {
					if err := d.emulate(a, 1); err != nil {
						t.Fatal(err)
					}
				}
				if *ds[0].c.RAM() != *ds[1].c.RAM() || ds[0].c.tia.collision != ds[1].c.tia.collision {
					t.Fatalf("frame %d: RAM or collisions differ with rendering off", i)
				}
				if (i < 100 || i >= 402) && fnv1a64(ds[0].c.Screen()) != fnv1a64(ds[1].c.Screen()) {
					t.Fatalf("frame %d: screens differ with rendering on", i)
				}
			}
		})
	}
}

// TestRunFrameAllocs checks that steady-state frames allocate nothing.
func TestRunFrameAllocs(t *testing.T) {
	c, err := NewConsole(idleROM(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(50, func() { _ = c.RunFrame() }); n != 0 {
		t.Errorf("%v allocations per frame", n)
	}
}

// TestDeferredDrawingExact runs every test ROM with random inputs twice, once drawing at
// every TIA access as Stella does and once with the port's draw deferral, and requires
// identical RAM, screens, collisions and TIA state after every frame.
func TestDeferredDrawingExact(t *testing.T) {
	for _, game := range []string{"pong", "breakout", "space_invaders", "carnival", "ms_pacman", "elevator_action",
		"road_runner", "klax", "montezuma_revenge", "robotank", "pitfall2"} {
		t.Run(game, func(t *testing.T) {
			cfg := gameConfig(game)
			rom := loadROM(t, game+".bin")
			var ds [2]*aleDriver
			for k := range ds {
				c, err := NewConsole(rom, cfg)
				if err != nil {
					t.Fatal(err)
				}
				c.tia.eager = k == 0
				ds[k] = &aleDriver{c: c, game: game, paddles: cfg.Paddles}
			}
			acts := randomActions(400, []int{0, 1, 2, 3, 4, 5, 10, 11, 12, 13}, 11)
			for i, a := range acts {
				if i%150 == 0 {
					for _, d := range ds {
						if err := d.resetGame(); err != nil {
							t.Fatal(err)
						}
					}
				}
				for _, d := range ds {
					if err := d.emulate(a, 1); err != nil {
						t.Fatal(err)
					}
				}
				e, l := ds[0].c.tia, ds[1].c.tia
				if *ds[0].c.RAM() != *ds[1].c.RAM() || fnv1a64(ds[0].c.Screen()) != fnv1a64(ds[1].c.Screen()) ||
					e.collision != l.collision || e.framePtr != l.framePtr || e.lastUpdate != l.lastUpdate ||
					e.posm0 != l.posm0 || e.p0Mask.off != l.p0Mask.off || e.hmoveBlank != l.hmoveBlank {
					t.Fatalf("frame %d: deferred drawing differs from eager drawing", i)
				}
			}
		})
	}
}
