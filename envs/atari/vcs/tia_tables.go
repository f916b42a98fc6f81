package vcs

import "math/bits"

// Object bits of the TIA's enabled-objects set and of the per-pixel object code.
const (
	bitP0 = 0x01
	bitM0 = 0x02
	bitP1 = 0x04
	bitM1 = 0x08
	bitBL = 0x10
	bitPF = 0x20
)

// Mask tables. Each table row holds 320 entries: the object's shape for position 0 over
// d = 0..159, twice. The mask for an object at position p is row[160-p : 320-p], so
// entry x of that slice is the shape at d = (x - p) mod 160 (objects wrap on the line).
var (
	// playerMaskTab[suppress][nusiz mode] gives the GRP bit (0x80 >> k) shown at d.
	playerMaskTab [2][8][320]uint8
	// missileMaskTab[nusiz mode][size] is 0xFF where the missile is drawn.
	missileMaskTab [8][4][320]uint8
	// ballMaskTab[size] is 0xFF where the ball is drawn.
	ballMaskTab [4][320]uint8
	// noRow is an all-zero mask row (Cosmic Ark's hidden missile line).
	noRow [320]uint8
	// The *Bits tables hold the same rows as bitsets (bit j set when entry j is not
	// zero), so the renderer can find which objects cover a span without a pixel loop.
	playerBitsTab  [2][8][5]uint64
	missileBitsTab [8][4][5]uint64
	ballBitsTab    [4][5]uint64
	noBits         [5]uint64
	// pfMaskTab[reflect][x] is the PF bit (of the 20-bit playfield) shown at pixel x.
	pfMaskTab [2][160]uint32
	// collisionTab[code] is the collision bits set when the objects in code overlap.
	collisionTab [64]uint16
	// priorityTab[right half][CTRLPF&6][code] is the colour index (0 BK, 1 PF, 2 P0,
	// 3 P1) shown for the objects in code.
	priorityTab [2][8][64]uint8
	// reflectTab[b] is b with its bits reversed (REFPx).
	reflectTab [256]uint8
)

// copyOffsets lists the copy start offsets of each NUSIZ mode (modes 5 and 7 have one
// stretched copy).
var copyOffsets = [8][]int{{0}, {0, 16}, {0, 32}, {0, 16, 32}, {0, 64}, {0}, {0, 32, 64}, {0}}

// copyWidth is the width of one player copy for each NUSIZ mode.
var copyWidth = [8]int{8, 8, 8, 8, 8, 16, 8, 32}

// pokeDelay is the colour-clock delay of each TIA write register; -1 marks PF0-PF2,
// whose delay depends on the CPU cycle within the line
// (docs/design/emulator.md, Lazy drawing).
var pokeDelay = [64]int8{
	0x01: 1, 0x04: 8, 0x05: 8, 0x0B: 1, 0x0C: 1, 0x0D: -1, 0x0E: -1, 0x0F: -1,
	0x12: 8, 0x13: 8, 0x1B: 1, 0x1C: 1,
}

// pfDelay is the PF write delay indexed by (CPU cycle in line) mod 4.
var pfDelay = [4]int32{4, 5, 2, 3}

// hmoveBlankCycle marks the CPU cycles (within the line) at which an HMOVE turns on
// the HMOVE bar: 0..20 and 75.
var hmoveBlankCycle [76]bool

// motionTab[c][hm] is the instantaneous HMOVE motion for an HMOVE written at CPU cycle
// c of the line with motion nibble hm (positive = right)
// (docs/design/emulator.md, Positioning and motion).
var motionTab [76][16]int8

