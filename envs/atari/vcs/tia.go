package vcs

// Frame-buffer geometry: two buffers of 160 x 300 bytes, as in Stella.
const (
	screenWidth = 160
	maxRows     = 300
	bufSize     = screenWidth * maxRows
	hblank      = 68
)

// tiaState is every TIA value that changes while the console runs, kept as one plain
// value so Save/Load can copy it (the mask slices point into static tables).
type tiaState struct {
	// Timing, in colour clocks relative to the rebased system cycle counter (int32
	// wrap, as in the C++).
	frameStart, displayStart, displayStop int32
	lastUpdate, clocksToEOL               int32
	vsyncFinish, lastHMOVEClock           int32
	dumpDisabledCycle                     int32
	framePtr                              int
	cur                                   int // index of the current frame buffer
	partial, greyed                       bool
	lastScanlines                         uint32
	// pending is the latest clock up to which Stella would have drawn at an access
	// this port did not draw at (see deferDraw); it is drawn before anything can
	// observe the difference.
	pending int32

	vsync, vblank, nusiz0, nusiz1, ctrlpf uint8
	prioScore                             uint8    // CTRLPF & 6
	colors                                [4]uint8 // BK, PF, P0, P1
	refp0, refp1                          bool
	pf                                    uint32
	grp0, grp1, dgrp0, dgrp1              uint8
	curGRP0, curGRP1                      uint8
	enam0, enam1, enabl, denabl           bool
	vdelp0, vdelp1, vdelbl                bool
	resmp0, resmp1                        bool
	hmp0, hmp1, hmm0, hmm1, hmbl          uint8
	posp0, posp1, posm0, posm1, posbl     int32
	enabled                               uint8
	collision                             uint16
	hmoveBlank                            bool
	cosmicArk                             bool
	cosmicCounter                         int
	dumpEnabled                           bool

	p0Mask, p1Mask, m0Mask, m1Mask, blMask objMask
	// suppressed is set when a RESPx gave a player mask with copy suppression; only
	// then does the end of a line have player masks to rebuild.
	suppressed bool
	pfMask     *[160]uint32
}

// tia is the Television Interface Adaptor as ALE's Stella core models it
// (docs/design/emulator.md, The TIA): lazy drawing up to the current clock on every
// access, instantaneous HMOVE, the poke-delay table, collision latches fed by the pixel
// pipeline, and double-buffered frames that are never cleared between frames.
type tia struct {
	tiaState
	con  *Console
	cpu  *CPU
	bufs [2][]byte
	// wantRender is the caller's choice (SetRenderEnabled); render is whether the
	// frame being run writes pixels (see update).
	wantRender, render bool
	// barEnd is the buffer index just past the last HMOVE bar pixel the current frame
	// wrote (or would have, undrawn); a bar can run ahead of the frame pointer (see
	// tia.extent and redrawUnder).
	barEnd int
	// eager turns the draw deferral off, drawing at every access exactly as Stella
	// does; tests compare both ways.
	eager bool

	// Display properties (fixed after construction).
	yStart, height   int32
	maxLines         int32
	colorLoss        bool
	allowHmoveBlanks bool

	// pfLines caches drawPF's recent lines (not machine state).
	pfLines pfLineCache
	// noop[reg] is 0x100|v when writing v to reg is known to leave the TIA state as
	// it is (write found it so, and nothing it compared against has changed since),
	// else 0. CPU.writeBus checks it before calling write: Pong makes about 900 such
	// writes a frame. Set only by write, for registers whose no-change test reads
	// nothing but write-set state; cleared by apply (the register and those whose
	// test reads it), reset and Load.
	noop [64]uint16
}

func newTIA(con *Console) *tia {
	t := &tia{con: con, cpu: con.cpu, wantRender: true, render: true}
	t.bufs[0] = make([]byte, bufSize)
	t.bufs[1] = make([]byte, bufSize)
	return t
}

// clock returns the current colour clock: system cycles times 3, as int32.
func (t *tia) clock() int32 { return int32(uint32(t.cpu.Cycles) * 3) }

