package vcs

import (
	"fmt"
	"slices"

	"github.com/rlpool/rlpool/envs/atari/internal/binstate"
)

// StateFormat is the format version of State's byte encoding, its first byte. A change
// to what the encoding holds or its order gets a new version; UnmarshalBinary refuses
// versions it does not know.
const StateFormat = 1

// maskShape is one row of the object mask tables: an objMask points into one of them.
type maskShape struct {
	row  *[320]uint8
	bits *[5]uint64
}

// maskShapes lists every mask row an objMask can point into, so that a saved mask is
// the row's index and its offset.
var maskShapes = func() []maskShape {
	var out []maskShape
	for s := range playerMaskTab {
		for m := range playerMaskTab[s] {
			out = append(out, maskShape{&playerMaskTab[s][m], &playerBitsTab[s][m]})
		}
	}
	for m := range missileMaskTab {
		for s := range missileMaskTab[m] {
			out = append(out, maskShape{&missileMaskTab[m][s], &missileBitsTab[m][s]})
		}
	}
	for s := range ballMaskTab {
		out = append(out, maskShape{&ballMaskTab[s], &ballBitsTab[s]})
	}
	return append(out, maskShape{&noRow, &noBits})
}()

// MarshalBinary encodes the state (see AppendBinary).
func (s *State) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// AppendBinary appends the state's byte encoding to b: the format version
// (StateFormat), the cartridge scheme and ROM size it was saved from, then every part
// of the machine field by field as fixed-size little-endian values (CPU, TIA with
// both frame buffers, RIOT, cartridge, system RNG, bus, inputs and switches), and a
// CRC-32 of all of it. A State that was never saved is an error.
func (s *State) AppendBinary(b []byte) ([]byte, error) {
	if !s.valid {
		return b, fmt.Errorf("vcs: encoding a State that holds no saved machine; call Console.Save first")
	}
	c := binstate.NewWriter(b)
	if err := s.fields(c); err != nil {
		return b, err
	}
	c.Seal(len(b))
	return c.Data(), nil
}

// UnmarshalBinary decodes what MarshalBinary wrote into s. A damaged or truncated
// encoding, an unknown format version or a value out of its range is an error and
// leaves s unchanged; Console.Restore then checks that the state fits the console.
func (s *State) UnmarshalBinary(b []byte) error {
	c, err := binstate.Open(b, "vcs: machine state")
	if err != nil {
		return err
	}
	t := State{bufs: [2][]byte{make([]byte, bufSize), make([]byte, bufSize)}}
	if err := t.fields(c); err != nil {
		return err
	}
	if err := c.Finish(); err != nil {
		return err
	}
	t.valid = true
	*s = t
	return nil
}

// fields walks the state's encoding (see AppendBinary) for c.
func (s *State) fields(c *binstate.Codec) error {
	v := uint8(StateFormat)
	if c.U8(&v); v != StateFormat && c.Err() == nil {
		return fmt.Errorf("vcs: machine state has format version %d; this build reads version %d", v, StateFormat)
	}
	n := uint8(len(s.scheme))
	c.U8(&n)
	name := []byte(s.scheme)
	if !c.Writing() {
		name = make([]byte, n)
	}
	c.Bytes(name)
	s.scheme = string(name)
	c.Check(slices.Contains(SupportedSchemes, s.scheme), "unknown cartridge scheme %q", s.scheme)
	c.IntIn("ROM size", &s.romSize, 1, 1<<20)
	cpuFields(c, &s.cpu)
	if err := tiaFields(c, &s.tia); err != nil {
		return err
	}
	riotFields(c, &s.riot)
	cartFields(c, &s.cart)
	randomFields(c, &s.rng)
	c.U8(&s.dataBus)
	inputFields(c, &s.in)
	c.Bool(&s.inputSet)
	c.U8(&s.switches)
	for _, buf := range s.bufs {
		c.Bytes(buf)
	}
	return nil
}

// Restore loads a state into the console like Load, but reports a state that does
// not fit it (never saved, or saved from another cartridge scheme, ROM size or bank
// layout) as an error instead of panicking. Use it for states decoded from bytes.
func (c *Console) Restore(s *State) error {
	if !s.valid {
		return fmt.Errorf("vcs: restoring a State that holds no saved machine")
	}
	if s.scheme != c.cart.scheme() || s.romSize != c.romSize {
		return fmt.Errorf("vcs: the state was saved from a %s cartridge of %d bytes, but this console has a %s cartridge of %d bytes; restore it into a console built from the same ROM",
			s.scheme, s.romSize, c.cart.scheme(), c.romSize)
	}
	if err := checkCart(c.cart, &s.cart); err != nil {
		return err
	}
	c.Load(s)
	return nil
}

