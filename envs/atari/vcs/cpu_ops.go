package vcs

import "math/bits"

// This file holds the CPU's bus helpers, addressing modes and one short function per
// instruction family. Every bus access that ALE's M6502Low makes
// (docs/design/emulator.md, The CPU) is made here and nowhere else; the opcode switch
// in cpu_exec.go only wires modes to families.
//
// harteMode (unexported, set only by tests) switches the places where ALE's M6502Low and
// Tom Harte's 6502 vectors disagree, so that the same core can be checked against them:
//   - (zp,X) and (zp),Y read the pointer's high byte from p+1 without wrapping in ALE
//     (p = 0xFF reads 0x0100, a TIA mirror); hardware and the vectors wrap to 0x0000. On a
//     2600 both addresses decode to TIA read register 0, so no game can tell.
//   - Decimal ADC/SBC (and RRA/ISB) are table-driven in ALE (N and Z from the BCD
//     result, C from the decimal sum, V from a sign heuristic, odd values for non-BCD
//     input); the vectors follow the NMOS chip (Z from the binary result, N and V from the
//     intermediate sum, for SBC all flags from the binary subtraction).
//   - LAX zp (A7) costs 4 cycles in ALE's table; hardware and the vectors say 3.
//   - NOP abs (0C) costs 4 cycles in ALE and on hardware, and NOP abs,X (1C 3C 5C 7C DC
//     FC) adds a cycle on a page cross in both. The vectors list 3 cycles and never add the
//     page cycle: a known error in that data (SingleStepTests/ProcessorTests issue #46).
// Everything else, ANE/LXA/SHA/SHX/SHY/SHS/ARR included, matches the vectors as ALE does it.

// read performs one bus read. Direct pages (RAM, plain ROM) are read inline and record
// the data-bus value. LastAccessWasRead is set by the device path; for direct reads it
// is set once per instruction instead (execute, after the opcode fetch, and after the
// reads that follow writes in JSR and BRK), which gives every write the same value:
// within an instruction M6502Low makes all reads before any write except in those two.
func (c *CPU) read(addr uint16) uint8 {
	if p := c.rpages[(addr>>6)&127]; p != nil {
		v := p[addr&63]
		c.dataBus = v
		return v
	}
	return c.readBus(addr)
}

// readBus is the slow path of read: a device access through the Bus. It is never
// inlined, so that read stays small enough to inline (with the Makefile's -l=4).
//
//go:noinline
func (c *CPU) readBus(addr uint16) uint8 {
	var v uint8
	if c.con != nil {
		v = c.con.readDevice(addr)
	} else {
		v = c.bus.Read(addr)
	}
	c.LastAccessWasRead = true
	return v
}

// write performs one bus write and then marks the last access as a write, so that the
// device saw the previous access's kind during the call.
func (c *CPU) write(addr uint16, v uint8) {
	if p := c.wpages[(addr>>6)&127]; p != nil {
		p[addr&63] = v
		c.dataBus = v
		c.LastAccessWasRead = false
		return
	}
	c.writeBus(addr, v)
}

// writeBus is the slow path of write: a device access through the Bus, never inlined.
//
//go:noinline
func (c *CPU) writeBus(addr uint16, v uint8) {
	if c.con != nil {
		if addr&0x1080 == 0 {
			// TIA registers, most device writes: Console.Write's first decode. A
			// write tia.write has seen change nothing only moves its drawing
			// position (see tia.noop), inside the frame's line limit.
			t := c.con.tia
			if clock := t.clock(); t.noop[addr&0x3F] == 0x100|uint16(v) && clock-t.frameStart < (t.maxLines+1)*228 {
				t.deferTo(clock)
			} else {
				t.write(addr, v)
			}
			c.dataBus = v
		} else {
			c.con.Write(addr, v)
		}
	} else {
		c.bus.Write(addr, v)
	}
	c.LastAccessWasRead = false
}

// fetch reads the byte at PC and advances PC: JSR's operand bytes, which it reads on
// either side of its stack writes (the other modes use imm and abs below).
func (c *CPU) fetch() uint8 {
	v := c.read(c.PC)
	c.PC++
	return v
}

// setNZ sets N and Z from a result byte.
func (c *CPU) setNZ(v uint8) {
	c.flagN = v
	c.flagNZ = v
}

// --- Addressing modes: each returns the effective address --------------------------------