// motionRows is Stella's motion table: rows cover cycles lo..hi inclusive.
var motionRows = []struct {
	lo, hi int
	m      [16]int8
}{
	{0, 3, [16]int8{0, -1, -2, -3, -4, -5, -6, -7, 8, 7, 6, 5, 4, 3, 2, 1}},
	{4, 4, [16]int8{0, -1, -2, -3, -4, -5, -6, -6, 8, 7, 6, 5, 4, 3, 2, 1}},
	{5, 6, [16]int8{0, -1, -2, -3, -4, -5, -5, -5, 8, 7, 6, 5, 4, 3, 2, 1}},
	{7, 7, [16]int8{0, -1, -2, -3, -4, -4, -4, -4, 8, 7, 6, 5, 4, 3, 2, 1}},
	{8, 8, [16]int8{0, -1, -2, -3, -3, -3, -3, -3, 8, 7, 6, 5, 4, 3, 2, 1}},
	{9, 10, [16]int8{0, -1, -2, -2, -2, -2, -2, -2, 8, 7, 6, 5, 4, 3, 2, 1}},
	{11, 11, [16]int8{0, -1, -1, -1, -1, -1, -1, -1, 8, 7, 6, 5, 4, 3, 2, 1}},
	{12, 12, [16]int8{0, 0, 0, 0, 0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1}},
	{13, 14, [16]int8{1, 1, 1, 1, 1, 1, 1, 1, 8, 7, 6, 5, 4, 3, 2, 1}},
	{15, 15, [16]int8{2, 2, 2, 2, 2, 2, 2, 2, 8, 7, 6, 5, 4, 3, 2, 2}},
	{16, 16, [16]int8{3, 3, 3, 3, 3, 3, 3, 3, 8, 7, 6, 5, 4, 3, 3, 3}},
	{17, 18, [16]int8{4, 4, 4, 4, 4, 4, 4, 4, 8, 7, 6, 5, 4, 4, 4, 4}},
	{19, 19, [16]int8{5, 5, 5, 5, 5, 5, 5, 5, 8, 7, 6, 5, 5, 5, 5, 5}},
	{20, 20, [16]int8{6, 6, 6, 6, 6, 6, 6, 6, 8, 7, 6, 6, 6, 6, 6, 6}},
	{21, 54, [16]int8{}},
	{55, 55, [16]int8{0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0}},
	{56, 56, [16]int8{0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, 0, 0}},
	{57, 58, [16]int8{0, 0, 0, 0, 0, -1, -2, -3, 0, 0, 0, 0, 0, 0, 0, 0}},
	{59, 59, [16]int8{0, 0, 0, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0, 0}},
	{60, 60, [16]int8{0, 0, 0, -1, -2, -3, -4, -5, 0, 0, 0, 0, 0, 0, 0, 0}},
	{61, 62, [16]int8{0, 0, -1, -2, -3, -4, -5, -6, 0, 0, 0, 0, 0, 0, 0, 0}},
	{63, 63, [16]int8{0, -1, -2, -3, -4, -5, -6, -7, 0, 0, 0, 0, 0, 0, 0, 0}},
	{64, 64, [16]int8{-1, -2, -3, -4, -5, -6, -7, -8, 0, 0, 0, 0, 0, 0, 0, 0}},
	{65, 66, [16]int8{-2, -3, -4, -5, -6, -7, -8, -9, 0, 0, 0, 0, 0, 0, 0, -1}},
	{67, 67, [16]int8{-3, -4, -5, -6, -7, -8, -9, -10, 0, 0, 0, 0, 0, 0, -1, -2}},
	{68, 68, [16]int8{-4, -5, -6, -7, -8, -9, -10, -11, 0, 0, 0, 0, 0, -1, -2, -3}},
	{69, 70, [16]int8{-5, -6, -7, -8, -9, -10, -11, -12, 0, 0, 0, 0, -1, -2, -3, -4}},
	{71, 71, [16]int8{-6, -7, -8, -9, -10, -11, -12, -13, 0, 0, 0, -1, -2, -3, -4, -5}},
	{72, 72, [16]int8{-7, -8, -9, -10, -11, -12, -13, -14, 0, 0, -1, -2, -3, -4, -5, -6}},
	{73, 74, [16]int8{-8, -9, -10, -11, -12, -13, -14, -15, 0, -1, -2, -3, -4, -5, -6, -7}},
	{75, 75, [16]int8{0, -1, -2, -3, -4, -5, -6, -7, 8, 7, 6, 5, 4, 3, 2, 1}},
}