// checkCart checks that a saved cartridge state selects banks the cartridge has.
func checkCart(cart cartridge, s *cartState) error {
	switch k := cart.(type) {
	case *bankCart:
		if n := len(k.rom) >> 12; s.Bank < 0 || s.Bank >= n {
			return fmt.Errorf("vcs: the state selects bank %d of a %s cartridge with %d banks", s.Bank, k.name, n)
		}
	case *dpcCart:
		if s.Bank < 0 || s.Bank > 1 {
			return fmt.Errorf("vcs: the state selects bank %d of a DPC cartridge with 2 banks", s.Bank)
		}
	case *e0Cart:
		for _, g := range s.Seg {
			if n := len(k.rom) >> 10; int(g) >= n {
				return fmt.Errorf("vcs: the state selects slice %d of an E0 cartridge with %d slices", g, n)
			}
		}
	}
	return nil
}

func cpuFields(c *binstate.Codec, s *CPUState) {
	for _, p := range []*uint8{&s.A, &s.X, &s.Y, &s.SP, &s.P, &s.JAMOpcode} {
		c.U8(p)
	}
	c.U16(&s.PC)
	c.U16(&s.JAMPC)
	c.U64(&s.Cycles)
	for _, p := range []*bool{&s.LastAccessWasRead, &s.Halted, &s.StopRequested} {
		c.Bool(p)
	}
}

func tiaFields(c *binstate.Codec, t *tiaState) error {
	for _, p := range []*int32{&t.frameStart, &t.displayStart, &t.displayStop, &t.lastUpdate, &t.clocksToEOL,
		&t.vsyncFinish, &t.lastHMOVEClock, &t.dumpDisabledCycle, &t.pending} {
		c.I32(p)
	}
	c.IntIn("TIA frame pointer", &t.framePtr, 0, bufSize)
	c.IntIn("TIA frame buffer index", &t.cur, 0, 1)
	c.IntIn("TIA Cosmic Ark counter", &t.cosmicCounter, 0, 3)
	c.U32(&t.lastScanlines)
	c.U32(&t.pf)
	c.U16(&t.collision)
	for _, p := range []*uint8{&t.vsync, &t.vblank, &t.nusiz0, &t.nusiz1, &t.ctrlpf, &t.prioScore,
		&t.colors[0], &t.colors[1], &t.colors[2], &t.colors[3],
		&t.grp0, &t.grp1, &t.dgrp0, &t.dgrp1, &t.curGRP0, &t.curGRP1,
		&t.hmp0, &t.hmp1, &t.hmm0, &t.hmm1, &t.hmbl, &t.enabled} {
		c.U8(p)
	}
	for _, p := range []*bool{&t.partial, &t.greyed, &t.refp0, &t.refp1, &t.enam0, &t.enam1, &t.enabl, &t.denabl,
		&t.vdelp0, &t.vdelp1, &t.vdelbl, &t.resmp0, &t.resmp1, &t.hmoveBlank, &t.cosmicArk, &t.dumpEnabled, &t.suppressed} {
		c.Bool(p)
	}
	for _, p := range []*int32{&t.posp0, &t.posp1, &t.posm0, &t.posm1, &t.posbl} {
		c.I32(p)
		c.Check(0 <= *p && *p < screenWidth, "TIA object position %d is outside 0..159", *p)
	}
	// A mask is saved as the table row it points into and its offset.
	for _, m := range []*objMask{&t.p0Mask, &t.p1Mask, &t.m0Mask, &t.m1Mask, &t.blMask} {
		var k, off uint8
		if c.Writing() {
			i := slices.IndexFunc(maskShapes, func(s maskShape) bool { return s.bits == m.bits })
			if i < 0 || m.off < 0 || m.off > 160 {
				return fmt.Errorf("vcs: encoding a State whose TIA object mask is not one of the mask tables")
			}
			k, off = uint8(i), uint8(m.off)
		}
		c.U8(&k)
		c.U8(&off)
		if !c.Writing() {
			c.Check(int(k) < len(maskShapes) && off <= 160, "TIA object mask %d at offset %d is not one of the mask tables", k, off)
			k, off = min(k, uint8(len(maskShapes)-1)), min(off, 160)
			s := maskShapes[k]
			*m = objMask{px: s.row[off : int(off)+160], bits: s.bits, off: int(off)}
		}
	}
	pf := uint8(0)
	if t.pfMask == &pfMaskTab[1] {
		pf = 1
	}
	c.U8(&pf)
	c.Check(pf <= 1, "TIA playfield mask %d is not 0 or 1", pf)
	t.pfMask = &pfMaskTab[pf&1]
	return nil
}

