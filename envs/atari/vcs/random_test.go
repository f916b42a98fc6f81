package vcs

import "testing"

// TestRandomVectors checks the MT19937 against the vectors of notes §1.2.
func TestRandomVectors(t *testing.T) {
	if got := NewRandom(5489).Next(); got != 3499211612 {
		t.Errorf("seed 5489: first output %d, want 3499211612", got)
	}
	r := NewRandom(4753849)
	for i, want := range []uint32{3205607096, 2794184854, 4236690624, 2047087177} {
		if got := r.Next(); got != want {
			t.Errorf("seed 4753849 output %d: %d, want %d", i, got, want)
		}
	}
}

// TestRIOTRandomState checks the RIOT RAM bytes and the timer start values drawn by the
// constructor and the system resets (notes §1.2).
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
