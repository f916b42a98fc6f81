package vcs

// riotState is everything the M6532 (RIOT) holds that changes while the console runs.
// It is a plain value so Save/Load copy it without allocating.
type riotState struct {
	RAM [128]byte

	timer       uint32 // value written to the timer (TIM1T..T1024T)
	shift       uint32 // interval shift: 0, 3, 6 or 10 for 1, 8, 64 or 1024 cycles
	setCycle    uint32 // system cycle when the timer was written (rebased each frame)
	irCycle     uint32 // cycle of the first read after expiry (Stella's interrupt reset)
	readAfterIR bool   // the timer was read after it expired (Stella's flag)
	ddra        uint8
}

// riot is the M6532 as ALE's Stella models it (docs/design/emulator.md, The RIOT): 128
// bytes of RAM that only the constructor randomises, the interval timer with Stella's
// post-expiry behaviour, and the two I/O ports built from controller pins and console
// switches.
type riot struct {
	riotState
	con *Console
}

// newRIOT builds the RIOT and draws its 128 random RAM bytes, then performs the reset
// its constructor performs (one more draw for the timer).
func newRIOT(con *Console) *riot {
	r := &riot{con: con}
	for i := range r.RAM {
		r.RAM[i] = uint8(con.rng.Next())
	}
	r.reset()
	return r
}

// reset is M6532::reset: a new random timer start value, interval 64, cleared
// timestamps and flags, DDRA = 0. RAM is kept.
func (r *riot) reset() {
	r.timer = 25 + r.con.rng.Next()%75
	r.shift = 6
	r.setCycle = 0
	r.irCycle = 0
	r.readAfterIR = false
	r.ddra = 0
}

// rebase subtracts the old system cycle count from the stored cycle stamps when the
// system counter is reset (start of frame, System::reset).
func (r *riot) rebase(cycles uint32) {
	r.setCycle -= cycles
	r.irCycle -= cycles
}

// intim returns the INTIM read value at system cycle count cycles
// (docs/design/emulator.md, The RIOT).
func (r *riot) intim(cycles uint32) uint8 {
	delta := (cycles - 1) - r.setCycle
	t := int32(r.timer) - int32(delta>>r.shift) - 1
	if t >= 0 {
		return uint8(t)
	}
	t = int32(r.timer<<r.shift) - int32(delta) - 1
	if t <= -2 && !r.readAfterIR {
		r.readAfterIR = true
		r.irCycle = cycles
	}
	if r.readAfterIR {
		off := int32(r.irCycle - (r.setCycle + r.timer<<r.shift))
		t = int32(r.timer) - int32(delta>>r.shift) - off
	}
	return uint8(t)
}

// readsAbove0 returns how many of max INTIM reads at cycles, cycles+period, ... return
// at least 1. Those reads take intim's first branch, which changes nothing.
func (r *riot) readsAbove0(cycles, period uint32, max int) int {
	delta := (cycles - 1) - r.setCycle
	if int32(r.timer)-int32(delta>>r.shift)-1 < 1 || max <= 0 {
		return 0
	}
	// The value is at least 1 while delta>>shift <= timer-2, that is while
	// delta <= (timer-1)<<shift - 1 (timer >= 2 here, as the value is at least 1).
	last := (r.timer-1)<<r.shift - 1
	k := int((last-delta)/period) + 1
	return min(k, max)
}

// timint returns the TIMINT read value: bit 7 when the timer has expired and has not
// been read since.
func (r *riot) timint(cycles uint32) uint8 {
	delta := (cycles - 1) - r.setCycle
	t := int32(r.timer) - int32(delta>>r.shift) - 1
	if t >= 0 || r.readAfterIR {
		return 0
	}
	return 0x80
}

// read handles a read of the RIOT I/O page (A9 = 1).
func (r *riot) read(addr uint16) uint8 {
	switch addr & 7 {
	case 0:
		return r.con.swcha()
	case 1:
		return r.ddra
	case 2:
		return r.con.swchb()
	case 3:
		return 0
	case 4, 6:
		return r.intim(r.con.cycles())
	default:
		return r.timint(r.con.cycles())
	}
}

// timerShift maps the low two address bits of a timer write to the interval shift.
var timerShift = [4]uint32{0, 3, 6, 10}

// write handles a write to the RIOT I/O page, decoded in Stella's order.
func (r *riot) write(addr uint16, v uint8) {
	switch {
	case addr&7 == 0: // SWCHA: passed to the controllers, which ignore it
	case addr&7 == 1:
		r.ddra = v
	case addr&7 == 2, addr&7 == 3: // SWCHB, DDRB: ignored
	case addr&0x14 == 0x14:
		r.timer = uint32(v)
		r.shift = timerShift[addr&3]
		r.setCycle = r.con.cycles()
		r.readAfterIR = false
	}
}
