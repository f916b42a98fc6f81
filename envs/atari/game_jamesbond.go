package atari

// James Bond 007, ALE's games/supported/JamesBond.cpp (an E0 cartridge).
var jamesbondGame = Game{
	Name:           "jamesbond",
	MD5:            "e51030251e440cffaab1ac63438b44ae",
	Modes:          []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &jamesbondReader{}; r.Reset(); return r },
	// $8C holds the mode, plus $48 on the welcome screen.
	setMode: selectRAMModeShifted(0x8C, 20, 0x48),
}

// jamesbondReader: six-digit BCD score in $DC (low), $DD, $DE (high); the lives are the
// low nibble of $86 plus 1; the game is over when that nibble is 0 and the screen byte
// $8C reads $68 (it does not stay so: the game returns to its start state later).
type jamesbondReader struct{ scoreReader }

func (r *jamesbondReader) Reset() { r.scoreReader = scoreReader{lives: 6} }

func (r *jamesbondReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xDC, 0xDD, 0xDE))
	b := readRAM(ram, 0x86) & 0xf
	r.terminal = b == 0 && readRAM(ram, 0x8C) == 0x68
	r.lives = b + 1
}

func (r *jamesbondReader) Lives() int { return r.livesOrZero() }
