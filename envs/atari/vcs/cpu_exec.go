package vcs

// cpuCycles is M6502's base cycle table (docs/design/emulator.md, The CPU), indexed by
// opcode. The whole count is charged right after the opcode fetch, before any operand
// access; page crosses (read forms only) and taken branches add to it later. JAM
// opcodes cost 2.
var cpuCycles = [256]uint8{
	//0 1  2  3  4  5  6  7  8  9  A  B  C  D  E  F
	7, 6, 2, 8, 3, 3, 5, 5, 3, 2, 2, 2, 4, 4, 6, 6, // 0
	2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // 1
	6, 6, 2, 8, 3, 3, 5, 5, 4, 2, 2, 2, 4, 4, 6, 6, // 2
	2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // 3
	6, 6, 2, 8, 3, 3, 5, 5, 3, 2, 2, 2, 3, 4, 6, 6, // 4
	2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // 5
	6, 6, 2, 8, 3, 3, 5, 5, 4, 2, 2, 2, 5, 4, 6, 6, // 6
	2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // 7
	2, 6, 2, 6, 3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4, // 8
	2, 6, 2, 6, 4, 4, 4, 4, 2, 5, 2, 5, 5, 5, 5, 5, // 9
	2, 6, 2, 6, 3, 3, 3, 4, 2, 2, 2, 2, 4, 4, 4, 4, // A
	2, 5, 2, 5, 4, 4, 4, 4, 2, 4, 2, 4, 4, 4, 4, 4, // B
	2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6, // C
	2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // D
	2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6, // E
	2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // F
}

// cpuBCD is Stella's ourBCDTable[2][256] laid out flat, because Stella's decimal SBC can
// index its second row with a negative number and so read the end of the first row.
// [0, 256): dec(b) = (b>>4)*10 + (b&0x0F), the value of any byte read as BCD (0xFF -> 165).
// [256, 512): enc(n) = ((n%100)/10)<<4 | n%10, the BCD byte for n.
var cpuBCD = func() (t [512]uint8) {
	for i := 0; i < 256; i++ {
		t[i] = uint8(i>>4*10 + i&0x0F)
		t[256+i] = uint8((i%100)/10<<4 | i%10)
	}
	return t
}()