func riotFields(c *binstate.Codec, r *riotState) {
	c.Bytes(r.RAM[:])
	for _, p := range []*uint32{&r.timer, &r.shift, &r.setCycle, &r.irCycle} {
		c.U32(p)
	}
	c.Bool(&r.readAfterIR)
	c.U8(&r.ddra)
}

// cartFields walks every scheme's fields whatever the cartridge: a scheme leaves the
// ones it does not use at their zero values.
func cartFields(c *binstate.Codec, s *cartState) {
	c.IntIn("cartridge bank", &s.Bank, 0, 7)
	for i := range s.Seg {
		c.U16(&s.Seg[i])
		c.Check(s.Seg[i] <= 7, "E0 segment slice %d is beyond 7", s.Seg[i])
	}
	c.Bytes(s.RAM[:])
	p := &s.DPC
	c.Bytes(p.Tops[:])
	c.Bytes(p.Bottoms[:])
	c.Bytes(p.Flags[:])
	for i := range p.Counters {
		c.U16(&p.Counters[i])
		c.Check(p.Counters[i] <= 0x7FF, "DPC counter %#x is beyond 0x7FF", p.Counters[i])
	}
	for i := range p.Music {
		c.Bool(&p.Music[i])
	}
	c.U8(&p.Random)
	c.U32(&p.Stamp)
	c.F64(&p.Frac)
}

// randomSize is the length of a Random's encoding: 624 words and the position.
const randomSize = 624*4 + 8

// MarshalBinary encodes the generator's position in its sequence: its 624 state words
// and index, little-endian, so that a restored generator continues the same sequence.
func (r *Random) MarshalBinary() ([]byte, error) {
	c := binstate.NewWriter(make([]byte, 0, randomSize))
	randomFields(c, r)
	return c.Data(), nil
}

// UnmarshalBinary restores what MarshalBinary saved; a wrong length or an index beyond
// the state words is an error and leaves r unchanged.
func (r *Random) UnmarshalBinary(b []byte) error {
	return decodeInto(b, "vcs: random generator state", r, randomFields)
}

func randomFields(c *binstate.Codec, r *Random) {
	for i := range r.mt {
		c.U32(&r.mt[i])
	}
	c.IntIn("random generator index", &r.idx, 0, len(r.mt))
}

// MarshalBinary encodes the input events field by field (one byte per flag, paddle
// resistances as 32-bit values).
func (in Input) MarshalBinary() ([]byte, error) {
	c := binstate.NewWriter(nil)
	inputFields(c, &in)
	return c.Data(), nil
}

// UnmarshalBinary restores what MarshalBinary saved; a wrong length or a flag other
// than 0 or 1 is an error and leaves in unchanged.
func (in *Input) UnmarshalBinary(b []byte) error {
	return decodeInto(b, "vcs: input state", in, inputFields)
}

func inputFields(c *binstate.Codec, in *Input) {
	for _, f := range []*bool{&in.Up[0], &in.Up[1], &in.Down[0], &in.Down[1], &in.Left[0], &in.Left[1],
		&in.Right[0], &in.Right[1], &in.Fire[0], &in.Fire[1],
		&in.PaddleFire[0], &in.PaddleFire[1], &in.PaddleFire[2], &in.PaddleFire[3],
		&in.Reset, &in.Select, &in.LeftDifficultyA, &in.RightDifficultyA} {
		c.Bool(f)
	}
	for i := range in.PaddleResistance {
		c.I32(&in.PaddleResistance[i])
	}
}

// decodeInto reads b with fields into a fresh value and stores it in *dst only if
// all of b decodes.
func decodeInto[T any](b []byte, what string, dst *T, fields func(*binstate.Codec, *T)) error {
	c := binstate.NewReader(b, what)
	var t T
	fields(c, &t)
	if err := c.Finish(); err != nil {
		return err
	}
	*dst = t
	return nil
}
