package atari

// Solaris, ALE's games/supported/Solaris.cpp.
var solarisGame = Game{
	Name:           "solaris",
	MD5:            "e72eb8d4410152bdcb69e7fba327b420",
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &solarisReader{}; r.Reset(); return r },
}

// solarisReader: the score is ten times the six-digit BCD value of $DC (low), $DD, $DE
// (high); the game is over when $D9 reads 0, and the lives are its low nibble.
type solarisReader struct{ scoreReader }

func (r *solarisReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *solarisReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(10 * decimalScore3(ram, 0xDC, 0xDD, 0xDE))
	b := readRAM(ram, 0xD9)
	r.terminal = b == 0
	r.lives = b & 0xf
}

func (r *solarisReader) Lives() int { return r.livesOrZero() }
