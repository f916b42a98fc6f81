package vcs

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's user+system CPU time, so frame rates can be judged on a
// loaded machine (wall-clock rates fall when other processes share the cores).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchGame runs one game frame by frame with a random minimal action per frame and a
// grayscale conversion of the screen each frame (as ALE's benchmark reads the screen).
// Game resets are not timed.
func benchGame(b *testing.B, game string, actions []int, over func(ram *[128]byte, started *bool) bool) {
	rom := loadROM(b, game+".bin")
	cfg := gameConfig(game)
	c, err := NewConsole(rom, cfg)
	if err != nil {
		b.Fatal(err)
	}
	d := &aleDriver{c: c, game: game, paddles: cfg.Paddles}
	if err := d.resetGame(); err != nil {
		b.Fatal(err)
	}
	gray := make([]byte, 160*210)
	s := uint64(12345)
	started := false
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	var resetCPU time.Duration
	for i := 0; i < b.N; i++ {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		if err := d.emulate(actions[s%uint64(len(actions))], 1); err != nil {
			b.Fatal(err)
		}
		GrayscaleScreen(gray, c.Screen())
		if over != nil && over(c.RAM(), &started) {
			b.StopTimer()
			r0 := cpuTime()
			started = false
			if err := d.resetGame(); err != nil {
				b.Fatal(err)
			}
			resetCPU += cpuTime() - r0
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	if cpu := cpuTime() - cpu0 - resetCPU; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "frames/cpu-s")
	}
}

// BenchmarkFramePong measures Pong frames per second (random actions, screen read).
func BenchmarkFramePong(b *testing.B) {
	benchGame(b, "pong", []int{0, 1, 3, 4, 11, 12}, func(ram *[128]byte, _ *bool) bool {
		return ram[13] >= 21 || ram[14] >= 21
	})
}

// BenchmarkFrameBreakout measures Breakout frames per second.
func BenchmarkFrameBreakout(b *testing.B) {
	benchGame(b, "breakout", []int{0, 1, 3, 4}, func(ram *[128]byte, started *bool) bool {
		lives := ram[57]
		if lives == 5 {
			*started = true
		}
		return *started && lives == 0
	})
}

// BenchmarkFrameSpaceInvaders measures Space Invaders frames per second.
func BenchmarkFrameSpaceInvaders(b *testing.B) {
	benchGame(b, "space_invaders", []int{0, 1, 3, 4, 11, 12}, func(ram *[128]byte, _ *bool) bool {
		return ram[0x98-0x80]&0x80 != 0 || ram[0xC9-0x80] == 0
	})
}

// benchReplay replays the same 200 frames from a saved state each iteration and reports
// the process CPU time per frame: a steadier figure than wall time on a shared machine.
func benchReplay(b *testing.B, game string) {
	rom := loadROM(b, game+".bin")
	cfg := gameConfig(game)
	c, err := NewConsole(rom, cfg)
	if err != nil {
		b.Fatal(err)
	}
	d := &aleDriver{c: c, game: game, paddles: cfg.Paddles}
	if err := d.resetGame(); err != nil {
		b.Fatal(err)
	}
	acts := randomActions(300, []int{0, 1, 3, 4, 11, 12}, 3)
	for _, a := range acts[:100] {
		if err := d.emulate(a, 1); err != nil {
			b.Fatal(err)
		}
	}
	var s State
	c.Save(&s)
	p := d.paddle
	b.ReportAllocs()
	b.ResetTimer()
	t0 := cpuTime()
	for i := 0; i < b.N; i++ {
		c.Load(&s)
		d.paddle = p
		for _, a := range acts[100:] {
			if err := d.emulate(a, 1); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64((cpuTime()-t0).Nanoseconds())/1e3/float64(b.N*200), "cpu-us/frame")
}

// BenchmarkReplayPong replays 200 Pong frames per iteration (emulation only).
func BenchmarkReplayPong(b *testing.B) { benchReplay(b, "pong") }

// BenchmarkReplayBreakout replays 200 Breakout frames per iteration.
func BenchmarkReplayBreakout(b *testing.B) { benchReplay(b, "breakout") }

// BenchmarkReplaySpaceInvaders replays 200 Space Invaders frames per iteration.
func BenchmarkReplaySpaceInvaders(b *testing.B) { benchReplay(b, "space_invaders") }