// reset is TIA::reset: clear all registers and both frame buffers, and restart the
// frame timing at the current cycle count. The partial-frame flag is kept.
func (t *tia) reset() {
	partial := t.partial
	cur := t.cur
	t.tiaState = tiaState{}
	t.noop = [64]uint16{}
	t.partial = partial
	t.cur = cur
	t.p0Mask = playerMask(0, 0, 0)
	t.p1Mask = playerMask(0, 0, 0)
	t.m0Mask = missileMask(0, 0)
	t.m1Mask = missileMask(0, 0)
	t.blMask = ballMask(0, 0)
	t.pfMask = &pfMaskTab[0]
	c := t.clock()
	t.frameStart = c
	t.displayStart = c + 228*t.yStart
	t.displayStop = t.displayStart + 228*t.height
	t.lastUpdate = c
	t.clocksToEOL = 228
	t.vsyncFinish = 0x7FFFFFFF
	clear(t.bufs[0])
	clear(t.bufs[1])
}

// rebase subtracts the old cycle count from all stored clock and cycle stamps.
func (t *tia) rebase(cycles uint32) {
	t.dumpDisabledCycle -= int32(cycles)
	clocks := int32(cycles * 3)
	t.frameStart -= clocks
	t.displayStart -= clocks
	t.displayStop -= clocks
	t.lastUpdate -= clocks
	t.vsyncFinish -= clocks
	t.lastHMOVEClock -= clocks
	t.pending -= clocks
}

// startFrame begins a new TV frame (docs/design/emulator.md, Frames).
func (t *tia) startFrame() {
	t.cur ^= 1
	clocks := uint32(t.cpu.Cycles)*3 - uint32(t.frameStart)
	c := int32(clocks % 228)
	t.con.resetCycles()
	t.frameStart = -c
	t.displayStart = t.frameStart + 228*t.yStart
	t.displayStop = t.displayStart + 228*t.height
	t.lastUpdate = t.displayStart
	t.clocksToEOL = 228
	t.framePtr = 0
	t.barEnd = 0
	if t.colorLoss {
		for i := range t.colors {
			if t.lastScanlines&1 != 0 {
				t.colors[i] |= 1
			} else {
				t.colors[i] &^= 1
			}
		}
	}
	t.greyed = false
}

// scanlines is the frame-relative scanline of the current clock.
func (t *tia) scanlines() uint32 {
	return (uint32(t.cpu.Cycles)*3 - uint32(t.frameStart)) / 228
}

// update runs one TIA frame update (TIA::update; docs/design/emulator.md, Frames).
//
// Drawing is decided per frame (docs/design/emulator.md, Pixels nobody looks at): a
// frame starts drawn or not as SetRenderEnabled last said, and one that does not end
// within its RunFrame is drawn whole, because the rows its first RunFrame drew stay on
// screen until it ends. An undrawn frame that does not end is therefore run again from
// its start, drawn. settleScreen then keeps the buffers' content exact.
func (t *tia) update() error {
	var err error
	if t.partial {
		t.render = true
		_, err = t.cpu.Run(25000)
	} else if t.wantRender {
		err = t.runDrawn()
	} else {
		t.con.saveFrame(&t.con.undrawn.next)
		t.render = false
		t.startFrame()
		t.partial = true
		_, err = t.cpu.Run(25000)
		if t.partial {
			t.con.restoreFrame(&t.con.undrawn.next)
			err = t.runDrawn()
		}
	}
	cur := t.scanlines()
	if t.partial {
		t.updateFrame(t.pending)
	}
	t.con.settleScreen()
	if t.partial {
		if !t.greyed {
			t.greyOut(cur)
			t.greyed = true
		}
	} else {
		t.lastScanlines = cur
	}
	return err
}

// greyOut dims the not-yet-drawn rows of the current buffer after a partial frame.
func (t *tia) greyOut(line uint32) {
	if line < uint32(t.yStart) {
		line = uint32(t.yStart)
	}
	buf := t.bufs[t.cur]
	for s := line; s < uint32(t.height+t.yStart); s++ {
		row := buf[(s-uint32(t.yStart))*160:][:160]
		for i, p := range row {
			row[i] = (p & 0x0F) >> 1
		}
	}
}

// lineClock is the clock position within the current line (0..227) of clock. (The
// C++ value can only go negative after 2^31 clocks without a frame end; it is folded
// back into range here so that a runaway ROM cannot index outside the tables.)
func (t *tia) lineClock(clock int32) int32 {
	h := (clock - t.frameStart) % 228
	if h < 0 {
		h += 228
	}
	return h
}

