package vcs

import (
	"errors"
	"testing"
)

// prog assembles a 4K ROM at 0xF000 from raw 6502 bytes, with the reset vector at
// 0xF000.
type prog struct{ b []byte }

func (p *prog) emit(bs ...byte) *prog { p.b = append(p.b, bs...); return p }

// sta emits LDA #v; STA zp.
func (p *prog) sta(zp, v byte) *prog { return p.emit(0xA9, v, 0x85, zp) }

func (p *prog) rom() []byte {
	rom := make([]byte, 4096)
	copy(rom, p.b)
	rom[0xFFC], rom[0xFFD] = 0x00, 0xF0
	return rom
}

// frameProgram builds a kernel: VSYNC for 3 lines, a setup line that writes the given
// TIA registers, a line with k NOPs then STA RESP0, then 256 WSYNC lines, and repeat.
func frameProgram(setup [][2]byte, k int) []byte {
	p := &prog{}
	p.emit(0xA2, 0xFF, 0x9A) // LDX #$FF; TXS
	frame := 0xF000 + len(p.b)
	p.sta(0x00, 2).emit(0x85, 0x02, 0x85, 0x02, 0x85, 0x02).sta(0x00, 0)
	for _, s := range setup {
		p.sta(s[0], s[1])
	}
	p.emit(0x85, 0x02) // STA WSYNC
	for i := 0; i < k; i++ {
		p.emit(0xEA)
	}
	p.emit(0x85, 0x10)                   // STA RESP0
	p.emit(0xA2, 0x00)                   // LDX #0
	p.emit(0x85, 0x02, 0xCA, 0xD0, 0xFB) // loop: STA WSYNC; DEX; BNE loop
	p.emit(0x4C, byte(frame), byte(frame>>8))
	return p.rom()
}

// idleROM is a 4K program that only produces blank 260-line frames.
func idleROM() []byte { return frameProgram(nil, 0) }

const (
	colBK = 0x44
	colPF = 0x1E
	colP0 = 0x86
)

// runProgram boots rom and returns the screen after a few frames.
func runProgram(t *testing.T, rom []byte) (*Console, []byte) {
	t.Helper()
	c, err := NewConsole(rom, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := c.RunFrame(); err != nil {
			t.Fatal(err)
		}
	}
	if s := c.Scanlines(); s != 260 {
		t.Errorf("%d scanlines, want 260", s)
	}
	return c, c.Screen()
}

// expectRow compares one screen row with want(x).
func expectRow(t *testing.T, scr []byte, row int, want func(x int) byte) {
	t.Helper()
	for x := 0; x < 160; x++ {
		if got, w := scr[row*160+x], want(x); got != w {
			t.Errorf("row %d x %d: %02X, want %02X", row, x, got, w)
			return
		}
	}
}

// TestTIAPlayfieldAndPlayer places PF0 and player 0 with RESP0 at cycle 43 of a line:
// h = 129, so the player starts at pixel (129 - 68 + 5) = 66. From the second frame on,
// RESP0 writes the position the player already has (the "-1" case of the when table),
// so no copy is suppressed.
func TestTIAPlayfieldAndPlayer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ctrlpf byte
		nusiz  byte
		pf     func(x int) bool
		p0     func(x int) bool
	}{
		{"normal", 0, 0, func(x int) bool { return x < 16 || (x >= 80 && x < 96) }, func(x int) bool { return x >= 66 && x < 74 }},
		{"reflected", 1, 0, func(x int) bool { return x < 16 || x >= 144 }, func(x int) bool { return x >= 66 && x < 74 }},
		{"two copies", 0, 1, func(x int) bool { return x < 16 || (x >= 80 && x < 96) },
			func(x int) bool { return (x >= 66 && x < 74) || (x >= 82 && x < 90) }},
		{"double", 0, 5, func(x int) bool { return x < 16 || (x >= 80 && x < 96) }, func(x int) bool { return x >= 67 && x < 83 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rom := frameProgram([][2]byte{
				{0x09, colBK}, {0x08, colPF}, {0x06, colP0}, {0x0D, 0xF0}, {0x0A, tc.ctrlpf},
				{0x1B, 0xFF}, {0x04, tc.nusiz},
			}, 20)
			c, scr := runProgram(t, rom)
			want := func(x int) byte {
				switch {
				case tc.p0(x):
					return colP0
				case tc.pf(x):
					return colPF
				}
				return colBK
			}
			for _, row := range []int{0, 1, 100, 209} {
				expectRow(t, scr, row, want)
			}
			// The player overlaps the playfield in "two copies" (82..89) and "double"
			// (67..82) against PF at 80..95.
			cx := c.Peek(0x02) & 0x80 // CXP0FB bit 7: P0-PF
			if wantCX := tc.nusiz == 1 || tc.nusiz == 5; (cx != 0) != wantCX {
				t.Errorf("P0-PF collision %v, want %v", cx != 0, wantCX)
			}
		})
	}
}

// TestTIAScoreMode checks that score mode colours the playfield with COLUP0/COLUP1 by
// half when the playfield is the only enabled object.
func TestTIAScoreMode(t *testing.T) {
	rom := frameProgram([][2]byte{
		{0x09, colBK}, {0x08, colPF}, {0x06, colP0}, {0x07, 0x34}, {0x0D, 0xF0}, {0x0A, 0x06},
	}, 20)
	_, scr := runProgram(t, rom)
	expectRow(t, scr, 50, func(x int) byte {
		switch {
		case x < 16:
			return colP0
		case x >= 80 && x < 96:
			return 0x34
		}
		return colBK
	})
}