// execute runs instructions until max have run, Stop was called during one, or a JAM
// halted the CPU, and returns how many ran (the JAM opcode included). Each one is a
// fetch, the base cycle charge, then the opcode's bus accesses and operation. The cases
// are the opcode map ALE's M6502 implements; "*" marks read forms that pay the
// page-cross cycle. Anything not listed is a JAM opcode. The loop lives here rather than
// in Run so that the CPU stays in registers across instructions.
func (c *CPU) execute(max int) (n int) {
	for n < max {
		n++
		pc := c.PC
		// The opcode fetch, written out to keep its page: the delay-loop checks look
		// at the next two bytes through it. code is nil for a device page. It does not
		// record the data-bus value: every instruction's next bus access overwrites it
		// before a TIA read can see it, except the stack pulls, which store it
		// themselves (see TestReadNoiseIsLastBusValue).
		code := c.rpages[(pc>>6)&127]
		var op uint8
		if code != nil {
			op = code[pc&63]
		} else {
			op = c.readBus(pc)
		}
		c.PC = pc + 1
		c.LastAccessWasRead = true
		c.Cycles += uint64(cpuCycles[op])
		switch op {
		case 0x00: // BRK
			c.brk()
		case 0x01: // ORA izx
			c.ora(c.read(c.izx(pc)))
		case 0x03: // SLO izx
			c.slo(c.izx(pc))
		case 0x04, 0x44, 0x64: // NOP zp
			c.read(c.zp(pc)) // real read: TIA/RIOT side effects and hotspots
		case 0x05: // ORA zp
			c.ora(c.read(c.zp(pc)))
		case 0x06: // ASL zp
			c.aslM(c.zp(pc))
		case 0x07: // SLO zp
			c.slo(c.zp(pc))
		case 0x08: // PHP
			c.push(c.P())
		case 0x09: // ORA #
			c.ora(c.imm(pc))
		case 0x0A: // ASL A
			c.A = c.asl(c.A)
		case 0x0B, 0x2B: // ANC #
			c.anc(c.imm(pc))
		case 0x0C: // NOP abs
			c.read(c.abs(pc)) // real read: TIA/RIOT side effects and hotspots
			if c.harteMode {
				c.Cycles-- // the vectors' known 3-cycle error, see cpu_ops.go
			}
		case 0x0D: // ORA abs
			c.ora(c.read(c.abs(pc)))
		case 0x0E: // ASL abs
			c.aslM(c.abs(pc))
		case 0x0F: // SLO abs
			c.slo(c.abs(pc))
		case 0x10: // BPL rel
			c.branch(pc, c.flagN&0x80 == 0)
		case 0x11: // ORA izy*
			c.ora(c.read(c.izyR(pc)))
		case 0x13: // SLO izy
			c.slo(c.izy(pc))
		case 0x14, 0x34, 0x54, 0x74, 0xD4, 0xF4: // NOP zpx
			c.read(c.zpi(pc, c.X)) // real read: TIA/RIOT side effects and hotspots
		case 0x15: // ORA zpx
			c.ora(c.read(c.zpi(pc, c.X)))
		case 0x16: // ASL zpx
			c.aslM(c.zpi(pc, c.X))
		case 0x17: // SLO zpx
			c.slo(c.zpi(pc, c.X))
		case 0x18: // CLC
			c.flagC = false
		case 0x19: // ORA aby*
			c.ora(c.read(c.absiR(pc, c.Y)))
		case 0x1A, 0x3A, 0x5A, 0x7A, 0xDA, 0xEA, 0xFA: // NOP
		case 0x1B: // SLO aby
			c.slo(c.absi(pc, c.Y))
		case 0x1C, 0x3C, 0x5C, 0x7C, 0xDC, 0xFC: // NOP abx*
			c.nopAbsX(pc)
		case 0x1D: // ORA abx*
			c.ora(c.read(c.absiR(pc, c.X)))
		case 0x1E: // ASL abx
			c.aslM(c.absi(pc, c.X))
		case 0x1F: // SLO abx
			c.slo(c.absi(pc, c.X))
		case 0x20: // JSR
			c.jsr()
		case 0x21: // AND izx
			c.and(c.read(c.izx(pc)))
		case 0x23: // RLA izx
			c.rla(c.izx(pc))
		case 0x24: // BIT zp
			c.bit(c.read(c.zp(pc)))
		case 0x25: // AND zp
			c.and(c.read(c.zp(pc)))
		case 0x26: // ROL zp
			c.rolM(c.zp(pc))
		case 0x27: // RLA zp
			c.rla(c.zp(pc))
		case 0x28: // PLP
			c.dataBus = op // the opcode fetch's bus value, seen by a TIA stack read
			c.SetP(c.pull())
		case 0x29: // AND #
			c.and(c.imm(pc))
		case 0x2A: // ROL A
			c.A = c.rol(c.A)
		case 0x2C: // BIT abs
			c.bit(c.read(c.abs(pc)))
		case 0x2D: // AND abs
			c.and(c.read(c.abs(pc)))
		case 0x2E: // ROL abs
			c.rolM(c.abs(pc))
		case 0x2F: // RLA abs
			c.rla(c.abs(pc))
		case 0x30: // BMI rel
			c.branch(pc, c.flagN&0x80 != 0)
		case 0x31: // AND izy*
			c.and(c.read(c.izyR(pc)))
		case 0x33: // RLA izy
			c.rla(c.izy(pc))
		case 0x35: // AND zpx
			c.and(c.read(c.zpi(pc, c.X)))
		case 0x36: // ROL zpx
			c.rolM(c.zpi(pc, c.X))
		case 0x37: // RLA zpx
			c.rla(c.zpi(pc, c.X))
		case 0x38: // SEC
			c.flagC = true
		case 0x39: // AND aby*
			c.and(c.read(c.absiR(pc, c.Y)))
		case 0x3B: // RLA aby
			c.rla(c.absi(pc, c.Y))
		case 0x3D: // AND abx*
			c.and(c.read(c.absiR(pc, c.X)))
		case 0x3E: // ROL abx
			c.rolM(c.absi(pc, c.X))
		case 0x3F: // RLA abx
			c.rla(c.absi(pc, c.X))
		case 0x40: // RTI
			c.dataBus = op // the opcode fetch's bus value, seen by a TIA stack read
			c.rti()
		case 0x41: // EOR izx
			c.eor(c.read(c.izx(pc)))
		case 0x43: // SRE izx
			c.sre(c.izx(pc))
		case 0x45: // EOR zp
			c.eor(c.read(c.zp(pc)))
		case 0x46: // LSR zp
			c.lsrM(c.zp(pc))
		case 0x47: // SRE zp
			c.sre(c.zp(pc))
		case 0x48: // PHA
			c.push(c.A)
		case 0x49: // EOR #
			c.eor(c.imm(pc))
		case 0x4A: // LSR A
			if loopsBack(code, pc, 0xD0) {
				if k := c.skippable(lsrIters(c.A), n, max); k > 0 {
					n = c.skipLSRLoop(k, n)
					break
				}
			}
			c.A = c.lsr(c.A)
		case 0x4B: // ASR #
			c.asr(c.imm(pc))
		case 0x4C: // JMP abs
			c.PC = c.abs(pc)
		case 0x4D: // EOR abs
			c.eor(c.read(c.abs(pc)))
		case 0x4E: // LSR abs
			c.lsrM(c.abs(pc))
		case 0x4F: // SRE abs
			c.sre(c.abs(pc))
		case 0x50: // BVC rel
			c.branch(pc, !c.flagV)
		case 0x51: // EOR izy*
			c.eor(c.read(c.izyR(pc)))
		case 0x53: // SRE izy
			c.sre(c.izy(pc))
		case 0x55: // EOR zpx
			c.eor(c.read(c.zpi(pc, c.X)))
		case 0x56: // LSR zpx
			c.lsrM(c.zpi(pc, c.X))
		case 0x57: // SRE zpx
			c.sre(c.zpi(pc, c.X))
		case 0x58: // CLI
			c.flagI = false
		case 0x59: // EOR aby*
			c.eor(c.read(c.absiR(pc, c.Y)))
		case 0x5B: // SRE aby
			c.sre(c.absi(pc, c.Y))
		case 0x5D: // EOR abx*
			c.eor(c.read(c.absiR(pc, c.X)))
		case 0x5E: // LSR abx
			c.lsrM(c.absi(pc, c.X))
		case 0x5F: // SRE abx
			c.sre(c.absi(pc, c.X))
		case 0x60: // RTS
			c.dataBus = op // the opcode fetch's bus value, seen by a TIA stack read
			c.rts()
		case 0x61: // ADC izx
			c.adc(c.read(c.izx(pc)))
		case 0x63: // RRA izx
			c.rra(c.izx(pc))
		case 0x65: // ADC zp
			c.adc(c.read(c.zp(pc)))
		case 0x66: // ROR zp
			c.rorM(c.zp(pc))
		case 0x67: // RRA zp
			c.rra(c.zp(pc))
		case 0x68: // PLA
			c.dataBus = op // the opcode fetch's bus value, seen by a TIA stack read
			c.lda(c.pull())
		case 0x69: // ADC #
			c.adc(c.imm(pc))
		case 0x6A: // ROR A
			c.A = c.ror(c.A)
		case 0x6B: // ARR #
			c.arr(c.imm(pc))
		case 0x6C: // JMP ind
			c.jmpInd(c.abs(pc))
		case 0x6D: // ADC abs
			c.adc(c.read(c.abs(pc)))
		case 0x6E: // ROR abs
			c.rorM(c.abs(pc))
		case 0x6F: // RRA abs
			c.rra(c.abs(pc))
		case 0x70: // BVS rel
			c.branch(pc, c.flagV)
		case 0x71: // ADC izy*
			c.adc(c.read(c.izyR(pc)))
		case 0x73: // RRA izy
			c.rra(c.izy(pc))
		case 0x75: // ADC zpx
			c.adc(c.read(c.zpi(pc, c.X)))
		case 0x76: // ROR zpx
			c.rorM(c.zpi(pc, c.X))
		case 0x77: // RRA zpx
			c.rra(c.zpi(pc, c.X))
		case 0x78: // SEI
			c.flagI = true
		case 0x79: // ADC aby*
			c.adc(c.read(c.absiR(pc, c.Y)))
		case 0x7B: // RRA aby
			c.rra(c.absi(pc, c.Y))
		case 0x7D: // ADC abx*
			c.adc(c.read(c.absiR(pc, c.X)))
		case 0x7E: // ROR abx
			c.rorM(c.absi(pc, c.X))
		case 0x7F: // RRA abx
			c.rra(c.absi(pc, c.X))
		case 0x80, 0x82, 0x89, 0xC2, 0xE2: // NOP #
			c.imm(pc)
		case 0x81: // STA izx
			c.write(c.izx(pc), c.A)
		case 0x83: // SAX izx
			c.write(c.izx(pc), c.A&c.X)
		case 0x84: // STY zp
			c.write(c.zp(pc), c.Y)
		case 0x85: // STA zp
			c.write(c.zp(pc), c.A)
		case 0x86: // STX zp
			c.write(c.zp(pc), c.X)
		case 0x87: // SAX zp
			c.write(c.zp(pc), c.A&c.X)
		case 0x88: // DEY
			if loopsBack(code, pc, 0x10) {
				if k := c.skippable(decIters(c.Y), n, max); k > 0 {
					c.Y, n = c.skipDecLoop(c.Y, k, n)
					break
				}
			}
			c.ldy(c.Y - 1)
		case 0x8A: // TXA
			c.lda(c.X)
		case 0x8B: // ANE #
			c.ane(c.imm(pc))
		case 0x8C: // STY abs
			c.write(c.abs(pc), c.Y)
		case 0x8D: // STA abs
			c.write(c.abs(pc), c.A)
		case 0x8E: // STX abs
			c.write(c.abs(pc), c.X)
		case 0x8F: // SAX abs
			c.write(c.abs(pc), c.A&c.X)
		case 0x90: // BCC rel
			c.branch(pc, !c.flagC)
		case 0x91: // STA izy
			c.write(c.izy(pc), c.A)
		case 0x93: // SHA izy
			c.sh(c.ptr(c.imm(pc)), c.Y, c.A&c.X)
		case 0x94: // STY zpx
			c.write(c.zpi(pc, c.X), c.Y)
		case 0x95: // STA zpx
			c.write(c.zpi(pc, c.X), c.A)
		case 0x96: // STX zpy
			c.write(c.zpi(pc, c.Y), c.X)
		case 0x97: // SAX zpy
			c.write(c.zpi(pc, c.Y), c.A&c.X)
		case 0x98: // TYA
			c.lda(c.Y)
		case 0x99: // STA aby
			c.write(c.absi(pc, c.Y), c.A)
		case 0x9A: // TXS
			c.SP = c.X
		case 0x9B: // SHS aby
			c.SP = c.A & c.X
			c.sh(c.abs(pc), c.Y, c.SP)
		case 0x9C: // SHY abx
			c.sh(c.abs(pc), c.X, c.Y)
		case 0x9D: // STA abx
			c.write(c.absi(pc, c.X), c.A)
		case 0x9E: // SHX aby
			c.sh(c.abs(pc), c.Y, c.X)
		case 0x9F: // SHA aby
			c.sh(c.abs(pc), c.Y, c.A&c.X)
		case 0xA0: // LDY #
			c.ldy(c.imm(pc))
		case 0xA1: // LDA izx
			c.lda(c.read(c.izx(pc)))
		case 0xA2: // LDX #
			c.ldx(c.imm(pc))
		case 0xA3: // LAX izx
			c.lax(c.read(c.izx(pc)))
		case 0xA4: // LDY zp
			c.ldy(c.read(c.zp(pc)))
		case 0xA5: // LDA zp
			c.lda(c.read(c.zp(pc)))
		case 0xA6: // LDX zp
			c.ldx(c.read(c.zp(pc)))
		case 0xA7: // LAX zp (4 cycles in ALE's table, 3 on hardware)
			c.lax(c.read(c.zp(pc)))
			if c.harteMode {
				c.Cycles--
			}
		case 0xA8: // TAY
			c.ldy(c.A)
		case 0xA9: // LDA #
			c.lda(c.imm(pc))
		case 0xAA: // TAX
			c.ldx(c.A)
		case 0xAB: // LXA #
			c.lxa(c.imm(pc))
		case 0xAC: // LDY abs
			c.ldy(c.read(c.abs(pc)))
		case 0xAD: // LDA abs
			a := c.abs(pc)
			if a == 0x0284 && c.con != nil && !c.noSkip {
				n = c.skipTimerWait(n, max)
			}
			c.lda(c.read(a))
		case 0xAE: // LDX abs
			c.ldx(c.read(c.abs(pc)))
		case 0xAF: // LAX abs
			c.lax(c.read(c.abs(pc)))
		case 0xB0: // BCS rel
			c.branch(pc, c.flagC)
		case 0xB1: // LDA izy*
			c.lda(c.read(c.izyR(pc)))
		case 0xB3: // LAX izy*
			c.lax(c.read(c.izyR(pc)))
		case 0xB4: // LDY zpx
			c.ldy(c.read(c.zpi(pc, c.X)))
		case 0xB5: // LDA zpx
			c.lda(c.read(c.zpi(pc, c.X)))
		case 0xB6: // LDX zpy
			c.ldx(c.read(c.zpi(pc, c.Y)))
		case 0xB7: // LAX zpy
			c.lax(c.read(c.zpi(pc, c.Y)))
		case 0xB8: // CLV
			c.flagV = false
		case 0xB9: // LDA aby*
			c.lda(c.read(c.absiR(pc, c.Y)))
		case 0xBA: // TSX
			c.ldx(c.SP)
		case 0xBB: // LAS aby*
			c.las(c.read(c.absiR(pc, c.Y)))
		case 0xBC: // LDY abx*
			c.ldy(c.read(c.absiR(pc, c.X)))
		case 0xBD: // LDA abx*
			c.lda(c.read(c.absiR(pc, c.X)))
		case 0xBE: // LDX aby*
			c.ldx(c.read(c.absiR(pc, c.Y)))
		case 0xBF: // LAX aby*
			c.lax(c.read(c.absiR(pc, c.Y)))
		case 0xC0: // CPY #
			c.cmp(c.Y, c.imm(pc))
		case 0xC1: // CMP izx
			c.cmp(c.A, c.read(c.izx(pc)))
		case 0xC3: // DCP izx
			c.dcp(c.izx(pc))
		case 0xC4: // CPY zp
			c.cmp(c.Y, c.read(c.zp(pc)))
		case 0xC5: // CMP zp
			c.cmp(c.A, c.read(c.zp(pc)))
		case 0xC6: // DEC zp
			c.decM(c.zp(pc))
		case 0xC7: // DCP zp
			c.dcp(c.zp(pc))
		case 0xC8: // INY
			c.ldy(c.Y + 1)
		case 0xC9: // CMP #
			c.cmp(c.A, c.imm(pc))
		case 0xCA: // DEX
			if loopsBack(code, pc, 0x10) {
				if k := c.skippable(decIters(c.X), n, max); k > 0 {
					c.X, n = c.skipDecLoop(c.X, k, n)
					break
				}
			}
			c.ldx(c.X - 1)
		case 0xCB: // SBX #
			c.sbx(c.imm(pc))
		case 0xCC: // CPY abs
			c.cmp(c.Y, c.read(c.abs(pc)))
		case 0xCD: // CMP abs
			c.cmp(c.A, c.read(c.abs(pc)))
		case 0xCE: // DEC abs
			c.decM(c.abs(pc))
		case 0xCF: // DCP abs
			c.dcp(c.abs(pc))
		case 0xD0: // BNE rel
			c.branch(pc, c.flagNZ != 0)
		case 0xD1: // CMP izy*
			c.cmp(c.A, c.read(c.izyR(pc)))
		case 0xD3: // DCP izy
			c.dcp(c.izy(pc))
		case 0xD5: // CMP zpx
			c.cmp(c.A, c.read(c.zpi(pc, c.X)))
		case 0xD6: // DEC zpx
			c.decM(c.zpi(pc, c.X))
		case 0xD7: // DCP zpx
			c.dcp(c.zpi(pc, c.X))
		case 0xD8: // CLD
			c.flagD = false
		case 0xD9: // CMP aby*
			c.cmp(c.A, c.read(c.absiR(pc, c.Y)))
		case 0xDB: // DCP aby
			c.dcp(c.absi(pc, c.Y))
		case 0xDD: // CMP abx*
			c.cmp(c.A, c.read(c.absiR(pc, c.X)))
		case 0xDE: // DEC abx
			c.decM(c.absi(pc, c.X))
		case 0xDF: // DCP abx
			c.dcp(c.absi(pc, c.X))
		case 0xE0: // CPX #
			c.cmp(c.X, c.imm(pc))
		case 0xE1: // SBC izx
			c.sbc(c.read(c.izx(pc)))
		case 0xE3: // ISB izx
			c.isb(c.izx(pc))
		case 0xE4: // CPX zp
			c.cmp(c.X, c.read(c.zp(pc)))
		case 0xE5: // SBC zp
			c.sbc(c.read(c.zp(pc)))
		case 0xE6: // INC zp
			c.incM(c.zp(pc))
		case 0xE7: // ISB zp
			c.isb(c.zp(pc))
		case 0xE8: // INX
			c.ldx(c.X + 1)
		case 0xE9, 0xEB: // SBC #
			c.sbc(c.imm(pc))
		case 0xEC: // CPX abs
			c.cmp(c.X, c.read(c.abs(pc)))
		case 0xED: // SBC abs
			c.sbc(c.read(c.abs(pc)))
		case 0xEE: // INC abs
			c.incM(c.abs(pc))
		case 0xEF: // ISB abs
			c.isb(c.abs(pc))
		case 0xF0: // BEQ rel
			c.branch(pc, c.flagNZ == 0)
		case 0xF1: // SBC izy*
			c.sbc(c.read(c.izyR(pc)))
		case 0xF3: // ISB izy
			c.isb(c.izy(pc))
		case 0xF5: // SBC zpx
			c.sbc(c.read(c.zpi(pc, c.X)))
		case 0xF6: // INC zpx
			c.incM(c.zpi(pc, c.X))
		case 0xF7: // ISB zpx
			c.isb(c.zpi(pc, c.X))
		case 0xF8: // SED
			c.flagD = true
		case 0xF9: // SBC aby*
			c.sbc(c.read(c.absiR(pc, c.Y)))
		case 0xFB: // ISB aby
			c.isb(c.absi(pc, c.Y))
		case 0xFD: // SBC abx*
			c.sbc(c.read(c.absiR(pc, c.X)))
		case 0xFE: // INC abx
			c.incM(c.absi(pc, c.X))
		case 0xFF: // ISB abx
			c.isb(c.absi(pc, c.X))
		default: // JAM: 02 12 22 32 42 52 62 72 92 B2 D2 F2
			c.jam(op, pc)
		}
		if c.exit {
			return n
		}
	}
	return n
}
