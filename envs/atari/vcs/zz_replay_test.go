package vcs

import "testing"

func benchReplay(b *testing.B, game string) {
	rom := loadROM(b, game+".bin")
	cfg := gameConfig(game)
	c, _ := NewConsole(rom, cfg)
	d := &aleDriver{c: c, game: game, paddles: cfg.Paddles}
	d.resetGame()
	acts := randomActions(300, []int{0, 1, 3, 4, 11, 12}, 3)
	for _, a := range acts[:100] {
		d.emulate(a, 1)
	}
	var s State
	c.Save(&s)
	p := d.paddle
	b.ResetTimer()
	t0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-t0).Microseconds())/float64(b.N*200), "cpu-us/frame") }()
	for i := 0; i < b.N; i++ {
		c.Load(&s)
		d.paddle = p
		for _, a := range acts[100:] {
			d.emulate(a, 1)
		}
	}
}

func BenchmarkZZReplayPong(b *testing.B)  { benchReplay(b, "pong") }
func BenchmarkZZReplayBreak(b *testing.B) { benchReplay(b, "breakout") }
func BenchmarkZZReplaySI(b *testing.B)    { benchReplay(b, "space_invaders") }
