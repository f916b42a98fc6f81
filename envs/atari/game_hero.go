package atari

// H.E.R.O., ALE's games/supported/Hero.cpp.
var heroGame = Game{
	Name:           "hero",
	MD5:            "fca4a5be1251927027f2c24774a02160",
	Modes:          intRange(5, 0, 1),
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &heroReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0x80, 1),
}

// heroReader: six-digit BCD score in $B9 (low), $B8, $B7 (high); lives in $B3, and the
// game is over when they reach 0.
type heroReader struct{ scoreReader }

func (r *heroReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *heroReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xB9, 0xB8, 0xB7))
	r.lives = readRAM(ram, 0xB3)
	r.terminal = r.lives == 0
}

func (r *heroReader) Lives() int { return r.livesOrZero() }
