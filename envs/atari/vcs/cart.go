package vcs

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strings"
)

// SupportedSchemes lists the cartridge bank-switching schemes this package emulates,
// which are all the schemes ALE's supported ROMs auto-detect to.
var SupportedSchemes = []string{"2K", "4K", "F8", "F6", "F4", "F8SC", "F6SC", "F4SC", "E0", "FE", "DPC"}

// cartState holds the mutable state of every scheme, so a State can hold any cartridge
// without allocation. Each scheme uses only the fields it needs.
type cartState struct {
	Bank int       // current 4K bank (F8/F6/F4/SC/DPC)
	Seg  [4]uint16 // E0: 1K slice selected for each segment
	RAM  [128]byte // Superchip RAM
	DPC  dpcState
}

// cartridge is one bank-switching scheme. Addresses are the full 16-bit CPU address;
// the console only calls it for masked addresses 0x1000-0x1FFF.
type cartridge interface {
	read(addr uint16) uint8
	write(addr uint16, v uint8)
	reset(con *Console)
	rebase(cycles uint32)
	save(s *cartState)
	load(s *cartState)
	scheme() string
	// attach gives the cartridge its console (cycle counter, RNG, page remapping).
	attach(con *Console)
	// mapPages fills the 64 direct-read pages of the cartridge window (nil = the read
	// goes to read, for hotspots and fetchers).
	mapPages(pages []*[64]byte)
}

// page returns the 64-byte page of b starting at off.
func page(b []byte, off int) *[64]byte { return (*[64]byte)(b[off : off+64]) }

// DetectScheme returns the scheme ALE's Stella would auto-detect for rom
// (docs/design/emulator.md, Cartridges). Schemes that Stella knows but this package
// does not emulate are returned by name with an error.
func DetectScheme(rom []byte) (string, error) {
	s := detectScheme(rom)
	for _, k := range SupportedSchemes {
		if k == s {
			return s, nil
		}
	}
	return s, fmt.Errorf("vcs: ROM of %d bytes detected as unsupported scheme %q (supported: %s)",
		len(rom), s, strings.Join(SupportedSchemes, ", "))
}

func detectScheme(rom []byte) string {
	n := len(rom)
	cv := func() bool {
		return searchBytes(rom, []byte{0x9D, 0xFF, 0xF3}, 1) || searchBytes(rom, []byte{0x99, 0x00, 0xF4}, 1)
	}
	switch {
	case n > 0 && n%8448 == 0:
		return "AR"
	case n == 2048 || (n == 4096 && bytes.Equal(rom[:2048], rom[2048:])):
		if cv() {
			return "CV"
		}
		return "2K"
	case n == 4096:
		if cv() {
			return "CV"
		}
		return "4K"
	case n == 8192:
		return detect8K(rom)
	case n == 10495 || n == 10496 || n == 10240:
		return "DPC"
	case n == 12288:
		return "FASC"
	case n == 16384:
		switch {
		case isProbablySC(rom):
			return "F6SC"
		case isProbablyE7(rom):
			return "E7"
		case is3E(rom):
			return "3E"
		case is3F(rom):
			return "3F"
		}
		return "F6"
	case n == 32768:
		switch {
		case isProbablySC(rom):
			return "F4SC"
		case is3E(rom):
			return "3E"
		case is3F(rom):
			return "3F"
		}
		return "F4"
	}
	return fmt.Sprintf("unknown size %d", n)
}

func detect8K(rom []byte) string {
	switch {
	case isProbablySC(rom):
		return "F8SC"
	case bytes.Equal(rom[:4096], rom[4096:]):
		return "4K"
	case anySig(rom, e0Sigs):
		return "E0"
	case is3E(rom):
		return "3E"
	case is3F(rom):
		return "3F"
	case searchBytes(rom, []byte{0x8D, 0x40, 0x02}, 1):
		return "UA"
	case anySig(rom, feSigs):
		return "FE"
	}
	return "F8"
}

var e0Sigs = [][]byte{
	{0x8D, 0xE0, 0x1F}, {0x8D, 0xE0, 0x5F}, {0x8D, 0xE9, 0xFF},
	{0xAD, 0xE9, 0xFF}, {0xAD, 0xED, 0xFF}, {0xAD, 0xF3, 0xBF},
}

