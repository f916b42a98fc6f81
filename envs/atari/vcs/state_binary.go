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
	start := len(b)
	e := &binstate.Encoder{B: b}
	e.U8(StateFormat)
	e.U8(uint8(len(s.scheme)))
	e.Bytes([]byte(s.scheme))
	e.Int(s.romSize)
	encodeCPU(e, &s.cpu)
	if err := encodeTIA(e, &s.tia); err != nil {
		return b, err
	}
	encodeRIOT(e, &s.riot)
	encodeCart(e, &s.cart)
	encodeRandom(e, &s.rng)
	e.U8(s.dataBus)
	encodeInput(e, &s.in)
	e.Bool(s.inputSet)
	e.U8(s.switches)
	for _, buf := range s.bufs {
		e.Bytes(buf)
	}
	e.Seal(start)
	return e.B, nil
}

// UnmarshalBinary decodes what MarshalBinary wrote into s. A damaged or truncated
// encoding, an unknown format version or a value out of its range is an error and
// leaves s unchanged; Console.Restore then checks that the state fits the console.
func (s *State) UnmarshalBinary(b []byte) error {
	d, err := binstate.Open(b, "vcs: machine state")
	if err != nil {
		return err
	}
	if v := d.U8(); v != StateFormat {
		return fmt.Errorf("vcs: machine state has format version %d; this build reads version %d", v, StateFormat)
	}
	var t State
	name := make([]byte, d.U8())
	d.Bytes(name)
	t.scheme = string(name)
	d.Check(slices.Contains(SupportedSchemes, t.scheme), "unknown cartridge scheme %q", t.scheme)
	t.romSize = d.IntIn("ROM size", 1, 1<<20)
	decodeCPU(d, &t.cpu)
	decodeTIA(d, &t.tia)
	decodeRIOT(d, &t.riot)
	decodeCart(d, &t.cart)
	decodeRandom(d, &t.rng)
	t.dataBus = d.U8()
	decodeInput(d, &t.in)
	t.inputSet = d.Bool()
	t.switches = d.U8()
	for i := range t.bufs {
		t.bufs[i] = make([]byte, bufSize)
		d.Bytes(t.bufs[i])
	}
	if err := d.Finish(); err != nil {
		return err
	}
	t.valid = true
	*s = t
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

func encodeCPU(e *binstate.Encoder, c *CPUState) {
	e.Bytes([]byte{c.A, c.X, c.Y, c.SP, c.P})
	e.U16(c.PC)
	e.U64(c.Cycles)
	e.Bool(c.LastAccessWasRead)
	e.Bool(c.Halted)
	e.Bool(c.StopRequested)
	e.U8(c.JAMOpcode)
	e.U16(c.JAMPC)
}

func decodeCPU(d *binstate.Decoder, c *CPUState) {
	c.A, c.X, c.Y, c.SP, c.P = d.U8(), d.U8(), d.U8(), d.U8(), d.U8()
	c.PC = d.U16()
	c.Cycles = d.U64()
	c.LastAccessWasRead = d.Bool()
	c.Halted = d.Bool()
	c.StopRequested = d.Bool()
	c.JAMOpcode = d.U8()
	c.JAMPC = d.U16()
}

func encodeTIA(e *binstate.Encoder, t *tiaState) error {
	for _, v := range []int32{t.frameStart, t.displayStart, t.displayStop, t.lastUpdate, t.clocksToEOL,
		t.vsyncFinish, t.lastHMOVEClock, t.dumpDisabledCycle, t.pending} {
		e.I32(v)
	}
	e.Int(t.framePtr)
	e.Int(t.cur)
	e.Int(t.cosmicCounter)
	e.U32(t.lastScanlines)
	e.U32(t.pf)
	e.U16(t.collision)
	e.Bytes([]byte{t.vsync, t.vblank, t.nusiz0, t.nusiz1, t.ctrlpf, t.prioScore,
		t.colors[0], t.colors[1], t.colors[2], t.colors[3],
		t.grp0, t.grp1, t.dgrp0, t.dgrp1, t.curGRP0, t.curGRP1,
		t.hmp0, t.hmp1, t.hmm0, t.hmm1, t.hmbl, t.enabled})
	for _, v := range []bool{t.partial, t.greyed, t.refp0, t.refp1, t.enam0, t.enam1, t.enabl, t.denabl,
		t.vdelp0, t.vdelp1, t.vdelbl, t.resmp0, t.resmp1, t.hmoveBlank, t.cosmicArk, t.dumpEnabled, t.suppressed} {
		e.Bool(v)
	}
	for _, p := range []int32{t.posp0, t.posp1, t.posm0, t.posm1, t.posbl} {
		e.I32(p)
	}
	for _, m := range []*objMask{&t.p0Mask, &t.p1Mask, &t.m0Mask, &t.m1Mask, &t.blMask} {
		k := slices.IndexFunc(maskShapes, func(s maskShape) bool { return s.bits == m.bits })
		if k < 0 || m.off < 0 || m.off > 160 {
			return fmt.Errorf("vcs: encoding a State whose TIA object mask is not one of the mask tables")
		}
		e.U8(uint8(k))
		e.U8(uint8(m.off))
	}
	pf := slices.Index([]*[160]uint32{&pfMaskTab[0], &pfMaskTab[1]}, t.pfMask)
	if pf < 0 {
		return fmt.Errorf("vcs: encoding a State whose playfield mask is not one of the mask tables")
	}
	e.U8(uint8(pf))
	return nil
}

func decodeTIA(d *binstate.Decoder, t *tiaState) {
	for _, v := range []*int32{&t.frameStart, &t.displayStart, &t.displayStop, &t.lastUpdate, &t.clocksToEOL,
		&t.vsyncFinish, &t.lastHMOVEClock, &t.dumpDisabledCycle, &t.pending} {
		*v = d.I32()
	}
	t.framePtr = d.IntIn("TIA frame pointer", 0, bufSize)
	t.cur = d.IntIn("TIA frame buffer index", 0, 1)
	t.cosmicCounter = d.IntIn("TIA Cosmic Ark counter", 0, 3)
	t.lastScanlines = d.U32()
	t.pf = d.U32()
	t.collision = d.U16()
	for _, v := range []*uint8{&t.vsync, &t.vblank, &t.nusiz0, &t.nusiz1, &t.ctrlpf, &t.prioScore,
		&t.colors[0], &t.colors[1], &t.colors[2], &t.colors[3],
		&t.grp0, &t.grp1, &t.dgrp0, &t.dgrp1, &t.curGRP0, &t.curGRP1,
		&t.hmp0, &t.hmp1, &t.hmm0, &t.hmm1, &t.hmbl, &t.enabled} {
		*v = d.U8()
	}
	for _, v := range []*bool{&t.partial, &t.greyed, &t.refp0, &t.refp1, &t.enam0, &t.enam1, &t.enabl, &t.denabl,
		&t.vdelp0, &t.vdelp1, &t.vdelbl, &t.resmp0, &t.resmp1, &t.hmoveBlank, &t.cosmicArk, &t.dumpEnabled, &t.suppressed} {
		*v = d.Bool()
	}
	for _, p := range []*int32{&t.posp0, &t.posp1, &t.posm0, &t.posm1, &t.posbl} {
		*p = d.I32()
		d.Check(0 <= *p && *p < screenWidth, "TIA object position %d is outside 0..159", *p)
	}
	for _, m := range []*objMask{&t.p0Mask, &t.p1Mask, &t.m0Mask, &t.m1Mask, &t.blMask} {
		k, off := int(d.U8()), int(d.U8())
		d.Check(k < len(maskShapes) && off <= 160, "TIA object mask %d at offset %d is not one of the mask tables", k, off)
		if k >= len(maskShapes) || off > 160 {
			k, off = len(maskShapes)-1, 0
		}
		s := maskShapes[k]
		*m = objMask{px: s.row[off : off+160], bits: s.bits, off: off}
	}
	pf := d.U8()
	d.Check(pf <= 1, "TIA playfield mask %d is not 0 or 1", pf)
	t.pfMask = &pfMaskTab[pf&1]
}

func encodeRIOT(e *binstate.Encoder, r *riotState) {
	e.Bytes(r.RAM[:])
	for _, v := range []uint32{r.timer, r.shift, r.setCycle, r.irCycle} {
		e.U32(v)
	}
	e.Bool(r.readAfterIR)
	e.U8(r.ddra)
}

func decodeRIOT(d *binstate.Decoder, r *riotState) {
	d.Bytes(r.RAM[:])
	for _, v := range []*uint32{&r.timer, &r.shift, &r.setCycle, &r.irCycle} {
		*v = d.U32()
	}
	r.readAfterIR = d.Bool()
	r.ddra = d.U8()
}

// encodeCart writes every scheme's fields whatever the cartridge: a scheme leaves the
// ones it does not use at their zero values.
func encodeCart(e *binstate.Encoder, c *cartState) {
	e.Int(c.Bank)
	for _, g := range c.Seg {
		e.U16(g)
	}
	e.Bytes(c.RAM[:])
	p := &c.DPC
	e.Bytes(p.Tops[:])
	e.Bytes(p.Bottoms[:])
	e.Bytes(p.Flags[:])
	for _, v := range p.Counters {
		e.U16(v)
	}
	for _, m := range p.Music {
		e.Bool(m)
	}
	e.U8(p.Random)
	e.U32(p.Stamp)
	e.F64(p.Frac)
}

func decodeCart(d *binstate.Decoder, c *cartState) {
	c.Bank = d.IntIn("cartridge bank", 0, 7)
	for i := range c.Seg {
		c.Seg[i] = d.U16()
		d.Check(c.Seg[i] <= 7, "E0 segment slice %d is beyond 7", c.Seg[i])
	}
	d.Bytes(c.RAM[:])
	p := &c.DPC
	d.Bytes(p.Tops[:])
	d.Bytes(p.Bottoms[:])
	d.Bytes(p.Flags[:])
	for i := range p.Counters {
		p.Counters[i] = d.U16()
		d.Check(p.Counters[i] <= 0x7FF, "DPC counter %#x is beyond 0x7FF", p.Counters[i])
	}
	for i := range p.Music {
		p.Music[i] = d.Bool()
	}
	p.Random = d.U8()
	p.Stamp = d.U32()
	p.Frac = d.F64()
}

// randomSize is the length of a Random's encoding: 624 words and the position.
const randomSize = 624*4 + 8

// MarshalBinary encodes the generator's position in its sequence: its 624 state words
// and index, little-endian, so that a restored generator continues the same sequence.
func (r *Random) MarshalBinary() ([]byte, error) {
	e := &binstate.Encoder{B: make([]byte, 0, randomSize)}
	encodeRandom(e, r)
	return e.B, nil
}

// UnmarshalBinary restores what MarshalBinary saved; a wrong length or an index beyond
// the state words is an error and leaves r unchanged.
func (r *Random) UnmarshalBinary(b []byte) error {
	d := binstate.NewDecoder(b, "vcs: random generator state")
	var t Random
	decodeRandom(d, &t)
	if err := d.Finish(); err != nil {
		return err
	}
	*r = t
	return nil
}

func encodeRandom(e *binstate.Encoder, r *Random) {
	for _, w := range r.mt {
		e.U32(w)
	}
	e.Int(r.idx)
}

func decodeRandom(d *binstate.Decoder, r *Random) {
	for i := range r.mt {
		r.mt[i] = d.U32()
	}
	r.idx = d.IntIn("random generator index", 0, len(r.mt))
}

// MarshalBinary encodes the input events field by field (one byte per flag, paddle
// resistances as 32-bit values).
func (in Input) MarshalBinary() ([]byte, error) {
	e := &binstate.Encoder{}
	encodeInput(e, &in)
	return e.B, nil
}

// UnmarshalBinary restores what MarshalBinary saved; a wrong length or a flag other
// than 0 or 1 is an error and leaves in unchanged.
func (in *Input) UnmarshalBinary(b []byte) error {
	d := binstate.NewDecoder(b, "vcs: input state")
	var t Input
	decodeInput(d, &t)
	if err := d.Finish(); err != nil {
		return err
	}
	*in = t
	return nil
}

// inputFlags lists the flags of an Input in their encoding order.
func inputFlags(in *Input) []*bool {
	return []*bool{&in.Up[0], &in.Up[1], &in.Down[0], &in.Down[1], &in.Left[0], &in.Left[1],
		&in.Right[0], &in.Right[1], &in.Fire[0], &in.Fire[1],
		&in.PaddleFire[0], &in.PaddleFire[1], &in.PaddleFire[2], &in.PaddleFire[3],
		&in.Reset, &in.Select, &in.LeftDifficultyA, &in.RightDifficultyA}
}

func encodeInput(e *binstate.Encoder, in *Input) {
	for _, f := range inputFlags(in) {
		e.Bool(*f)
	}
	for _, r := range in.PaddleResistance {
		e.I32(r)
	}
}

func decodeInput(d *binstate.Decoder, in *Input) {
	for _, f := range inputFlags(in) {
		*f = d.Bool()
	}
	for i := range in.PaddleResistance {
		in.PaddleResistance[i] = d.I32()
	}
}
