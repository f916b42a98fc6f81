package vcs

// e0Cart is Parker Brothers' E0 scheme: the 4K window is four 1K segments; segments
// 0-2 each select one of eight 1K slices through hotspots FE0-FE7, FE8-FEF and FF0-FF7
// (reads and writes), and segment 3 always shows slice 7.
type e0Cart struct {
	rom []byte
	seg [4]uint16
	con *Console
}

func newE0Cart(img []byte) *e0Cart {
	c := &e0Cart{rom: img}
	c.seg = [4]uint16{4, 5, 6, 7}
	return c
}

func (c *e0Cart) hotspot(off uint16) {
	if off >= 0xFE0 && off <= 0xFF7 {
		s := &c.seg[(off-0xFE0)>>3]
		if *s != off&7 {
			*s = off & 7
			c.con.remapCart()
		}
	}
}

func (c *e0Cart) read(addr uint16) uint8 {
	off := addr & 0xFFF
	c.hotspot(off)
	return c.rom[int(c.seg[off>>10])<<10|int(off&0x3FF)]
}

func (c *e0Cart) write(addr uint16, _ uint8) { c.hotspot(addr & 0xFFF) }
func (c *e0Cart) reset(*Console) {
	c.seg = [4]uint16{4, 5, 6, 7}
	c.con.remapCart()
}

func (c *e0Cart) attach(con *Console) { c.con = con }

// mapPages maps each segment's slice directly, except the hotspot page.
func (c *e0Cart) mapPages(pages []*[64]byte) {
	for p := range pages {
		pages[p] = page(c.rom, int(c.seg[p>>4])<<10|(p&15)<<6)
	}
	pages[63] = nil
}
func (c *e0Cart) rebase(uint32)     {}
func (c *e0Cart) scheme() string    { return "E0" }
func (c *e0Cart) save(s *cartState) { s.Seg = c.seg }
func (c *e0Cart) load(s *cartState) { c.seg = s.Seg }