// TestReadNoiseIsLastBusValue checks the undriven low six bits of TIA reads: they hold
// the previous bus access's value. For PLA with the stack in the TIA's page, the first
// (dummy) stack read follows the opcode fetch, so the opcode is what it sees; zero-page
// and absolute reads see their last operand byte.
func TestReadNoiseIsLastBusValue(t *testing.T) {
	p := &prog{}
	p.emit(0xA2, 0x02, 0x9A)             // LDX #$02; TXS: the stack reads $0102, $0103 (TIA)
	p.emit(0x68, 0x85, 0x80)             // PLA; STA $80
	p.emit(0xA5, 0x02, 0x85, 0x81)       // LDA $02 (zp); STA $81
	p.emit(0xAD, 0x02, 0x00, 0x85, 0x82) // LDA $0002 (abs); STA $82
	p.emit(0x02)                         // JAM
	c, err := NewConsole(p.rom(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.RunFrame(); !errors.Is(err, ErrJAM) {
		t.Fatalf("RunFrame: %v, want the program's JAM", err)
	}
	ram := c.RAM()
	// No object has been drawn, so the collision bits (7 and 6) are clear.
	for i, want := range []byte{0x68 & 0x3F, 0x02, 0x00} {
		if ram[i] != want {
			t.Errorf("read %d = %02X, want %02X (the last bus value's low bits)", i, ram[i], want)
		}
	}
}

// TestNoopWritesForgetChangedState checks the remembered no-change writes (tia.noop)
// against the state their tests read: after a write that changes GRP1, ENABL or GRP0,
// or a Load, a repeat of a write that was a no-op before must take effect again.
func TestNoopWritesForgetChangedState(t *testing.T) {
	c, err := NewConsole(idleROM(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	tia := c.tia
	w := func(reg uint16, v uint8) {
		c.cpu.Cycles += 3
		c.cpu.write(reg, v)
	}
	const pf0, grp0, grp1, enabl = 0x0D, 0x1B, 0x1C, 0x1F

	// GRP0's test compares dgrp1 with grp1: a GRP1 write must end the no-op.
	w(grp1, 0x11)
	w(grp0, 0xAA)
	w(grp0, 0xAA)
	if tia.noop[grp0] == 0 {
		t.Fatal("a repeated GRP0 write was not remembered as a no-op")
	}
	w(grp1, 0x22)
	w(grp0, 0xAA)
	if tia.dgrp1 != 0x22 {
		t.Errorf("GRP0 after a GRP1 change: delayed GRP1 = %#x, want 0x22", tia.dgrp1)
	}

	// GRP1's test compares dgrp0 with grp0 and denabl with enabl.
	w(enabl, 2)
	w(grp1, 0x33)
	w(grp1, 0x33)
	w(enabl, 0)
	w(grp1, 0x33)
	if tia.denabl {
		t.Error("GRP1 after an ENABL change: the delayed ball enable was not copied")
	}
	w(grp0, 0x01)
	w(grp1, 0x33)
	w(grp1, 0x33)
	w(grp0, 0x02)
	w(grp1, 0x33)
	if tia.dgrp0 != 0x02 {
		t.Errorf("GRP1 after a GRP0 change: delayed GRP0 = %#x, want 0x02", tia.dgrp0)
	}

	// Load replaces the state the remembered writes were tested against.
	w(pf0, 0x10)
	var s State
	c.Save(&s)
	w(pf0, 0x20)
	w(pf0, 0x20)
	c.Load(&s)
	w(pf0, 0x20)
	if tia.pf&0xF != 0x2 {
		t.Errorf("PF0 write after Load: pf = %#x, want PF0 bits 0x2", tia.pf)
	}
}

// TestPFLineCacheMatchesDirectDrawing draws random background-and-playfield spans
// through drawPF twice: on a TIA whose line cache carries over from draw to draw (hits,
// misses and evictions among a small set of keys) and on one whose cache is emptied
// before each draw, so that every long span is drawn afresh. The pixels must agree.
func TestPFLineCacheMatchesDirectDrawing(t *testing.T) {
	var tias [2]*tia
	for i := range tias {
		c, err := NewConsole(idleROM(), DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		tias[i] = c.tia
	}
	rng := uint32(12345)
	next := func(n int) int {
		rng = rng*1664525 + 1013904223
		return int(rng>>8) % n
	}
	pfs := []uint32{0, 0xFFFFF, 0x12345, 0x80001}
	var out [2][160]byte
	for i := 0; i < 5000; i++ {
		pf, mask := pfs[next(len(pfs))], &pfMaskTab[next(2)]
		colors := [4]uint8{uint8(next(3) * 2), 0x1E, 0x86, 0x44}
		prio := uint8(next(4) * 2)
		x := next(160)
		n := next(161 - x)
		tias[1].pfLines = pfLineCache{}
		for j, tia := range tias {
			tia.setPF(pf)
			tia.pfMask, tia.colors, tia.prioScore = mask, colors, prio
			tia.drawPF(out[j][x:x+n], x)
		}
		if out[0] != out[1] {
			t.Fatalf("draw %d (x %d, n %d, pf %#x, colours %v, priority %d): cached %v, fresh %v",
				i, x, n, pf, colors, prio, out[0][x:x+n], out[1][x:x+n])
		}
	}
}
