package atari

// Frostbite, ALE's games/supported/Frostbite.cpp. Its modes are 0 and 2.
var frostbiteGame = Game{
	Name:           "frostbite",
	MD5:            "4ca73eb959299471788f0b685c3ba0b5",
	Modes:          []int{0, 2},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &frostbiteReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0x80, 1),
}

// frostbiteReader: six-digit BCD score in $CA (low), $C9, $C8 (high); the lives are the
// low nibble of $CC plus 1; the game is over when that nibble is 0 and bit 7 of $F1 is
// set.
type frostbiteReader struct{ scoreReader }

func (r *frostbiteReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *frostbiteReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xCA, 0xC9, 0xC8))
	b := readRAM(ram, 0xCC) & 0xf
	r.terminal = b == 0 && readRAM(ram, 0xF1)&0x80 != 0
	r.lives = b + 1
}

func (r *frostbiteReader) Lives() int { return r.livesOrZero() }