// The addressing modes below take pc, the address of the instruction's opcode, and read
// their operand bytes at pc+1 and pc+2 rather than through PC: the opcode fetch loaded
// PC once, and loading it again after each increment would chain every operand byte
// behind a store. Each stores the following instruction's address in PC.

// imm is an immediate operand (also a branch offset or a NOP's operand byte).
func (c *CPU) imm(pc uint16) uint8 {
	c.PC = pc + 2
	return c.read(pc + 1)
}

// zp is zero page: one operand byte.
func (c *CPU) zp(pc uint16) uint16 { return uint16(c.imm(pc)) }

// zpi is zero page indexed (zp,X / zp,Y): the sum stays in page 0.
func (c *CPU) zpi(pc uint16, idx uint8) uint16 { return uint16(c.imm(pc) + idx) }

// abs is absolute: two operand bytes.
func (c *CPU) abs(pc uint16) uint16 {
	c.PC = pc + 3
	lo := c.read(pc + 1)
	return uint16(lo) | uint16(c.read(pc+2))<<8
}

// absi is absolute indexed for write and read-modify-write forms: no page cycle.
func (c *CPU) absi(pc uint16, idx uint8) uint16 { return c.abs(pc) + uint16(idx) }

// absiR is absolute indexed for read forms: one extra cycle when the index crosses a page,
// charged before the operand read.
func (c *CPU) absiR(pc uint16, idx uint8) (addr uint16) {
	base := c.abs(pc)
	addr = base + uint16(idx)
	if (base ^ addr) > 0xFF {
		c.Cycles++
	}
	return
}

// ptr reads a 16-bit pointer from zero page address p. ALE reads the high byte at p+1
// without wrapping (0xFF -> 0x0100); the hardware variant wraps within page 0.
func (c *CPU) ptr(p uint8) uint16 {
	if pg := c.rpages[p>>6]; pg != nil && p&63 != 63 {
		// Both bytes in one direct page (RIOT RAM): one page lookup.
		c.dataBus = pg[p&63+1]
		return uint16(pg[p&63]) | uint16(c.dataBus)<<8
	}
	return c.ptrBus(p)
}

// ptrBus is ptr's general path: a pointer that straddles pages or lies on device pages.
func (c *CPU) ptrBus(p uint8) uint16 {
	lo := c.read(uint16(p))
	hiAddr := uint16(p) + 1
	if c.harteMode {
		hiAddr = uint16(p + 1)
	}
	return uint16(lo) | uint16(c.read(hiAddr))<<8
}

// izx is (zp,X): the pointer lives at (operand + X) & 0xFF.
func (c *CPU) izx(pc uint16) uint16 { return c.ptr(c.imm(pc) + c.X) }

// izy is (zp),Y for write and read-modify-write forms: no page cycle.
func (c *CPU) izy(pc uint16) uint16 { return c.ptr(c.imm(pc)) + uint16(c.Y) }

// izyR is (zp),Y for read forms: one extra cycle when adding Y crosses a page.
func (c *CPU) izyR(pc uint16) uint16 {
	base := c.ptr(c.imm(pc))
	addr := base + uint16(c.Y)
	if (base^addr)&0xFF00 != 0 {
		c.Cycles++
	}
	return addr
}

// --- Loads, logic, compares -------------------------------------------------------------

// lda, ldx, ldy and lax load registers and set N and Z.
func (c *CPU) lda(v uint8) { c.A = v; c.setNZ(v) }
func (c *CPU) ldx(v uint8) { c.X = v; c.setNZ(v) }
func (c *CPU) ldy(v uint8) { c.Y = v; c.setNZ(v) }
func (c *CPU) lax(v uint8) { c.A = v; c.X = v; c.setNZ(v) }

// ora, and and eor combine A with the operand and set N and Z.
func (c *CPU) ora(v uint8) { c.A |= v; c.setNZ(c.A) }
func (c *CPU) and(v uint8) { c.A &= v; c.setNZ(c.A) }
func (c *CPU) eor(v uint8) { c.A ^= v; c.setNZ(c.A) }

// bit sets Z from A&M and copies M's bits 7 and 6 into N and V.
func (c *CPU) bit(v uint8) {
	c.flagNZ = c.A & v
	c.flagN = v
	c.flagV = v&0x40 != 0
}