// collisionPairs maps object pairs to their collision-latch bit
// (docs/design/emulator.md, Lazy drawing).
var collisionPairs = []struct {
	a, b uint8
	bit  uint16
}{
	{bitM0, bitP1, 0x0001}, {bitM0, bitP0, 0x0002}, {bitM1, bitP0, 0x0004}, {bitM1, bitP1, 0x0008},
	{bitP0, bitPF, 0x0010}, {bitP0, bitBL, 0x0020}, {bitP1, bitPF, 0x0040}, {bitP1, bitBL, 0x0080},
	{bitM0, bitPF, 0x0100}, {bitM0, bitBL, 0x0200}, {bitM1, bitPF, 0x0400}, {bitM1, bitBL, 0x0800},
	{bitBL, bitPF, 0x1000}, {bitP0, bitP1, 0x2000}, {bitM0, bitM1, 0x4000},
}

// respWhen is the RESPx "when" table, indexed [nusiz mode][old position][new position]:
// -1 reset during a copy's start delay, +1 during a copy's display, 0 otherwise.
var respWhen [8][160][160]int8

func init() {
	for _, r := range motionRows {
		for c := r.lo; c <= r.hi; c++ {
			motionTab[c] = r.m
		}
	}
	for c := 0; c <= 20; c++ {
		hmoveBlankCycle[c] = true
	}
	hmoveBlankCycle[75] = true
	initShapes()
	initBits()
	initPlayfield()
	for code := 0; code < 64; code++ {
		for _, p := range collisionPairs {
			if uint8(code)&p.a != 0 && uint8(code)&p.b != 0 {
				collisionTab[code] |= p.bit
			}
		}
		for half := 0; half < 2; half++ {
			for ps := 0; ps < 8; ps += 2 {
				priorityTab[half][ps][code] = colourIndex(uint8(code), half == 1, ps&2 != 0, ps&4 != 0)
			}
		}
	}
	for b := 0; b < 256; b++ {
		var r uint8
		for k := 0; k < 8; k++ {
			if b&(1<<k) != 0 {
				r |= 0x80 >> k
			}
		}
		reflectTab[b] = r
	}
	initRespWhen()
}

// colourIndex applies Stella's TIA priority rules to one pixel's objects.
func colourIndex(code uint8, right, score, priority bool) uint8 {
	var idx uint8
	if priority {
		if code&(bitP1|bitM1) != 0 {
			idx = 3
		}
		if code&(bitP0|bitM0) != 0 {
			idx = 2
		}
		if code&(bitBL|bitPF) != 0 {
			idx = 1
		}
		return idx
	}
	if code&bitBL != 0 {
		idx = 1
	}
	if code&bitPF != 0 {
		idx = 1
		if score {
			idx = 2
			if right {
				idx = 3
			}
		}
	}
	if code&(bitP1|bitM1) != 0 && idx != 2 {
		idx = 3
	}
	if code&(bitP0|bitM0) != 0 {
		idx = 2
	}
	return idx
}

func initShapes() {
	for mode := 0; mode < 8; mode++ {
		for supp := 0; supp < 2; supp++ {
			var shape [160]uint8
			switch mode {
			case 5, 7:
				if supp == 0 {
					w := copyWidth[mode]
					for d := 1; d <= w; d++ {
						shape[d%160] = 0x80 >> ((d - 1) / (w / 8))
					}
				}
			default:
				for _, o := range copyOffsets[mode] {
					if o == 0 && supp == 1 {
						continue
					}
					for k := 0; k < 8; k++ {
						shape[o+k] = 0x80 >> k
					}
				}
			}
			double(&playerMaskTab[supp][mode], &shape)
		}
		for size := 0; size < 4; size++ {
			var shape [160]uint8
			offs := []int{0}
			switch mode {
			case 1:
				offs = append(offs, 16)
			case 2:
				offs = append(offs, 32)
			case 3:
				offs = append(offs, 16, 32)
			case 4:
				offs = append(offs, 64)
			case 6:
				offs = append(offs, 32, 64)
			}
			for _, o := range offs {
				for k := 0; k < 1<<size; k++ {
					shape[(o+k)%160] = 0xFF
				}
			}
			double(&missileMaskTab[mode][size], &shape)
		}
	}
	for size := 0; size < 4; size++ {
		var shape [160]uint8
		for k := 0; k < 1<<size; k++ {
			shape[k] = 0xFF
		}
		double(&ballMaskTab[size], &shape)
	}
}

func double(dst *[320]uint8, shape *[160]uint8) {
	copy(dst[:160], shape[:])
	copy(dst[160:], shape[:])
}

