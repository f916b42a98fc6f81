package atari

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// processCPU returns the process's user+system CPU time, so rates can be judged on a
// shared machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchEnv steps one env of a game with EnvPool's defaults and pseudo-random actions
// (Step and Observe, resets included) and reports emulator frames per CPU second.
func benchEnv(b *testing.B, game string, mutate func(*EnvConfig), renderAll bool) {
	dir := os.Getenv(ROMEnv)
	if dir == "" {
		b.Skipf("set %s to a folder of ALE's ROMs", ROMEnv)
	}
	rom, err := FindROM(game, dir)
	if err != nil {
		b.Skip(err)
	}
	cfg := DefaultEnvConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	e, err := NewEnv(rom.Data, cfg, 1)
	if err != nil {
		b.Fatal(err)
	}
	e.renderAll = renderAll
	spec := cfg.Spec("bench", rom.Game)
	obs := envpool.Obs{U8: make([]uint8, spec.ObsSpace.Size())}
	info := make([]float32, 6+ramBytes)
	e.Reset()
	e.Observe(obs, info)
	s := uint64(12345)
	act := []float32{0}
	frames := 0
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		act[0] = float32(s % uint64(spec.ActionSpace.N))
		f0 := e.ale.EpisodeFrame()
		r := e.Step(act)
		frames += e.ale.EpisodeFrame() - f0
		e.Observe(obs, info)
		if r.Terminated || r.Truncated {
			e.Reset()
			e.Observe(obs, info)
		}
	}
	cpu := processCPU() - cpu0
	b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
	if cpu > 0 {
		b.ReportMetric(float64(frames)/cpu.Seconds(), "frames/cpu-s")
	}
}

// BenchmarkEnvPong is Pong-v5 with EnvPool's defaults: pixels only for observed frames.
func BenchmarkEnvPong(b *testing.B) { benchEnv(b, "pong", nil, false) }

// BenchmarkEnvPongRenderAll draws every frame, as ALE does: the saving of drawing only
// observed frames is the difference from BenchmarkEnvPong.
func BenchmarkEnvPongRenderAll(b *testing.B) { benchEnv(b, "pong", nil, true) }

// BenchmarkEnvBreakout is Breakout-v5 with EnvPool's defaults.
func BenchmarkEnvBreakout(b *testing.B) { benchEnv(b, "breakout", nil, false) }

// BenchmarkEnvPongRGB is Pong-v5 with RGB observations.
func BenchmarkEnvPongRGB(b *testing.B) {
	benchEnv(b, "pong", func(c *EnvConfig) { c.GrayScale = false }, false)
}

// BenchmarkPoolPong steps a Pong-v5 pool as `train bench -task Pong-v5 -num-envs 12
// -batch-size 4 -threads 2` does (async, random actions) and reports emulator frames
// per second of wall time and per CPU second of the process, the latter being what
// a loaded machine cannot distort much.
func BenchmarkPoolPong(b *testing.B) {
	if os.Getenv(ROMEnv) == "" {
		b.Skipf("set %s to a folder of ALE's ROMs", ROMEnv)
	}
	pool, err := envs.Make("Pong-v5", envs.Options{Options: envpool.Options{NumEnvs: 12, BatchSize: 4, NumThreads: 2, Seed: 1}})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	batch, err := pool.Reset()
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]int32, 4)
	acts := make([]float32, 4)
	s := uint64(99)
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		copy(ids, batch.EnvID)
		for j := range acts {
			s ^= s << 13
			s ^= s >> 7
			s ^= s << 17
			acts[j] = float32(s % 6)
		}
		if batch, err = pool.Step(acts, ids); err != nil {
			b.Fatal(err)
		}
	}
	cpu := processCPU() - cpu0
	frames := float64(b.N * 4 * 4)
	b.ReportMetric(frames/b.Elapsed().Seconds(), "frames/s")
	if cpu > 0 {
		b.ReportMetric(frames/cpu.Seconds(), "frames/cpu-s")
	}
}