// deferDraw marks the write registers whose effects never change what is drawn
// (WSYNC, RSYNC, audio, HMxx, HMCLR, unused). Stella draws up to the write clock before
// every write; drawing later with the same state gives the same pixels and collisions,
// so for these the port only records the clock in pending and the next drawing access
// covers it. A partial frame (the only way a frame can end without a drawing write)
// draws up to pending first.
var deferDraw = func() (d [64]bool) {
	// HMM0 (0x22) is left out: it can switch on Cosmic Ark mode, which changes the
	// end-of-line work of the lines drawn after it.
	for _, r := range []int{0x02, 0x03, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x20, 0x21, 0x23, 0x24, 0x2B} {
		d[r] = true
	}
	for r := 0x2D; r < 0x40; r++ {
		d[r] = true
	}
	return d
}()

// deferTo records an access at clock that Stella would have drawn up to and this port
// did not (see pending).
func (t *tia) deferTo(clock int32) {
	if clock > t.pending {
		t.pending = clock
	}
}

// write handles a CPU write to a TIA register
// (docs/design/emulator.md, Lazy drawing and Deferred writes).
func (t *tia) write(addr uint16, v uint8) {
	reg := addr & 0x3F
	clock := t.clock()
	// (clock-frameStart)/228 <= maxLines, without the division.
	if !t.eager && clock-t.frameStart < (t.maxLines+1)*228 {
		if deferDraw[reg] {
			t.deferTo(clock)
			t.apply(reg, v, clock)
			return
		}
		// same: writing v to reg would leave every TIA state value as it is (a game
		// rewriting the same colour, playfield or graphics). Such a write cannot
		// change what is drawn either, and apply would only recompute what it leaves
		// as it is (most writes of Pong's kernel), so it is skipped; the drawing
		// position still moves up to here. (Written out here rather than called:
		// Pong makes about 900 such writes a frame.)
		same := false
		switch reg {
		case 0x01:
			same = v == t.vblank
		case 0x06, 0x07, 0x08, 0x09:
			c := v & 0xFE
			if t.colorLoss && t.lastScanlines&1 != 0 {
				c |= 1
			}
			same = c == t.colors[[4]int{2, 3, 1, 0}[reg-6]]
		case 0x0A:
			// The PF reflection mask can lag CTRLPF (a change late in a line, or on
			// undrawn lines, waits for a drawn line's end); a rewrite may resync it.
			same = v == t.ctrlpf && t.pfMask == &pfMaskTab[v&1]
		case 0x0B:
			same = (v&8 != 0) == t.refp0
		case 0x0C:
			same = (v&8 != 0) == t.refp1
		case 0x0D:
			same = t.pf&0xFFFF0|uint32(v>>4) == t.pf
		case 0x0E:
			same = t.pf&0xFF00F|uint32(v)<<4 == t.pf
		case 0x0F:
			same = t.pf&0x00FFF|uint32(v)<<12 == t.pf
		case 0x1B:
			same = v == t.grp0 && t.dgrp1 == t.grp1
		case 0x1C:
			same = v == t.grp1 && t.dgrp0 == t.grp0 && t.denabl == t.enabl
		case 0x1D:
			same = (v&2 != 0) == t.enam0
		case 0x1E:
			same = (v&2 != 0) == t.enam1
		case 0x1F:
			same = (v&2 != 0) == t.enabl
		case 0x25:
			same = (v&1 != 0) == t.vdelp0
		case 0x26:
			same = (v&1 != 0) == t.vdelp1
		case 0x27:
			same = (v&1 != 0) == t.vdelbl
		}
		if same {
			// CTRLPF's test also reads the reflection mask, which a line's end
			// can change, and with colour loss the colours change at a frame's
			// start; neither is remembered.
			if reg != 0x0A && !(t.colorLoss && reg >= 0x06 && reg <= 0x09) {
				t.noop[reg] = 0x100 | uint16(v)
			}
			t.deferTo(clock)
			return
		}
	}
	d := int32(pokeDelay[reg])
	if d < 0 {
		d = pfDelay[(t.lineClock(clock)/3)&3]
	}
	t.updateFrame(clock + d)
	if (clock-t.frameStart)/228 > t.maxLines {
		t.cpu.Stop()
		t.partial = false
	}
	t.apply(reg, v, clock)
}

