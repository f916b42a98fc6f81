package atari

import (
	"errors"
	"os"
	"testing"
)

// romDirOrSkip returns $RLPOOL_ROMS or skips.
func romDirOrSkip(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(ROMEnv)
	if dir == "" {
		tb.Skipf("set %s to a folder of ALE's ROMs to run the games", ROMEnv)
	}
	return dir
}

// TestPlayEveryGame builds every game of the table on the real console and plays it
// with random minimal actions: no emulator error, the right screen size, a working
// mode selection, and game overs followed by resets where they happen.
func TestPlayEveryGame(t *testing.T) {
	dir := romDirOrSkip(t)
	frames := 2000
	if testing.Short() {
		frames = 300
	}
	for _, name := range GameNames() {
		t.Run(name, func(t *testing.T) {
			rom, err := FindROM(name, dir)
			if errors.Is(err, ErrROMNotFound) {
				// Most of ALE's ROMs are not distributed with rlpool; play those there are.
				t.Skipf("no ROM of %s in %s", name, dir)
			}
			if err != nil {
				t.Fatal(err)
			}
			a, err := NewALE(rom.Data, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			// The height is the property's unless the console detected a PAL ROM,
			// where ALE's 210 becomes 250 (Klax is the PAL release).
			g := a.Game()
			wantHeight := g.Props.height()
			if a.Console().PAL() && wantHeight == DefaultHeight {
				wantHeight = 250
			}
			if got, want := len(a.Screen()), ScreenWidth*wantHeight; got != want || a.ScreenHeight() != wantHeight {
				t.Errorf("screen %d bytes, height %d; want %d bytes, height %d", got, a.ScreenHeight(), want, wantHeight)
			}
			if name == "klax" && a.Console().Peek(0xF0EA) != 0 {
				t.Errorf("klax mode byte $F0EA = %d after reset, want mode 0", a.Console().Peek(0xF0EA))
			}
			actions := a.MinimalActionSet()
			s := xorshift64(99)
			total, episodes := 0, 0
			for range frames {
				if a.GameOver() {
					episodes++
					if err := a.ResetGame(); err != nil {
						t.Fatal(err)
					}
				}
				r, err := a.Act(int(actions[s.next()%uint64(len(actions))]))
				if err != nil {
					t.Fatalf("frame %d: %v", a.Frame(), err)
				}
				total += r
			}
			t.Logf("%s: %d frames, %d game overs, total reward %d, lives %d, scheme %s, PAL %v, %d rows", name, frames, episodes, total, a.Lives(), a.Console().Scheme(), a.Console().PAL(), a.ScreenHeight())
		})
	}
}

// BenchmarkAct measures ALE frames per second of Pong, Breakout and Space Invaders
// with random minimal actions (compare with ALE's figures in testdata/atari/README.md).
func BenchmarkAct(b *testing.B) {
	dir := romDirOrSkip(b)
	for _, name := range []string{"pong", "breakout", "space_invaders"} {
		b.Run(name, func(b *testing.B) {
			rom, err := FindROM(name, dir)
			if err != nil {
				b.Fatal(err)
			}
			a, err := NewALE(rom.Data, Options{})
			if err != nil {
				b.Fatal(err)
			}
			actions := a.MinimalActionSet()
			s := xorshift64(1)
			b.ResetTimer()
			for b.Loop() {
				if a.GameOver() {
					b.StopTimer()
					if err := a.ResetGame(); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				if _, err := a.Act(int(actions[s.next()%uint64(len(actions))])); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}
