package vcs

// dpcState is the mutable state of the DPC chip (Pitfall II): eight data fetchers,
// the random-number LFSR and the music timing stamp.
type dpcState struct {
	Tops, Bottoms, Flags [8]uint8
	Counters             [8]uint16
	Music                [3]bool // music mode of fetchers 5..7
	Random               uint8
	Stamp                uint32  // system cycle of the last music update (rebased)
	Frac                 float64 // fractional DPC oscillator clocks
}

// dpcCart is David Crane's DPC scheme as ALE's Stella implements it
// (docs/design/emulator.md, Cartridges): two 4K program banks switched by FF8/FF9 and a
// 2K display image read through the data fetchers at offsets 0x000-0x07F.
type dpcCart struct {
	prog []byte // 8K program
	disp []byte // 2K display data
	bank int
	st   dpcState
	con  *Console
}

func newDPCCart(img []byte) *dpcCart {
	c := &dpcCart{prog: img[:8192], disp: img[8192:10240], bank: 1}
	c.st.Random = 1
	return c
}

// clockRandom steps the 8-bit LFSR once; in = NOT(b7 ^ b5 ^ b4 ^ b3).
func (c *dpcCart) clockRandom() {
	r := c.st.Random
	in := ^((r >> 7) ^ (r >> 5) ^ (r >> 4) ^ (r >> 3)) & 1
	c.st.Random = r<<1 | in
}

var dpcAmplitudes = [8]uint8{0x00, 0x04, 0x05, 0x09, 0x06, 0x0A, 0x0B, 0x0F}

func (c *dpcCart) read(addr uint16) uint8 {
	off := addr & 0xFFF
	if off >= 0x080 && off < 0xFC0 {
		return c.prog[c.bank<<12|int(off)]
	}
	c.clockRandom()
	if off >= 0x040 {
		switch off {
		case 0xFF8:
			c.switchTo(0)
		case 0xFF9:
			c.switchTo(1)
		}
		return c.prog[c.bank<<12|int(off)]
	}
	return c.fetch(int(off&7), (off>>3)&7)
}

// fetch is a read of data fetcher i with function f (offsets 0x000-0x03F).
func (c *dpcCart) fetch(i int, f uint16) uint8 {
	s := &c.st
	low := uint8(s.Counters[i])
	if low == s.Tops[i] {
		s.Flags[i] = 0xFF
	} else if low == s.Bottoms[i] {
		s.Flags[i] = 0
	}
	var v uint8
	switch f {
	case 0:
		if i < 4 {
			v = s.Random
		} else {
			c.updateMusic()
			k := 0
			if s.Music[0] && s.Flags[5] != 0 {
				k |= 1
			}
			if s.Music[1] && s.Flags[6] != 0 {
				k |= 2
			}
			if s.Music[2] && s.Flags[7] != 0 {
				k |= 4
			}
			v = dpcAmplitudes[k]
		}
	case 1:
		v = c.disp[2047-int(s.Counters[i])]
	case 2:
		v = c.disp[2047-int(s.Counters[i])] & s.Flags[i]
	case 7:
		v = s.Flags[i]
	}
	if i < 5 || !s.Music[i-5] {
		s.Counters[i] = (s.Counters[i] - 1) & 0x7FF
	}
	return v
}

// updateMusic advances the music-mode fetchers by the DPC oscillator clocks elapsed
// since the last update, in the same double-precision steps as Stella.
func (c *dpcCart) updateMusic() {
	s := &c.st
	now := c.con.cycles()
	cyc := int32(now - s.Stamp)
	s.Stamp = now
	x := (15750.0*float64(cyc))/1193191.66666667 + s.Frac
	whole := int32(x)
	s.Frac = x - float64(whole)
	if whole <= 0 {
		return
	}
	for k := 5; k <= 7; k++ {
		if !s.Music[k-5] {
			continue
		}
		top := int32(s.Tops[k]) + 1
		low := int32(s.Counters[k] & 0xFF)
		if s.Tops[k] != 0 {
			low -= whole % top
			if low < 0 {
				low += top
			}
		} else {
			low = 0
		}
		if low <= int32(s.Bottoms[k]) {
			s.Flags[k] = 0
		} else if low <= int32(s.Tops[k]) {
			s.Flags[k] = 0xFF
		}
		s.Counters[k] = s.Counters[k]&0x700 | uint16(low)
	}
}

func (c *dpcCart) write(addr uint16, v uint8) {
	off := addr & 0xFFF
	c.clockRandom()
	if off < 0x040 || off >= 0x080 {
		switch off {
		case 0xFF8:
			c.switchTo(0)
		case 0xFF9:
			c.switchTo(1)
		}
		return
	}
	s := &c.st
	i := int(off & 7)
	switch (off >> 3) & 7 {
	case 0:
		s.Tops[i], s.Flags[i] = v, 0
	case 1:
		s.Bottoms[i] = v
	case 2:
		if i >= 5 && s.Music[i-5] {
			s.Counters[i] = s.Counters[i]&0x700 | uint16(s.Tops[i])
		} else {
			s.Counters[i] = s.Counters[i]&0x700 | uint16(v)
		}
	case 3:
		s.Counters[i] = uint16(v&7)<<8 | s.Counters[i]&0xFF
		if i >= 5 {
			s.Music[i-5] = v&0x10 != 0
		}
	case 6:
		s.Random = 1
	}
}

// reset only restamps the music clock and selects bank 1; the fetcher registers keep
// their values (they are initialised in the constructor only).
func (c *dpcCart) reset(con *Console) {
	c.st.Stamp = con.cycles()
	c.st.Frac = 0
	c.switchTo(1)
}

// switchTo selects program bank b and remaps the direct-read pages if it changed.
func (c *dpcCart) switchTo(b int) {
	if b != c.bank {
		c.bank = b
		c.con.remapCart()
	}
}

func (c *dpcCart) attach(con *Console) { c.con = con }

// mapPages maps the program bank directly except the fetcher pages (0x000-0x07F) and
// the hotspot page, whose reads clock the random generator.
func (c *dpcCart) mapPages(pages []*[64]byte) {
	for p := range pages {
		pages[p] = page(c.prog, c.bank<<12|p<<6)
	}
	pages[0], pages[1], pages[63] = nil, nil, nil
}

func (c *dpcCart) rebase(cycles uint32) { c.st.Stamp -= cycles }
func (c *dpcCart) scheme() string       { return "DPC" }
func (c *dpcCart) save(s *cartState)    { s.Bank, s.DPC = c.bank, c.st }
func (c *dpcCart) load(s *cartState)    { c.bank, c.st = s.Bank, s.DPC }