// apply carries out a register write at clock after the drawing is up to date.
func (t *tia) apply(reg uint16, v uint8, clock int32) {
	t.noop[reg] = 0
	switch reg {
	case 0x00:
		t.vsync = v
		if v&2 != 0 {
			t.vsyncFinish = clock + 228
		} else if clock >= t.vsyncFinish {
			t.vsyncFinish = 0x7FFFFFFF
			t.cpu.Stop()
			t.partial = false
		}
	case 0x01:
		if t.vblank&0x80 == 0 && v&0x80 != 0 {
			t.dumpEnabled = true
		} else if t.vblank&0x80 != 0 && v&0x80 == 0 {
			t.dumpEnabled = false
			t.dumpDisabledCycle = int32(uint32(t.cpu.Cycles))
		}
		t.vblank = v
	case 0x02:
		if t.cpu.LastAccessWasRead {
			n := 76 - (uint32(t.cpu.Cycles)-uint32(t.frameStart/3))%76
			if n < 76 {
				t.cpu.Cycles += uint64(n)
			}
		}
	case 0x04:
		t.nusiz0 = v
		t.p0Mask = playerMask(t.posp0, v, 0)
		t.m0Mask = missileMask(t.posm0, v)
	case 0x05:
		t.nusiz1 = v
		t.p1Mask = playerMask(t.posp1, v, 0)
		t.m1Mask = missileMask(t.posm1, v)
	case 0x06, 0x07, 0x08, 0x09:
		c := v & 0xFE
		if t.colorLoss && t.lastScanlines&1 != 0 {
			c |= 1
		}
		t.colors[[4]int{2, 3, 1, 0}[reg-6]] = c
	case 0x0A:
		t.ctrlpf = v
		t.prioScore = v & 6
		if t.lineClock(clock) < hblank+79 {
			t.pfMask = &pfMaskTab[v&1]
		}
		t.blMask = ballMask(t.posbl, v)
	case 0x0B:
		if (v&8 != 0) != t.refp0 {
			t.refp0 = v&8 != 0
			t.curGRP0 = reflectTab[t.curGRP0]
		}
	case 0x0C:
		if (v&8 != 0) != t.refp1 {
			t.refp1 = v&8 != 0
			t.curGRP1 = reflectTab[t.curGRP1]
		}
	case 0x0D:
		t.setPF(t.pf&0xFFFF0 | uint32(v>>4))
	case 0x0E:
		t.setPF(t.pf&0xFF00F | uint32(v)<<4)
	case 0x0F:
		t.setPF(t.pf&0x00FFF | uint32(v)<<12)
	case 0x10:
		t.resetPlayer(clock, &t.posp0, &t.p0Mask, t.nusiz0)
	case 0x11:
		t.resetPlayer(clock, &t.posp1, &t.p1Mask, t.nusiz1)
	case 0x12:
		t.resetM0(clock)
	case 0x13:
		t.resetM1(clock)
	case 0x14:
		t.resetBL(clock)
	case 0x1B:
		t.noop[0x1C] = 0 // GRP1's test compares dgrp0 with grp0
		t.grp0 = v
		t.dgrp1 = t.grp1
		t.updatePlayers()
	case 0x1C:
		t.noop[0x1B] = 0 // GRP0's test compares dgrp1 with grp1
		t.grp1 = v
		t.dgrp0 = t.grp0
		t.denabl = t.enabl
		t.updatePlayers()
		t.updateBall()
	case 0x1D:
		t.enam0 = v&2 != 0
		t.updateMissiles()
	case 0x1E:
		t.enam1 = v&2 != 0
		t.updateMissiles()
	case 0x1F:
		t.noop[0x1C] = 0 // GRP1's test compares denabl with enabl
		t.enabl = v&2 != 0
		t.updateBall()
	case 0x20:
		t.hmp0 = v >> 4
	case 0x21:
		t.hmp1 = v >> 4
	case 0x22:
		hm := v >> 4
		if clock == t.lastHMOVEClock+21*3 && t.hmm0 == 7 && hm == 6 {
			t.cosmicArk = true
			t.cosmicCounter = 0
		}
		t.hmm0 = hm
	case 0x23:
		t.hmm1 = v >> 4
	case 0x24:
		t.hmbl = v >> 4
	case 0x25:
		t.vdelp0 = v&1 != 0
		t.updatePlayers()
	case 0x26:
		t.vdelp1 = v&1 != 0
		t.updatePlayers()
	case 0x27:
		t.vdelbl = v&1 != 0
		t.updateBall()
	case 0x28:
		if t.resmp0 && v&2 == 0 {
			t.posm0 = (t.posp0 + resmpOffset(t.nusiz0)) % 160
			t.m0Mask = missileMask(t.posm0, t.nusiz0)
		}
		t.resmp0 = v&2 != 0
		t.updateMissiles()
	case 0x29:
		if t.resmp1 && v&2 == 0 {
			t.posm1 = (t.posp1 + resmpOffset(t.nusiz1)) % 160
			t.m1Mask = missileMask(t.posm1, t.nusiz1)
		}
		t.resmp1 = v&2 != 0
		t.updateMissiles()
	case 0x2A:
		t.hmove(clock)
	case 0x2B:
		t.hmp0, t.hmp1, t.hmm0, t.hmm1, t.hmbl = 0, 0, 0, 0, 0
	case 0x2C:
		t.collision = 0
	}
}

