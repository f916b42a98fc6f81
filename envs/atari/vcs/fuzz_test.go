package vcs

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadROM feeds arbitrary bytes to NewConsole and runs 100 frames: bad images must
// be errors and JAMs must be errors, never panics or hangs.
func FuzzLoadROM(f *testing.F) {
	if dir := os.Getenv("RLPOOL_ROMS"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	for _, size := range []int{0, 1, 2048, 4096, 8192, 10495, 16384, 32768, 5000} {
		b := make([]byte, size)
		rng.Read(b)
		f.Add(b)
	}
	f.Add(idleROM())
	f.Fuzz(func(t *testing.T, rom []byte) {
		runFuzzROM(rom)
		// Most mutations change the size; also run the bytes as a 4K image so the
		// CPU, TIA and RIOT see arbitrary programs.
		if len(rom) > 0 && len(rom) != 4096 {
			img := make([]byte, 4096)
			for i := range img {
				img[i] = rom[i%len(rom)]
			}
			runFuzzROM(img)
		}
	})
}

// runFuzzROM boots rom and runs 100 frames with the fire button held; errors end it.
func runFuzzROM(rom []byte) {
	c, err := NewConsole(rom, DefaultConfig())
	if err != nil {
		return
	}
	c.SetInput(Input{Fire: [2]bool{true, false}})
	for i := 0; i < 100; i++ {
		if err := c.RunFrame(); err != nil {
			return
		}
	}
}
