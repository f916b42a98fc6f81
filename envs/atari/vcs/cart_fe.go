package vcs

// feCart is Activision's FE scheme as ALE's Stella implements it: no switching state;
// every read picks the 4K half from bit 13 of the full 16-bit CPU address (clear:
// second half, set: first half). Writes are ignored.
type feCart struct {
	rom []byte
}

func newFECart(img []byte) *feCart { return &feCart{rom: img} }

func (c *feCart) read(addr uint16) uint8 {
	off := int(addr & 0xFFF)
	if addr&0x2000 == 0 {
		return c.rom[0x1000+off]
	}
	return c.rom[off]
}

func (c *feCart) write(uint16, uint8) {}
func (c *feCart) reset(*Console)      {}
func (c *feCart) rebase(uint32)       {}
func (c *feCart) scheme() string      { return "FE" }
func (c *feCart) save(*cartState)     {}
func (c *feCart) load(*cartState)     {}
func (c *feCart) attach(*Console)     {}

// mapPages leaves every page to read: the half depends on bit 13 of the full address.
func (c *feCart) mapPages(pages []*[64]byte) {
	for p := range pages {
		pages[p] = nil
	}
}
