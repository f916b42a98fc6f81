package atari

// Kangaroo, ALE's games/supported/Kangaroo.cpp.
var kangarooGame = Game{
	Name:           "kangaroo",
	MD5:            "4326edb70ff20d0ee5ba58fa5cb09d60",
	Modes:          []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &kangarooReader{}; r.Reset(); return r },
	// $BA holds the mode, plus $80 on the welcome screen.
	setMode: selectRAMModeShifted(0xBA, 2, 0x80),
}

// kangarooReader: the score is 100 times the BCD value of $A8 (low) and $A7 (high); the
// lives are the low 3 bits of $AD plus 1, and the game is over when $AD reads $FF.
type kangarooReader struct{ scoreReader }

func (r *kangarooReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *kangarooReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * decimalScore2(ram, 0xA8, 0xA7))
	b := readRAM(ram, 0xAD)
	r.terminal = b == 0xFF
	r.lives = b&0x7 + 1
}

func (r *kangarooReader) Lives() int { return r.livesOrZero() }