// cmp is CMP/CPX/CPY: reg - M as 16 bits; C means no borrow.
func (c *CPU) cmp(reg, v uint8) {
	d := uint16(reg) - uint16(v)
	c.setNZ(uint8(d))
	c.flagC = d&0x100 == 0
}

// --- Shifts and increments: take the old value, set flags, return the new one ----------

func (c *CPU) asl(v uint8) uint8 { c.flagC = v&0x80 != 0; v <<= 1; c.setNZ(v); return v }
func (c *CPU) lsr(v uint8) uint8 { c.flagC = v&0x01 != 0; v >>= 1; c.setNZ(v); return v }
func (c *CPU) inc(v uint8) uint8 { v++; c.setNZ(v); return v }
func (c *CPU) dec(v uint8) uint8 { v--; c.setNZ(v); return v }

func (c *CPU) rol(v uint8) uint8 {
	r := v << 1
	if c.flagC {
		r |= 1
	}
	c.flagC = v&0x80 != 0
	c.setNZ(r)
	return r
}

func (c *CPU) ror(v uint8) uint8 {
	r := v >> 1
	if c.flagC {
		r |= 0x80
	}
	c.flagC = v&0x01 != 0
	c.setNZ(r)
	return r
}

// Read-modify-write on memory: exactly one read and one write (M6502Low makes no
// real-hardware double write).
func (c *CPU) aslM(a uint16) { c.write(a, c.asl(c.read(a))) }
func (c *CPU) lsrM(a uint16) { c.write(a, c.lsr(c.read(a))) }
func (c *CPU) rolM(a uint16) { c.write(a, c.rol(c.read(a))) }
func (c *CPU) rorM(a uint16) { c.write(a, c.ror(c.read(a))) }
func (c *CPU) incM(a uint16) { c.write(a, c.inc(c.read(a))) }
func (c *CPU) decM(a uint16) { c.write(a, c.dec(c.read(a))) }

// Undocumented read-modify-write combinations: the shift/increment, its write, then the
// ALU operation on the written value, as Stella implements them.
func (c *CPU) slo(a uint16) { v := c.asl(c.read(a)); c.write(a, v); c.ora(v) }
func (c *CPU) rla(a uint16) { v := c.rol(c.read(a)); c.write(a, v); c.and(v) }
func (c *CPU) sre(a uint16) { v := c.lsr(c.read(a)); c.write(a, v); c.eor(v) }
func (c *CPU) rra(a uint16) { v := c.ror(c.read(a)); c.write(a, v); c.adc(v) }
func (c *CPU) dcp(a uint16) { v := c.read(a) - 1; c.write(a, v); c.cmp(c.A, v) }
func (c *CPU) isb(a uint16) { v := c.read(a) + 1; c.write(a, v); c.sbc(v) }

// --- Arithmetic --------------------------------------------------------------------------

// adc adds M and C to A. Binary mode is the usual one; decimal mode follows Stella's
// tables (or the NMOS algorithm in harteMode).
func (c *CPU) adc(v uint8) {
	if c.flagD {
		c.adcDecimal(v)
		return
	}
	c.adcBinary(v)
}

// sbc subtracts M and the borrow (1 - C) from A.
func (c *CPU) sbc(v uint8) {
	if c.flagD {
		c.sbcDecimal(v)
		return
	}
	c.adcBinary(^v)
}

// adcBinary is binary ADC: V from the signed sum, C from the unsigned one.
func (c *CPU) adcBinary(v uint8) {
	var carry uint16
	if c.flagC {
		carry = 1
	}
	sum := uint16(c.A) + uint16(v) + carry
	r := uint8(sum)
	c.flagV = (c.A^r)&(v^r)&0x80 != 0
	c.flagC = sum > 0xFF
	c.A = r
	c.setNZ(r)
}

// adcDecimal is Stella's decimal ADC: sum = dec(A) + dec(M) + C over any byte, C = sum >
// 99, A = enc(sum & 0xFF), N and Z from the new A, V = (oldA^A) and (A^M) both negative.
func (c *CPU) adcDecimal(v uint8) {
	if c.harteMode {
		c.adcNMOS(v)
		return
	}
	sum := int(cpuBCD[v]) + int(cpuBCD[c.A])
	if c.flagC {
		sum++
	}
	old := c.A
	c.flagC = sum > 99
	c.A = cpuBCD[256+sum&0xFF]
	c.setNZ(c.A)
	c.flagV = (old^c.A)&0x80 != 0 && (c.A^v)&0x80 != 0
}

