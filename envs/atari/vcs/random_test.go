package vcs

import "testing"

// TestRandomVectors checks the MT19937 against known outputs: the reference
// implementation's default seed 5489 (whose 10000th output C++ requires of
// std::mt19937), and ALE's system seed 4753849
// (docs/design/emulator.md, Construction, reset and randomness), whose draw 129 comes
// after the 128 RIOT RAM bytes. Outputs past the 624th check the twist of an already
// twisted state.
func TestRandomVectors(t *testing.T) {
	tests := []struct {
		seed uint32
		draw int // 1-based index of the first wanted output
		want []uint32
	}{
		{5489, 1, []uint32{3499211612}},
		{5489, 10000, []uint32{4123659995}},
		{4753849, 1, []uint32{3205607096, 2794184854, 4236690624, 2047087177}},
		{4753849, 129, []uint32{2754823758}},
	}
	for _, tc := range tests {
		r := NewRandom(tc.seed)
		for range tc.draw - 1 {
			r.Next()
		}
		for i, want := range tc.want {
			if got := r.Next(); got != want {
				t.Errorf("seed %d: output %d = %d, want %d", tc.seed, tc.draw+i, got, want)
			}
		}
	}
}

// TestRandomSeedRestarts checks that Seed restarts the sequence, that a zero Random
// seeded with Seed equals NewRandom, and that a copied Random continues independently
// (the console's State and the atari package's env structs hold Randoms by value).
func TestRandomSeedRestarts(t *testing.T) {
	var r Random
	r.Seed(7)
	first := make([]uint32, 700)
	for i := range first {
		first[i] = r.Next()
	}
	r.Seed(7)
	fresh := NewRandom(7)
	for i, want := range first {
		if got, gotFresh := r.Next(), fresh.Next(); got != want || gotFresh != want {
			t.Fatalf("seed 7 output %d: reseeded %d, NewRandom %d, want %d", i+1, got, gotFresh, want)
		}
	}
	r.Seed(7)
	for range 300 {
		r.Next()
	}
	saved := r
	for range 500 {
		r.Next()
	}
	for i, want := range first[300:] {
		if got := saved.Next(); got != want {
			t.Fatalf("copy taken after 300 draws: output %d = %d, want %d", 301+i, got, want)
		}
	}
}

// TestRandomNextDouble checks that NextDouble is the next output divided by 2^32,
// which keeps it in [0, 1) (sticky actions compare it with the repeat probability).
func TestRandomNextDouble(t *testing.T) {
	raw, dbl := NewRandom(4753849), NewRandom(4753849)
	for i := range 2000 {
		want := float64(raw.Next()) / (1 << 32)
		d := dbl.NextDouble()
		if d != want || d < 0 || d >= 1 {
			t.Fatalf("draw %d: NextDouble %v, want %v in [0, 1)", i+1, d, want)
		}
	}
	if got := NewRandom(5489).NextDouble(); got != 3499211612.0/(1<<32) {
		t.Errorf("seed 5489: first NextDouble %v, want 3499211612 / 2^32", got)
	}
}

// TestRIOTRandomState checks the RIOT RAM bytes and the timer start values drawn by the
// constructor and the system resets
// (docs/design/emulator.md, Construction, reset and randomness).
func TestRIOTRandomState(t *testing.T) {
	con := &Console{cpu: &CPU{}}
	con.rng.Seed(4753849)
	r := newRIOT(con)
	first := []byte{0xB8, 0x96, 0xC0, 0x49, 0xCB, 0x55, 0xC8, 0x7F, 0xFB, 0xB4, 0x45, 0x66, 0x2B, 0x34, 0x10, 0xCA}
	last := []byte{0xAF, 0x99, 0x0D, 0x4B, 0xEC, 0x0A, 0xBA, 0x5E, 0xA7, 0xBD, 0xE6, 0xF7, 0xAB, 0x14, 0x6F, 0xC0}
	for i := range first {
		if r.RAM[i] != first[i] || r.RAM[112+i] != last[i] {
			t.Fatalf("RAM[%d]=%02X RAM[%d]=%02X, want %02X %02X", i, r.RAM[i], 112+i, r.RAM[112+i], first[i], last[i])
		}
	}
	if r.timer != 58 {
		t.Errorf("constructor timer %d, want 58", r.timer)
	}
	for _, want := range []uint32{51, 32, 74, 65, 64} {
		r.reset()
		if r.timer != want {
			t.Errorf("reset timer %d, want %d", r.timer, want)
		}
	}
}

// TestConsoleTimerDraws checks the same draw sequence through NewConsole and Reset for a
// cartridge without RAM: 58 (constructor), 51 (detection reset), 32 (final reset),
// then 74, 65, 64 for the following System resets.
func TestConsoleTimerDraws(t *testing.T) {
	c, err := NewConsole(idleROM(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if c.riot.timer != 32 {
		t.Errorf("timer after NewConsole %d, want 32", c.riot.timer)
	}
	for _, want := range []uint32{74, 65, 64} {
		c.Reset()
		if c.riot.timer != want {
			t.Errorf("timer after Reset %d, want %d", c.riot.timer, want)
		}
	}
}
