package atari

// Defender, ALE's games/supported/Defender.cpp. Its modes are 1 to 9 and 16 (easy).
var defenderGame = Game{
	Name:           "defender",
	MD5:            "0f643c34e40e3f1daafd9c524d3ffe64",
	Modes:          append(intRange(9, 1, 1), 16),
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &defenderReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0x9B, 2),
}

// defenderReader: the score is six digits in the low nibbles of $9C..$A1, lowest
// first ($A is a blank 0); lives in $C2, and the game is over when they reach 0.
type defenderReader struct{ scoreReader }

func (r *defenderReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *defenderReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(lowNibbleDigits(ram, 0x9C, 6))
	r.lives = readRAM(ram, 0xC2)
	r.terminal = r.lives == 0
}

func (r *defenderReader) Lives() int { return r.livesOrZero() }