// sbcDecimal is Stella's decimal SBC: d = dec(A) - dec(M) - borrow, +100 if negative,
// A = enc(d); C = oldA >= M + borrow on the raw bytes; N, Z and V as in adcDecimal. For
// non-BCD input d can stay negative; Stella then indexes its enc row with a negative
// index, which in its [2][256] table reads dec(256 + d). cpuBCD keeps that layout.
func (c *CPU) sbcDecimal(v uint8) {
	if c.harteMode {
		c.sbcNMOS(v)
		return
	}
	borrow := 1
	if c.flagC {
		borrow = 0
	}
	d := int(cpuBCD[c.A]) - int(cpuBCD[v]) - borrow
	if d < 0 {
		d += 100
	}
	old := c.A
	c.A = cpuBCD[256+d]
	c.setNZ(c.A)
	c.flagC = int(old) >= int(v)+borrow
	c.flagV = (old^c.A)&0x80 != 0 && (c.A^v)&0x80 != 0
}

// adcNMOS is the real NMOS decimal ADC (6502.org decimal-mode appendix, sequences 1 and 2):
// Z from the binary sum, N and V from the sum before the high-nibble adjust.
func (c *CPU) adcNMOS(v uint8) {
	carry := 0
	if c.flagC {
		carry = 1
	}
	a := int(c.A)
	m := int(v)
	lo := a&0x0F + m&0x0F + carry
	if lo >= 0x0A {
		lo = (lo+0x06)&0x0F + 0x10
	}
	t := a&0xF0 + m&0xF0 + lo
	st := int(int8(uint8(a&0xF0))) + int(int8(uint8(m&0xF0))) + lo
	c.flagV = st < -128 || st > 127
	c.flagN = uint8(t)
	c.flagNZ = uint8(a + m + carry)
	if t >= 0xA0 {
		t += 0x60
	}
	c.flagC = t >= 0x100
	c.A = uint8(t)
}

// sbcNMOS is the real NMOS decimal SBC: every flag as in binary SBC, A decimal-adjusted
// per nibble (6502.org decimal-mode appendix, sequence 3).
func (c *CPU) sbcNMOS(v uint8) {
	carry := 0
	if c.flagC {
		carry = 1
	}
	a := int(c.A)
	m := int(v)
	lo := a&0x0F - m&0x0F + carry - 1
	if lo < 0 {
		lo = (lo-0x06)&0x0F - 0x10
	}
	t := a&0xF0 - m&0xF0 + lo
	if t < 0 {
		t -= 0x60
	}
	c.adcBinary(^v) // flags
	c.A = uint8(t)
}

// --- Undocumented immediate-mode ALU ops, as Stella implements them ---------------------

// anc is ANC (0B, 2B): AND, then C = N.
func (c *CPU) anc(v uint8) { c.and(v); c.flagC = c.A&0x80 != 0 }

// asr is ASR/ALR (4B): AND, then LSR A.
func (c *CPU) asr(v uint8) { c.A = c.lsr(c.A & v) }

// ane is ANE/XAA (8B) with Stella's magic constant 0xEE.
func (c *CPU) ane(v uint8) { c.lda((c.A | 0xEE) & c.X & v) }

// lxa is LXA (AB): A = X = (A | 0xEE) & M.
func (c *CPU) lxa(v uint8) { c.lax((c.A | 0xEE) & v) }

// las is LAS (BB): A = X = SP = SP & M.
func (c *CPU) las(v uint8) { c.SP &= v; c.lax(c.SP) }

// sbx is SBX/AXS (CB): X = (A & X) - M, with C as in CMP.
func (c *CPU) sbx(v uint8) {
	d := uint16(c.A&c.X) - uint16(v)
	c.X = uint8(d)
	c.setNZ(c.X)
	c.flagC = d&0x100 == 0
}

