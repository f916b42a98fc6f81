package vcs

// fixedCart is a 2K or 4K cartridge: no bank switching; a 2K image is mirrored in the
// 4K cartridge window.
type fixedCart struct {
	rom  []byte
	mask uint16
	name string
}

func newFixedCart(img []byte, scheme string) *fixedCart {
	if scheme == "2K" {
		return &fixedCart{rom: img[:2048], mask: 0x7FF, name: scheme}
	}
	return &fixedCart{rom: img, mask: 0xFFF, name: scheme}
}

func (c *fixedCart) read(addr uint16) uint8 { return c.rom[addr&c.mask] }
func (c *fixedCart) write(uint16, uint8)    {}
func (c *fixedCart) reset(*Console)         {}
func (c *fixedCart) rebase(uint32)          {}
func (c *fixedCart) save(*cartState)        {}
func (c *fixedCart) load(*cartState)        {}
func (c *fixedCart) scheme() string         { return c.name }
func (c *fixedCart) attach(*Console)        {}

func (c *fixedCart) mapPages(pages []*[64]byte) {
	for p := range pages {
		pages[p] = page(c.rom, (p<<6)&int(c.mask))
	}
}