// resmpOffset is where RESMPx puts the missile relative to the player.
func resmpOffset(nusiz uint8) int32 {
	switch nusiz & 7 {
	case 5:
		return 8
	case 7:
		return 16
	}
	return 4
}

func (t *tia) setPF(pf uint32) {
	t.pf = pf
	if pf != 0 {
		t.enabled |= bitPF
	} else {
		t.enabled &^= bitPF
	}
}

func (t *tia) setEnabled(bit uint8, on bool) {
	if on {
		t.enabled |= bit
	} else {
		t.enabled &^= bit
	}
}

// updatePlayers recomputes both players' current graphics (VDEL, reflection) and
// their enabled bits.
func (t *tia) updatePlayers() {
	g0 := t.grp0
	if t.vdelp0 {
		g0 = t.dgrp0
	}
	if t.refp0 {
		g0 = reflectTab[g0]
	}
	g1 := t.grp1
	if t.vdelp1 {
		g1 = t.dgrp1
	}
	if t.refp1 {
		g1 = reflectTab[g1]
	}
	t.curGRP0, t.curGRP1 = g0, g1
	t.setEnabled(bitP0, g0 != 0)
	t.setEnabled(bitP1, g1 != 0)
}

func (t *tia) updateMissiles() {
	t.setEnabled(bitM0, t.enam0 && !t.resmp0)
	t.setEnabled(bitM1, t.enam1 && !t.resmp1)
}

func (t *tia) updateBall() {
	on := t.enabl
	if t.vdelbl {
		on = t.denabl
	}
	t.setEnabled(bitBL, on)
}

// resetPlayer is RESP0/RESP1 with Stella's "when" table and +11 pre-draw
// (docs/design/emulator.md, Positioning and motion).
func (t *tia) resetPlayer(clock int32, pos *int32, mask *objMask, nusiz uint8) {
	h := t.lineClock(clock)
	nx := int32(3)
	if h >= hblank {
		nx = ((h - hblank) + 5) % 160
	}
	switch respWhen[nusiz&7][*pos][nx] {
	case 1:
		t.updateFrame(clock + 11)
		*pos = nx
		*mask = playerMask(nx, nusiz, 1)
		t.suppressed = true
	case 0:
		*pos = nx
		*mask = playerMask(nx, nusiz, 1)
		t.suppressed = true
	default:
		*pos = nx
		*mask = playerMask(nx, nusiz, 0)
	}
}

// resetObjectPos is the RESMx/RESBL position before the HMOVE-distance hacks.
func (t *tia) resetObjectPos(h int32) int32 {
	if h < hblank {
		return 2
	}
	return ((h - hblank) + 4) % 160
}

func (t *tia) resetM0(clock int32) {
	h := t.lineClock(clock)
	t.posm0 = t.resetObjectPos(h)
	if clock-t.lastHMOVEClock == 20*3 && h == 69 {
		t.posm0 = 8
	}
	t.m0Mask = missileMask(t.posm0, t.nusiz0)
}