// arr is ARR (6B): AND then ROR A, with Stella's odd flags and the decimal-mode fix-ups.
func (c *CPU) arr(v uint8) {
	t := c.A & v
	r := t >> 1
	if c.flagC {
		r |= 0x80
	}
	if !c.flagD {
		c.A = r
		c.setNZ(r)
		c.flagC = r&0x40 != 0
		c.flagV = (r>>6^r>>5)&1 != 0
		return
	}
	c.flagN = 0
	if c.flagC {
		c.flagN = 0x80
	}
	c.flagNZ = r
	c.flagV = (t^r)&0x40 != 0
	if t&0x0F+t&0x01 > 0x05 {
		r = r&0xF0 | (r+0x06)&0x0F
	}
	if uint16(t&0xF0)+uint16(t&0x10) > 0x50 {
		r += 0x60
		c.flagC = true
	} else {
		c.flagC = false
	}
	c.A = r
}

// sh is SHA/SHX/SHY/SHS: store reg & (H+1) at base+idx, where H is the high byte of the
// final (indexed) address and H+1 is not masked before the AND. The Harte vectors agree.
func (c *CPU) sh(base uint16, idx uint8, reg uint8) {
	addr := base + uint16(idx)
	c.write(addr, reg&(uint8(addr>>8)+1))
}

// nopAbsX is the undocumented NOP abs,X: a real read of the operand address (TIA and RIOT
// side effects, cartridge hotspots) with the page-cross cycle, as in ALE.
func (c *CPU) nopAbsX(pc uint16) {
	if c.harteMode {
		c.read(c.absi(pc, c.X)) // the vectors' known missing page cycle, see above
		return
	}
	c.read(c.absiR(pc, c.X))
}

// --- Control flow and stack ------------------------------------------------------------

// branch is a relative branch whose opcode is at pc. It reads the offset byte (like an
// immediate operand) whether or not it is taken; a taken branch costs 1 cycle, 2 when the
// target's page differs from that of the following instruction.
func (c *CPU) branch(pc uint16, cond bool) {
	off := c.imm(pc)
	if !cond {
		return
	}
	next := pc + 2
	target := next + uint16(int8(off))
	if (target^next)&0xFF00 != 0 {
		c.Cycles += 2
	} else {
		c.Cycles++
	}
	c.PC = target
}

// push writes to 0x100+SP and decrements SP.
func (c *CPU) push(v uint8) {
	c.write(0x100|uint16(c.SP), v)
	c.SP--
}

// pull does M6502Low's pull: a dummy read at 0x100+SP, SP+1, then the real read.
func (c *CPU) pull() uint8 {
	c.read(0x100 | uint16(c.SP))
	c.SP++
	return c.read(0x100 | uint16(c.SP))
}

// skipTimerWait fast-forwards the wait loop "LDA $0284 / BNE back to the LDA" (games
// wait for the end of VBLANK and overscan with it, hundreds of iterations a frame). It
// is called inside the LDA, after its operand fetch and before its timer read, with n
// instructions counted of max. While the timer reads at least 1, an iteration only
// fetches its five code bytes (direct ROM or RAM reads: no side effects), reads the
// timer (no side effect while it is at least 1) and spends 7 cycles, or 8 when the
// branch crosses a page; so those iterations are skipped by advancing the cycle counter
// and the instruction count, leaving the CPU at the timer read of the first iteration
// that may see 0, which then runs as usual. The instruction budget is respected.
func (c *CPU) skipTimerWait(n, max int) int {
	pc := c.PC // the BNE
	lda := pc - 3
	p := c.rpages[(pc>>6)&127]
	if p == nil || pc&63 == 63 || p[pc&63] != 0xD0 || p[pc&63+1] != 0xFB || c.rpages[(lda>>6)&127] == nil {
		return n
	}
	period := uint32(7)
	if (pc+2)&0xFF00 != lda&0xFF00 {
		period = 8
	}
	k := c.con.riot.readsAbove0(uint32(c.Cycles), period, (max-n)/2)
	if k <= 0 {
		return n
	}
	c.Cycles += uint64(k) * uint64(period)
	c.skippedIters += uint64(k)
	return n + 2*k
}

// Delay loops. Kernels burn time with two-instruction loops that branch back to
// themselves: "DEX (or DEY) / BPL back" counts a register down past zero, "LSR A / BNE
// back" shifts A to zero. Their only bus accesses are the fetches of their three code
// bytes, so once the opcode is fetched the whole loop can be run by arithmetic when its
// code sits in direct pages: the same register, flags, data bus, cycles and instruction
// count as running it.

// loopsBack reports whether the two bytes after the one-byte instruction at pc, in its
// direct page code (nil for a device page), are branch opcode br back to it. Small
// enough to inline, so the instructions that can start a delay loop pay little.
func loopsBack(code *[64]byte, pc uint16, br uint8) bool {
	i := pc & 63
	return code != nil && i < 62 && code[i+1] == br && code[i+2] == 0xFD
}

