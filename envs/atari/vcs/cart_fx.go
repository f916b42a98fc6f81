package vcs

// bankCart covers the F8, F6 and F4 schemes (2, 4 or 8 banks of 4K switched by
// accessing the offsets just below 0xFFC) and their Superchip (SC) variants with 128
// bytes of extra RAM: writes at offsets 0x000-0x07F, reads at 0x080-0x0FF
// (docs/design/emulator.md, Cartridges).
type bankCart struct {
	rom       []byte
	bank      int
	startBank int
	hotLo     uint16 // first hotspot offset (bank 0)
	hotHi     uint16 // last hotspot offset
	sc        bool
	ram       [128]byte
	name      string
	con       *Console
}

func newBankCart(img []byte, scheme string, startBank int) *bankCart {
	c := &bankCart{rom: img, startBank: startBank, name: scheme}
	switch scheme[:2] {
	case "F8":
		c.hotLo, c.hotHi = 0xFF8, 0xFF9
	case "F6":
		c.hotLo, c.hotHi = 0xFF6, 0xFF9
	default:
		c.hotLo, c.hotHi = 0xFF4, 0xFFB
	}
	c.sc = len(scheme) == 4
	c.bank = startBank
	return c
}

// read switches banks first when the offset is a hotspot, then returns the byte of
// the (new) bank, or Superchip RAM at its read port.
func (c *bankCart) read(addr uint16) uint8 {
	off := addr & 0xFFF
	if off >= c.hotLo && off <= c.hotHi {
		c.switchTo(int(off - c.hotLo))
	}
	if c.sc && off&0xF80 == 0x080 {
		return c.ram[off&0x7F]
	}
	return c.rom[c.bank<<12|int(off)]
}

// write switches banks on hotspots and stores into Superchip RAM at its write port.
func (c *bankCart) write(addr uint16, v uint8) {
	off := addr & 0xFFF
	if off >= c.hotLo && off <= c.hotHi {
		c.switchTo(int(off - c.hotLo))
	}
	if c.sc && off < 0x080 {
		c.ram[off] = v
	}
}

// reset re-randomises Superchip RAM (128 draws) and selects the start bank.
func (c *bankCart) reset(con *Console) {
	if c.sc {
		for i := range c.ram {
			c.ram[i] = uint8(con.rng.Next())
		}
	}
	c.switchTo(c.startBank)
}

// switchTo selects bank b and remaps the direct-read pages if it changed.
func (c *bankCart) switchTo(b int) {
	if b != c.bank {
		c.bank = b
		c.con.remapCart()
	}
}

func (c *bankCart) attach(con *Console) { c.con = con }

// mapPages maps the current bank directly, except the hotspot page (0xFC0-0xFFF),
// which goes through read, and the Superchip read port, which maps the RAM.
func (c *bankCart) mapPages(pages []*[64]byte) {
	for p := range pages {
		pages[p] = page(c.rom, c.bank<<12|p<<6)
	}
	pages[63] = nil
	if c.sc {
		pages[2] = page(c.ram[:], 0)
		pages[3] = page(c.ram[:], 64)
	}
}

func (c *bankCart) rebase(uint32)     {}
func (c *bankCart) scheme() string    { return c.name }
func (c *bankCart) save(s *cartState) { s.Bank, s.RAM = c.bank, c.ram }
func (c *bankCart) load(s *cartState) { c.bank, c.ram = s.Bank, s.RAM }
