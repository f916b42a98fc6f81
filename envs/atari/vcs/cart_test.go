package vcs

import (
	"strings"
	"testing"
)

// bankROM returns size bytes where every byte of 4K bank b is 0x10+b.
func bankROM(size int) []byte {
	rom := make([]byte, size)
	for i := range rom {
		rom[i] = byte(0x10 + i/4096)
	}
	return rom
}

// busConsole builds a console for rom with an explicit scheme and resets it without
// running any frame, so the test can drive the bus directly.
func busConsole(t *testing.T, rom []byte, scheme string) *Console {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Scheme = scheme
	c, err := buildConsole(rom, cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Reset()
	return c
}

func expectRead(t *testing.T, c *Console, addr uint16, want byte) {
	t.Helper()
	if got := c.Read(addr); got != want {
		t.Errorf("%s: read %04X = %02X, want %02X", c.Scheme(), addr, got, want)
	}
}

// TestBankSwitchFx checks F8/F6/F4 hotspots on reads and writes, mirrors and reset banks.
func TestBankSwitchFx(t *testing.T) {
	for _, tc := range []struct {
		scheme      string
		size        int
		first, bank int // first hotspot offset, reset bank
	}{
		{"F8", 8192, 0xFF8, 1}, {"F6", 16384, 0xFF6, 0}, {"F4", 32768, 0xFF4, 0},
	} {
		c := busConsole(t, bankROM(tc.size), tc.scheme)
		expectRead(t, c, 0x1000, byte(0x10+tc.bank))
		nb := tc.size / 4096
		for b := 0; b < nb; b++ {
			hot := uint16(0x1000 + tc.first + b)
			expectRead(t, c, hot, byte(0x10+b)) // switch first, then read the new bank
			expectRead(t, c, 0x1234, byte(0x10+b))
		}
		c.Write(0x3000+uint16(tc.first), 0) // mirror (A13 set), write: bank 0
		expectRead(t, c, 0x1800, 0x10)
		expectRead(t, c, 0xF000+uint16(tc.first+1), 0x11) // mirror at 0xFxxx
		expectRead(t, c, 0x1FF3, 0x11)                    // not a hotspot
		c.Reset()
		expectRead(t, c, 0x1000, byte(0x10+tc.bank))
	}
}

// TestSuperchip checks the SC RAM ports and its re-randomisation on reset.
func TestSuperchip(t *testing.T) {
	for _, tc := range []struct {
		scheme string
		size   int
	}{{"F8SC", 8192}, {"F6SC", 16384}, {"F4SC", 32768}} {
		c := busConsole(t, bankROM(tc.size), tc.scheme)
		c.Write(0x1005, 0xAB)
		expectRead(t, c, 0x1085, 0xAB)
		expectRead(t, c, 0x1005, c.Read(0x1200)) // write port reads ROM
		c.Write(0x1085, 0xCD)                    // read port ignores writes
		expectRead(t, c, 0x1085, 0xAB)
		c.Read(0x1FF8) // switch bank: RAM stays
		expectRead(t, c, 0xF085, 0xAB)
		before := c.rng
		c.Reset()
		draws := 0
		for r := before; r != c.rng; r.Next() {
			draws++
			if draws > 1000 {
				break
			}
		}
		if draws != 129 {
			t.Errorf("%s: reset made %d RNG draws, want 129 (timer + 128 RAM)", tc.scheme, draws)
		}
	}
}

// TestBankSwitchE0 checks E0 segments, hotspots and the fixed last segment.
func TestBankSwitchE0(t *testing.T) {
	rom := make([]byte, 8192)
	for i := range rom {
		rom[i] = byte(i / 1024)
	}
	c := busConsole(t, rom, "E0")
	for seg, want := range []byte{4, 5, 6, 7} {
		expectRead(t, c, uint16(0x1000+seg*0x400), want)
	}
	c.Read(0x1FE2)
	expectRead(t, c, 0x1000, 2)
	c.Write(0x1FEB, 0)
	expectRead(t, c, 0x1400, 3)
	expectRead(t, c, 0x1FF1, 7) // segment 3 is always slice 7
	expectRead(t, c, 0x1800, 1)
}

// TestCartFE checks that FE picks the 4K half from bit 13 of the full address.
func TestCartFE(t *testing.T) {
	rom := bankROM(8192)
	c := busConsole(t, rom, "FE")
	expectRead(t, c, 0xF123, 0x10)
	expectRead(t, c, 0xD123, 0x11)
	expectRead(t, c, 0x1123, 0x11)
	expectRead(t, c, 0x3123, 0x10)
}

// TestCartDPC checks DPC bank switching, a display-data fetcher and the random number
// generator.
func TestCartDPC(t *testing.T) {
	rom := bankROM(10240)
	for i := 0; i < 2048; i++ {
		rom[8192+i] = byte(i)
	}
	c := busConsole(t, rom, "DPC")
	expectRead(t, c, 0x1100, 0x11)
	expectRead(t, c, 0x1FF8, 0x10)
	expectRead(t, c, 0x1100, 0x10)
	c.Write(0x1FF9, 0)
	expectRead(t, c, 0x1100, 0x11)
	c.Write(0x1050, 0xFA)       // fetcher 0 counter low
	c.Write(0x1058, 0x07)       // counter high: 0x7FA
	expectRead(t, c, 0x1008, 5) // display[2047 - 0x7FA]
	expectRead(t, c, 0x1008, 6) // the counter decrements
	c.Write(0x1070, 0)          // reset the random generator to 1
	expectRead(t, c, 0x1000, 3)
	expectRead(t, c, 0x1001, 7)
}

// TestDetectScheme checks auto-detection on synthetic images
// (docs/design/emulator.md, Cartridges).
func TestDetectScheme(t *testing.T) {
	withSig := func(size int, sig ...byte) []byte {
		rom := bankROM(size)
		rom[100] = 0x55 // not SC
		copy(rom[0x500:], sig)
		return rom
	}
	half := make([]byte, 4096)
	for i := 0; i < 2048; i++ {
		half[i], half[2048+i] = byte(i), byte(i)
	}
	for _, tc := range []struct {
		rom  []byte
		want string
	}{
		{make([]byte, 2048), "2K"},
		{half, "2K"},
		{withSig(4096), "4K"},
		{bankROM(8192), "F8SC"},
		{withSig(8192), "F8"},
		{withSig(8192, 0x8D, 0xE0, 0x1F), "E0"},
		{withSig(8192, 0x20, 0x00, 0xD0, 0xC6, 0xC5), "FE"},
		{withSig(10495), "DPC"},
		{withSig(16384), "F6"},
		{bankROM(16384), "F6SC"},
		{withSig(32768), "F4"},
		{bankROM(32768), "F4SC"},
	} {
		if got, err := DetectScheme(tc.rom); got != tc.want || err != nil {
			t.Errorf("%d bytes: %s (%v), want %s", len(tc.rom), got, err, tc.want)
		}
	}
}

// TestBadROMs checks that wrong sizes and unknown schemes are errors naming the
// supported schemes.
func TestBadROMs(t *testing.T) {
	list := strings.Join(SupportedSchemes, ", ")
	for _, tc := range []struct {
		size   int
		scheme string
	}{{0, ""}, {3000, ""}, {8448, ""}, {4096, "F8"}, {4096, "XYZ"}, {12288, ""}, {65536, ""}} {
		cfg := DefaultConfig()
		cfg.Scheme = tc.scheme
		_, err := NewConsole(make([]byte, tc.size), cfg)
		if err == nil || !strings.Contains(err.Error(), list) {
			t.Errorf("size %d scheme %q: error %v, want one naming %s", tc.size, tc.scheme, err, list)
		}
	}
}
