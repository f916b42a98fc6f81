package atari

// Gravitar, ALE's games/supported/Gravitar.cpp. Every reset ends with 16 FIRE frames.
var gravitarGame = Game{
	Name:            "gravitar",
	MD5:             "8ac18076d01a6b63acf6e2cab4968940",
	Modes:           intRange(5, 0, 1),
	MinimalActions:  allActions,
	StartingActions: repeatAction(Fire, 16),
	NewReader:       func() Reader { r := &gravitarReader{}; r.Reset(); return r },
	// ALE also sets the reader's lives from the mode (6, 15, 6, 100, 25) before the
	// final soft reset; the soft reset's frames overwrite them, so it is not repeated.
	setMode: selectRAMMode(0x80, 10),
}

// gravitarReader: six-digit BCD score in RAM 9 (low), 8, 7 (high); the screen byte $81
// is 1 when the game is over; the lives are 6 on the start screen ($81 = 0) and $84
// plus 1 otherwise.
type gravitarReader struct{ scoreReader }

func (r *gravitarReader) Reset() { r.scoreReader = scoreReader{lives: 6} }

func (r *gravitarReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 9, 8, 7))
	screen := readRAM(ram, 0x81)
	r.terminal = screen == 0x01
	if screen == 0 {
		r.lives = 6
	} else {
		r.lives = readRAM(ram, 0x84) + 1
	}
}

func (r *gravitarReader) Lives() int { return r.livesOrZero() }