// decIters is the number of iterations of DEX or DEY / BPL from register value r: down
// to 0xFF, or out at once if the first decrement is already negative.
func decIters(r uint8) int {
	if r <= 0x80 {
		return int(r) + 1
	}
	return 1
}

// lsrIters is the number of iterations of LSR A / BNE from A = a: one per significant bit.
func lsrIters(a uint8) int { return max(bits.Len8(a), 1) }

// skippable returns k, the iterations of a delay loop entered inside its first
// instruction with n instructions counted of limit, or 0 when the loop must run
// normally (skips turned off, or not enough instruction budget to finish it).
func (c *CPU) skippable(k, n, limit int) int {
	if c.noSkip || n-1+2*k > limit {
		return 0
	}
	return k
}

// loopCycles charges the k iterations of a delay loop beyond the base cycles of the
// first instruction: the remaining instructions' 2 cycles each, the branches' 2 each,
// and 1 more per taken branch (2 when it crosses a page). It leaves the CPU after the
// branch with the operand byte on the data bus and returns the instruction count.
func (c *CPU) loopCycles(k, n int) int {
	pc := c.PC - 1
	taken := uint64(1)
	if (pc+3)&0xFF00 != pc&0xFF00 {
		taken = 2
	}
	c.Cycles += uint64(k-1)*2 + uint64(k)*2 + uint64(k-1)*taken
	c.PC = pc + 3
	c.dataBus = 0xFD
	c.skippedIters += uint64(k)
	return n - 1 + 2*k
}

// skipDecLoop runs k iterations of DEX/DEY / BPL on register value r and returns the
// register's final value and the new instruction count.
func (c *CPU) skipDecLoop(r uint8, k, n int) (uint8, int) {
	r -= uint8(k)
	c.setNZ(r)
	return r, c.loopCycles(k, n)
}

// skipLSRLoop runs k iterations of LSR A / BNE: A ends at 0, C holds the last bit
// shifted out (A's top set bit, or 0 when A was 0).
func (c *CPU) skipLSRLoop(k, n int) int {
	c.flagC = c.A != 0
	c.A = 0
	c.setNZ(0)
	return c.loopCycles(k, n)
}

// jsr: low target byte, dummy stack read, push PC (pointing at the high byte), then the
// high target byte (read after the pushes, as on hardware).
func (c *CPU) jsr() {
	lo := c.fetch()
	c.read(0x100 | uint16(c.SP))
	c.push(uint8(c.PC >> 8))
	c.push(uint8(c.PC))
	c.PC = uint16(lo) | uint16(c.read(c.PC))<<8
	c.LastAccessWasRead = true // a read after writes (see read)
}

// rts: dummy stack read, pull PC, then a dummy read of [PC] and PC+1.
func (c *CPU) rts() {
	lo := c.pull()
	c.SP++
	pc := uint16(lo) | uint16(c.read(0x100|uint16(c.SP)))<<8
	c.read(pc)
	c.PC = pc + 1
}

// rti: dummy stack read, pull status, pull PC; PC is not incremented.
func (c *CPU) rti() {
	c.SetP(c.pull())
	c.SP++
	lo := c.read(0x100 | uint16(c.SP))
	c.SP++
	c.PC = uint16(lo) | uint16(c.read(0x100|uint16(c.SP)))<<8
}

// brk: dummy read at PC, PC+1, push PC and status (B set), I = 1, vector at 0xFFFE.
func (c *CPU) brk() {
	c.read(c.PC)
	c.PC++
	c.push(uint8(c.PC >> 8))
	c.push(uint8(c.PC))
	c.push(c.P())
	c.flagI = true
	lo := c.read(0xFFFE)
	c.PC = uint16(lo) | uint16(c.read(0xFFFF))<<8
	c.LastAccessWasRead = true // a read after writes (see read)
}

// jmpInd is JMP (abs) through pointer p, with the NMOS page-wrap bug on the pointer's
// high byte.
func (c *CPU) jmpInd(p uint16) {
	lo := c.read(p)
	hi := c.read(p&0xFF00 | uint16(uint8(p)+1))
	c.PC = uint16(lo) | uint16(hi)<<8
}