var feSigs = [][]byte{
	{0x20, 0x00, 0xD0, 0xC6, 0xC5}, {0x20, 0xC3, 0xF8, 0xA5, 0x82},
	{0xD0, 0xFB, 0x20, 0x73, 0xFE}, {0x20, 0x00, 0xF0, 0x84, 0xD6},
}

func anySig(rom []byte, sigs [][]byte) bool {
	for _, s := range sigs {
		if searchBytes(rom, s, 1) {
			return true
		}
	}
	return false
}

func is3E(rom []byte) bool { return searchBytes(rom, []byte{0x85, 0x3E, 0xA9, 0x00}, 1) }
func is3F(rom []byte) bool { return searchBytes(rom, []byte{0x85, 0x3F}, 2) }

// searchBytes counts signature hits as Stella's searchForBytes does: the last window
// position is never tested and the scan skips len(sig)+1 bytes after a hit.
func searchBytes(rom, sig []byte, minHits int) bool {
	count := 0
	for i := 0; i < len(rom)-len(sig); i++ {
		if bytes.Equal(rom[i:i+len(sig)], sig) {
			count++
			i += len(sig)
		}
		if count >= minHits {
			return true
		}
	}
	return false
}

// isProbablySC reports whether the first 256 bytes of every 4K bank are all equal
// (Superchip RAM area).
func isProbablySC(rom []byte) bool {
	for b := 0; b+4096 <= len(rom); b += 4096 {
		for j := 0; j < 256; j++ {
			if rom[b+j] != rom[b] {
				return false
			}
		}
	}
	return true
}

// isProbablyE7 checks the E7 RAM window 0x3800-0x39FF: all bytes equal, and some byte
// in the 32 bytes before or after it different.
func isProbablyE7(rom []byte) bool {
	first := rom[0x3800]
	for _, b := range rom[0x3800:0x3A00] {
		if b != first {
			return false
		}
	}
	for _, b := range rom[0x37E0:0x3800] {
		if b != first {
			return true
		}
	}
	for _, b := range rom[0x3A00:0x3A20] {
		if b != first {
			return true
		}
	}
	return false
}

// F8 "swapped" MD5 prefixes (Stella starts these in bank 0).
var f8SwappedMD5 = []string{"bc24440b", "75ee371c"}

// newCartridge builds the cartridge for scheme ("" = auto-detect) and rom.
func newCartridge(rom []byte, scheme string) (cartridge, error) {
	if scheme == "" {
		s, err := DetectScheme(rom)
		if err != nil {
			return nil, err
		}
		scheme = s
	}
	scheme = strings.ToUpper(scheme)
	want := map[string][]int{
		"2K": {2048}, "4K": {4096}, "F8": {8192}, "F8SC": {8192}, "E0": {8192}, "FE": {8192},
		"F6": {16384}, "F6SC": {16384}, "F4": {32768}, "F4SC": {32768}, "DPC": {10240, 10495, 10496},
	}
	sizes, ok := want[scheme]
	if !ok {
		return nil, fmt.Errorf("vcs: unknown cartridge scheme %q (supported: %s)",
			scheme, strings.Join(SupportedSchemes, ", "))
	}
	okSize := false
	for _, s := range sizes {
		okSize = okSize || len(rom) == s
	}
	if !okSize && !(scheme == "2K" && len(rom) == 4096) {
		return nil, fmt.Errorf("vcs: ROM of %d bytes does not fit scheme %s (sizes %v; supported schemes: %s)",
			len(rom), scheme, sizes, strings.Join(SupportedSchemes, ", "))
	}
	img := append([]byte(nil), rom...)
	switch scheme {
	case "2K", "4K":
		return newFixedCart(img, scheme), nil
	case "F8", "F6", "F4", "F8SC", "F6SC", "F4SC":
		startBank := 0
		if scheme == "F8" || scheme == "F8SC" {
			startBank = 1
			sum := md5.Sum(rom)
			h := hex.EncodeToString(sum[:])
			for _, p := range f8SwappedMD5 {
				if strings.HasPrefix(h, p) && scheme == "F8" {
					startBank = 0
				}
			}
		}
		return newBankCart(img, scheme, startBank), nil
	case "E0":
		return newE0Cart(img), nil
	case "FE":
		return newFECart(img), nil
	default:
		return newDPCCart(img), nil
	}
}
