package atari

// Zaxxon, ALE's games/supported/Zaxxon.cpp. Its modes are 0, 8, 16 and 24.
var zaxxonGame = Game{
	Name:           "zaxxon",
	MD5:            "eea0da9b987d661264cce69a7c13c3bd",
	Modes:          []int{0, 8, 16, 24},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &zaxxonReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0x82, 10),
}

// zaxxonReader: the score is 100 times the BCD value of $E9 (low) and $E8 (high); the
// lives are the low 3 bits of $EA, and the game is over when they reach 0.
type zaxxonReader struct{ scoreReader }

func (r *zaxxonReader) Reset() { r.scoreReader = scoreReader{lives: 5} }

func (r *zaxxonReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * decimalScore2(ram, 0xE9, 0xE8))
	r.lives = readRAM(ram, 0xEA) & 0x7
	r.terminal = r.lives == 0
}

func (r *zaxxonReader) Lives() int { return r.livesOrZero() }
