package vcs

import "testing"

// newTestRIOT returns a RIOT whose cycle counter the test sets through cpu.Cycles.
func newTestRIOT() (*riot, *CPU) {
	cpu := &CPU{}
	con := &Console{cpu: cpu}
	con.rng.Seed(1)
	return newRIOT(con), cpu
}

// TestRIOTTimer checks INTIM/TIMINT against values computed by hand from Stella's
// formulas (docs/design/emulator.md, The RIOT).
func TestRIOTTimer(t *testing.T) {
	r, cpu := newTestRIOT()
	cpu.Cycles = 100
	r.write(0x296, 10) // TIM64T = 10 at cycle 100
	type step struct {
		cycles        uint64
		intim, timint uint8
	}
	for _, s := range []step{
		{101, 9, 0},       // delta 0: 10 - 0 - 1
		{164, 9, 0},       // delta 63
		{165, 8, 0},       // delta 64
		{740, 0, 0},       // delta 639: 10 - 9 - 1
		{741, 0xFF, 0x80}, // delta 640: expired, (640 - 640 - 1) = -1 does not set the flag
		{742, 0xFE, 0},    // delta 641: flag set, irCycle 742, offset 2: 10 - 10 - 2
		{804, 0xFE, 0},    // delta 703
		{805, 0xFD, 0},    // delta 704: keeps counting down at the 64-cycle rate
	} {
		cpu.Cycles = s.cycles
		if got := r.read(0x284); got != s.intim {
			t.Errorf("cycle %d: INTIM %02X, want %02X", s.cycles, got, s.intim)
		}
		if got := r.timint(uint32(s.cycles)); got != s.timint {
			t.Errorf("cycle %d: TIMINT %02X, want %02X", s.cycles, got, s.timint)
		}
	}
	// A new write clears the flag; TIM1T counts every cycle.
	cpu.Cycles = 1000
	r.write(0x294, 5)
	for _, s := range []step{{1001, 4, 0}, {1005, 0, 0}, {1006, 0xFF, 0x80}, {1007, 0xFD, 0}, {1008, 0xFC, 0}} {
		cpu.Cycles = s.cycles
		if got := r.read(0x286); got != s.intim {
			t.Errorf("TIM1T cycle %d: INTIM %02X, want %02X", s.cycles, got, s.intim)
		}
		if got := r.read(0x285); got != s.timint {
			t.Errorf("TIM1T cycle %d: TIMINT %02X, want %02X", s.cycles, got, s.timint)
		}
	}
	// T1024T: shift 10; reading after rebasing keeps the same value.
	cpu.Cycles = 50
	r.write(0x297, 3)
	cpu.Cycles = 50 + 1024 + 1
	before := r.read(0x284)
	r.rebase(500)
	cpu.Cycles -= 500
	if after := r.read(0x284); before != 1 || after != before {
		t.Errorf("T1024T: INTIM %d then %d after rebase, want 1 and 1", before, after)
	}
}

// TestRIOTReset checks the reset state: interval 64, set at cycle 0, DDRA 0, RAM kept.
func TestRIOTReset(t *testing.T) {
	r, cpu := newTestRIOT()
	r.RAM[5] = 0x42
	r.write(0x281, 0xFF)
	r.reset()
	if r.shift != 6 || r.setCycle != 0 || r.ddra != 0 || r.readAfterIR || r.RAM[5] != 0x42 {
		t.Errorf("bad reset state %+v", r.riotState)
	}
	if r.timer < 25 || r.timer > 99 {
		t.Errorf("timer %d outside 25..99", r.timer)
	}
	cpu.Cycles = 1
	if got := r.read(0x284); uint32(got) != r.timer-1 {
		t.Errorf("INTIM right after reset %d, want %d", got, r.timer-1)
	}
}