func (t *tia) resetM1(clock int32) {
	h := t.lineClock(clock)
	t.posm1 = t.resetObjectPos(h)
	if clock-t.lastHMOVEClock == 3*3 && h == 18 {
		t.posm1 = 3
	}
	t.m1Mask = missileMask(t.posm1, t.nusiz1)
}

func (t *tia) resetBL(clock int32) {
	h := t.lineClock(clock)
	t.posbl = t.resetObjectPos(h)
	dh := clock - t.lastHMOVEClock
	switch {
	case dh == 18*3 && (h == 60 || h == 69):
		t.posbl = 10
	case dh == 3*3 && h == 18:
		t.posbl = 3
	case dh == 7*3 && h == 30:
		t.posbl = 6
	case dh == 6*3 && h == 27:
		t.posbl = 5
	}
	t.blMask = ballMask(t.posbl, t.ctrlpf)
}

// move applies one HMOVE motion to a position and wraps it into 0..159.
func move(pos *int32, m int8) {
	p := *pos + int32(m)
	if p >= 160 {
		p -= 160
	} else if p < 0 {
		p += 160
	}
	*pos = p
}

// hmove applies HMOVE instantly (docs/design/emulator.md, Positioning and motion).
func (t *tia) hmove(clock int32) {
	c := t.lineClock(clock) / 3
	if t.allowHmoveBlanks && hmoveBlankCycle[c] {
		t.hmoveBlank = true
	}
	row := &motionTab[c]
	move(&t.posp0, row[t.hmp0])
	move(&t.posp1, row[t.hmp1])
	move(&t.posm0, row[t.hmm0])
	move(&t.posm1, row[t.hmm1])
	move(&t.posbl, row[t.hmbl])
	t.p0Mask = playerMask(t.posp0, t.nusiz0, 0)
	t.p1Mask = playerMask(t.posp1, t.nusiz1, 0)
	t.m0Mask = missileMask(t.posm0, t.nusiz0)
	t.m1Mask = missileMask(t.posm1, t.nusiz1)
	t.blMask = ballMask(t.posbl, t.ctrlpf)
	t.lastHMOVEClock = clock
	t.cosmicArk = false
}

// read handles a CPU read of a TIA register
// (docs/design/emulator.md, Reads and paddles).
func (t *tia) read(addr uint16) uint8 {
	if addr&0x08 == 0 || t.eager {
		t.updateFrame(t.clock()) // collision latches need the pixels drawn
	} else {
		t.deferTo(t.clock()) // input reads do not depend on drawing (see deferDraw)
	}
	noise := t.cpu.dataBus & 0x3F
	col := t.collision
	switch addr & 0x0F {
	case 0x0:
		return bit2(col, 0x0001, 0x0002) | noise
	case 0x1:
		return bit2(col, 0x0004, 0x0008) | noise
	case 0x2:
		return bit2(col, 0x0010, 0x0020) | noise
	case 0x3:
		return bit2(col, 0x0040, 0x0080) | noise
	case 0x4:
		return bit2(col, 0x0100, 0x0200) | noise
	case 0x5:
		return bit2(col, 0x0400, 0x0800) | noise
	case 0x6:
		return bit2(col, 0x1000, 0) | noise
	case 0x7:
		return bit2(col, 0x2000, 0x4000) | noise
	case 0x8, 0x9, 0xA, 0xB:
		return t.pot(t.con.potResistance[addr&3]) | noise
	case 0xC:
		return t.con.inpt[0] | noise
	case 0xD:
		return t.con.inpt[1] | noise
	}
	return noise
}

func bit2(col, hi, lo uint16) uint8 {
	var v uint8
	if col&hi != 0 {
		v |= 0x80
	}
	if col&lo != 0 {
		v |= 0x40
	}
	return v
}

// maxResistance is what a joystick's analog pins report (Stella's maximumResistance).
const maxResistance = 0x7FFFFFFF

// pot returns bit 7 of an INPT0-3 read for a paddle resistance r
// (docs/design/emulator.md, Reads and paddles).
func (t *tia) pot(r int32) uint8 {
	if r == 0 {
		return 0x80
	}
	if r == maxResistance || t.dumpEnabled {
		return 0
	}
	x := 1.6 * float64(r)
	x *= 0.01e-6
	need := uint32(x * 1.19e6)
	if uint32(t.cpu.Cycles) > uint32(t.dumpDisabledCycle)+need {
		return 0x80
	}
	return 0
}
