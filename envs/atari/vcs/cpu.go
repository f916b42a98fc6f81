package vcs

import (
	"errors"
	"fmt"
)

// Bus is what the CPU reads and writes: the 2600 memory map, or a flat 64 KiB array in
// tests. The CPU always passes the full 16-bit address; masking to the 6507's 13 address
// lines is the bus's job, exactly as in Stella's System::peek/poke.
type Bus interface {
	Read(addr uint16) uint8
	Write(addr uint16, v uint8)
}

// ErrJAM is the sentinel wrapped by every error that reports a JAM (KIL) opcode. ALE's
// M6502Low does not implement the 12 JAM opcodes: it sets its fatal bit and the CPU stays
// frozen until the next reset. Callers test for it with errors.Is(err, ErrJAM).
var ErrJAM = errors.New("vcs: 6507 jammed")

// JAMError says which JAM opcode stopped the CPU and where. It wraps ErrJAM so that
// callers can use errors.Is, and it carries the details for logs and for error.As.
type JAMError struct {
	Opcode uint8  // the JAM opcode that was fetched
	PC     uint16 // address of that opcode (the CPU's PC already points past it)
}

// Error formats the opcode and its address.
func (e *JAMError) Error() string {
	return fmt.Sprintf("%v: opcode $%02X at $%04X", ErrJAM, e.Opcode, e.PC)
}

// Unwrap returns ErrJAM, so errors.Is(err, ErrJAM) holds for every JAM report.
func (e *JAMError) Unwrap() error { return ErrJAM }

// CPU is the 6507 as ALE's M6502Low models it: the whole base cycle count of an opcode
// is charged right after the opcode fetch, the bus sees only the accesses M6502Low
// makes (no real-hardware dummy cycles), decimal mode is Stella's table-driven version,
// and the undocumented opcodes behave as Stella implements them
// (docs/design/emulator.md, The CPU).
type CPU struct {
	// A, X, Y and SP are the 8-bit registers; PC is the full 16-bit program counter
	// (never masked, as in Stella).
	A, X, Y, SP uint8
	PC          uint16

	// Cycles is the system cycle counter. The opcode's base cycle count is added right
	// after the opcode fetch, page-cross and taken-branch cycles later, where M6502Low
	// adds them (docs/design/emulator.md, The CPU). The console rebases it and the TIA
	// adds WSYNC stalls to it directly.
	Cycles uint64

	// LastAccessWasRead is true when the CPU's latest completed bus access was a read. It
	// is updated after the device call returns, so a device's Write handler sees the kind
	// of the access before the write (the TIA needs this for WSYNC).
	LastAccessWasRead bool

	// Halted is set by a JAM opcode; only Reset (or SetState) clears it.
	Halted bool

	bus  Bus
	stop bool // set by Stop, cleared when Run starts
	// exit is set by Stop and by a JAM: the instruction loop's single test for leaving
	// early (one load and branch per instruction instead of two).
	exit bool

	// rpages and wpages map each 64-byte page of the 13-bit address space to bytes that
	// a read (or write) reaches directly, without side effects: RIOT RAM and cartridge
	// ROM pages without hotspots. A nil page goes through the Bus. The console fills
	// them (carts remap theirs on bank switches); a flat test bus leaves them nil. This
	// is Stella's page-access table, here so that the common accesses inline.
	rpages, wpages [128]*[64]byte
	// con is the bus when it is a Console: the slow paths call it directly rather than
	// through the interface, and skipTimerWait asks its RIOT about the timer.
	con *Console
	// skippedIters counts the loop iterations skipTimerWait and the delay-loop skips
	// ran by arithmetic (for tests); noSkip turns all of them off (tests compare).
	skippedIters uint64
	noSkip       bool
	// dataBus is the value of the latest bus access (TIA reads return its low bits as
	// noise). The console records it on every access.
	dataBus uint8

	// Flags, stored apart for speed. flagN holds a byte whose bit 7 is N; flagNZ holds a
	// byte that is zero exactly when Z is set (Stella's "notZ"). B is always 1 and not stored.
	flagN, flagNZ              uint8
	flagV, flagD, flagI, flagC bool
	jamOpcode                  uint8
	jamPC                      uint16
	jamErr                     error // cached so a halted CPU reports without allocating
	harteMode                  bool  // tests only: behave as the Harte vectors expect, see cpu_ops.go
}

// CPUState is a plain copy of everything the CPU holds, so the console can save and
// restore the machine cheaply (State and SetState copy it by value, no allocation).
type CPUState struct {
	A, X, Y, SP uint8  // registers
	P           uint8  // packed status as P() returns it (lossless: B is always 1)
	PC          uint16 // program counter
	Cycles      uint64 // system cycle counter

	LastAccessWasRead bool   // kind of the latest bus access
	Halted            bool   // a JAM froze the CPU
	StopRequested     bool   // Stop was called since Run last started
	JAMOpcode         uint8  // the JAM opcode; meaningful only when Halted
	JAMPC             uint16 // its address; meaningful only when Halted
}

