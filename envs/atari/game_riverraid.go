package atari

// River Raid, ALE's games/supported/RiverRaid.cpp.
var riverraidGame = Game{
	Name:           "riverraid",
	MD5:            "393948436d1f4cc3192410bb918f9724",
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &riverraidReader{}; r.Reset(); return r },
}

// riverraidReader: the score is six digits kept one per byte at RAM 87, 85, 83, 81, 79,
// 77 (lowest first), each the digit times 8 (0, 8, ..., 72); any other value counts as
// 0, as ALE's lookup map gives. The lives byte $C0 holds 8 times (lives - 1), except
// $58 at the start of an episode (4 lives) and $59 on the last life (1); the game is
// over when it goes from $59 to $58.
type riverraidReader struct {
	scoreReader
	livesByte int
}

func (r *riverraidReader) Reset() {
	r.scoreReader = scoreReader{}
	r.livesByte = 0x58
}

func (r *riverraidReader) Step(m Memory) {
	ram := m.RAM()
	score, mult := 0, 1
	for _, addr := range []int{87, 85, 83, 81, 79, 77} {
		score += mult * riverraidDigit(readRAM(ram, addr))
		mult *= 10
	}
	r.setScore(score)
	b := readRAM(ram, 0xC0)
	r.terminal = b == 0x58 && r.livesByte == 0x59
	r.livesByte = b
}

func (r *riverraidReader) Lives() int {
	switch {
	case r.terminal:
		return 0
	case r.livesByte == 0x58:
		return 4
	case r.livesByte == 0x59:
		return 1
	}
	return r.livesByte/8 + 1
}

// riverraidDigit decodes one River Raid score byte: a multiple of 8 up to 72 is that
// digit, any other value 0.
func riverraidDigit(v int) int {
	if v%8 == 0 && v <= 72 {
		return v / 8
	}
	return 0
}