func rowBits(dst *[5]uint64, row *[320]uint8) {
	for j, v := range row {
		if v != 0 {
			dst[j>>6] |= 1 << (j & 63)
		}
	}
}

func initBits() {
	for mode := 0; mode < 8; mode++ {
		for supp := 0; supp < 2; supp++ {
			rowBits(&playerBitsTab[supp][mode], &playerMaskTab[supp][mode])
		}
		for size := 0; size < 4; size++ {
			rowBits(&missileBitsTab[mode][size], &missileMaskTab[mode][size])
		}
	}
	for size := 0; size < 4; size++ {
		rowBits(&ballBitsTab[size], &ballMaskTab[size])
	}
}

// pfBitLeft returns the playfield bit shown at pixel x (0..79) of the left half.
func pfBitLeft(x int) uint {
	switch {
	case x < 16:
		return uint(x / 4)
	case x < 48:
		return uint(11 - (x-16)/4)
	default:
		return uint(12 + (x-48)/4)
	}
}

func initPlayfield() {
	for x := 0; x < 160; x++ {
		var normal, refl uint
		if x < 80 {
			normal = pfBitLeft(x)
			refl = normal
		} else {
			normal = pfBitLeft(x - 80)
			switch {
			case x < 112:
				refl = uint(19 - (x-80)/4)
			case x < 144:
				refl = uint(4 + (x-112)/4)
			default:
				refl = uint(3 - (x-144)/4)
			}
		}
		pfMaskTab[0][x] = 1 << normal
		pfMaskTab[1][x] = 1 << refl
	}
}

func initRespWhen() {
	for mode := 0; mode < 8; mode++ {
		offs := copyOffsets[mode]
		w := copyWidth[mode]
		for old := 0; old < 160; old++ {
			row := &respWhen[mode][old]
			for _, o := range offs {
				for k := 0; k < 4; k++ {
					row[(old+o+k)%160] = -1
				}
				for k := 4; k < 4+w; k++ {
					row[(old+o+k)%160] = 1
				}
			}
		}
	}
}

// objMask is one movable object's shape on the line: px[x] is the mask entry at
// pixel x, and bits (offset by off) is the same row as a bitset.
type objMask struct {
	px   []uint8
	bits *[5]uint64
	off  int
}

func mkMask(row *[320]uint8, bits *[5]uint64, pos int32) objMask {
	return objMask{px: row[160-pos : 320-pos], bits: bits, off: int(160 - pos)}
}

// span returns the first and one-past-last pixel in [x, x+n) that the object's shape
// covers, relative to x; ok is false when it covers none.
func (m *objMask) span(x, n int) (lo, hi int, ok bool) {
	start, end := m.off+x, m.off+x+n
	lo, hi = -1, -1
	for w := start >> 6; w <= (end-1)>>6; w++ {
		word := m.bits[w]
		if base := w << 6; base < start {
			word &= ^uint64(0) << uint(start-base)
		}
		if base := w << 6; base+64 > end {
			word &= ^uint64(0) >> uint(base+64-end)
		}
		if word == 0 {
			continue
		}
		if lo < 0 {
			lo = w<<6 + bits.TrailingZeros64(word)
		}
		hi = w<<6 + 64 - bits.LeadingZeros64(word)
	}
	if lo < 0 {
		return 0, 0, false
	}
	return lo - start, hi - start, true
}

// playerMask returns the player mask for position pos, NUSIZ mode and first-copy
// suppression.
func playerMask(pos int32, mode uint8, suppress int) objMask {
	return mkMask(&playerMaskTab[suppress][mode&7], &playerBitsTab[suppress][mode&7], pos)
}

// missileMask returns the missile mask for position pos and NUSIZ value.
func missileMask(pos int32, nusiz uint8) objMask {
	m, s := nusiz&7, (nusiz>>4)&3
	return mkMask(&missileMaskTab[m][s], &missileBitsTab[m][s], pos)
}

// ballMask returns the ball mask for position pos and CTRLPF value.
func ballMask(pos int32, ctrlpf uint8) objMask {
	s := (ctrlpf >> 4) & 3
	return mkMask(&ballMaskTab[s], &ballBitsTab[s], pos)
}

// hiddenMask is the empty mask Cosmic Ark mode uses on every fourth line.
func hiddenMask() objMask { return mkMask(&noRow, &noBits, 0) }