// NewCPU returns a CPU attached to bus. Registers are zero; call Reset once the bus can
// answer the reset vector.
func NewCPU(bus Bus) *CPU {
	c := &CPU{bus: bus, SP: 0xFF, flagNZ: 1, LastAccessWasRead: true}
	c.con, _ = bus.(*Console)
	return c
}

// Reset is M6502::reset (docs/design/emulator.md, The CPU): A = X = Y = 0, SP = 0xFF,
// status 0x20 (so I is clear, unlike real hardware), stop and JAM cleared, last access
// a read, and PC read little-endian from 0xFFFC then 0xFFFD through the bus. Cycles is
// left alone: the system resets its counter itself.
func (c *CPU) Reset() {
	c.A, c.X, c.Y, c.SP = 0, 0, 0, 0xFF
	c.SetP(0x20)
	c.Halted, c.stop, c.exit = false, false, false
	c.jamErr, c.jamOpcode, c.jamPC = nil, 0, 0
	c.LastAccessWasRead = true
	lo := c.bus.Read(0xFFFC)
	hi := c.bus.Read(0xFFFD)
	c.PC = uint16(lo) | uint16(hi)<<8
}

// P packs the status byte the way Stella's PS() does: N V 1 B D I Z C with B and bit 5
// always set, which is also what PHP and BRK push.
func (c *CPU) P() uint8 {
	p := uint8(0x30) | c.flagN&0x80
	if c.flagV {
		p |= 0x40
	}
	if c.flagD {
		p |= 0x08
	}
	if c.flagI {
		p |= 0x04
	}
	if c.flagNZ == 0 {
		p |= 0x02
	}
	if c.flagC {
		p |= 0x01
	}
	return p
}

// SetP unpacks a status byte as PLP and RTI do: N, V, D, I, Z and C come from p; B stays 1.
func (c *CPU) SetP(p uint8) {
	c.flagN = p & 0x80
	c.flagNZ = ^p & 0x02
	c.flagV = p&0x40 != 0
	c.flagD = p&0x08 != 0
	c.flagI = p&0x04 != 0
	c.flagC = p&0x01 != 0
}

// Stop asks the CPU to return from Run once the current instruction is complete. The TIA
// calls it from inside a write (frame end), as Stella's M6502::stop does.
func (c *CPU) Stop() { c.stop, c.exit = true, true }

// StopRequested reports whether Stop was called since Run last started, so the caller
// can tell a frame end from an exhausted instruction budget.
func (c *CPU) StopRequested() bool { return c.stop }

// Step executes one instruction. A JAM opcode halts the CPU and returns a *JAMError
// wrapping ErrJAM; a halted CPU returns the same error again without touching the bus.
func (c *CPU) Step() error {
	if c.Halted {
		return c.jamErr
	}
	c.execute(1)
	if c.Halted {
		return c.jamErr
	}
	return nil
}

// Run is M6502Low::execute(n) (docs/design/emulator.md, The CPU): it clears the stop
// request, then executes instructions until maxInstructions have run, Stop was called
// during one, or a JAM halts the CPU. It returns how many instructions ran (a JAM
// opcode counts, as the C++ loop decrements its counter for it) and the JAM error if
// the CPU is halted.
func (c *CPU) Run(maxInstructions int) (executed int, err error) {
	c.stop, c.exit = false, false
	if c.Halted {
		return 0, c.jamErr
	}
	executed = c.execute(maxInstructions)
	if c.Halted {
		return executed, c.jamErr
	}
	return executed, nil
}

// State returns a copy of all CPU registers, flags and counters.
func (c *CPU) State() CPUState {
	return CPUState{
		A: c.A, X: c.X, Y: c.Y, SP: c.SP, P: c.P(), PC: c.PC, Cycles: c.Cycles,
		LastAccessWasRead: c.LastAccessWasRead, Halted: c.Halted, StopRequested: c.stop,
		JAMOpcode: c.jamOpcode, JAMPC: c.jamPC,
	}
}

// SetState restores a copy made by State. The bus is kept.
func (c *CPU) SetState(s CPUState) {
	c.A, c.X, c.Y, c.SP, c.PC, c.Cycles = s.A, s.X, s.Y, s.SP, s.PC, s.Cycles
	c.SetP(s.P)
	c.LastAccessWasRead, c.Halted, c.stop = s.LastAccessWasRead, s.Halted, s.StopRequested
	c.exit = c.stop || c.Halted
	c.jamOpcode, c.jamPC, c.jamErr = s.JAMOpcode, s.JAMPC, nil
	if s.Halted {
		c.jamErr = &JAMError{Opcode: s.JAMOpcode, PC: s.JAMPC}
	}
}

// jam halts the CPU on a JAM opcode fetched at pc (M6502Low's default case: the fatal bit).
func (c *CPU) jam(op uint8, pc uint16) {
	c.Halted, c.exit = true, true
	c.jamOpcode, c.jamPC = op, pc
	c.jamErr = &JAMError{Opcode: op, PC: pc}
}
