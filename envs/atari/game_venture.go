package atari

// Venture, ALE's games/supported/Venture.cpp.
var ventureGame = Game{
	Name:           "venture",
	MD5:            "3e899eba0ca8cd2972da1ae5479b4f0d",
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &ventureReader{}; r.Reset(); return r },
}

// ventureReader: the score is 100 times the BCD value of $C8 (low) and $C7 (high); the
// lives are the low 3 bits of $C6 plus 1; the game is over when $C6 reads 0, the audio
// byte $CD reads $FF and bit 7 of the death byte $BF is set.
type ventureReader struct{ scoreReader }

func (r *ventureReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *ventureReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * decimalScore2(ram, 0xC8, 0xC7))
	b := readRAM(ram, 0xC6)
	r.terminal = b == 0 && readRAM(ram, 0xCD) == 0xFF && readRAM(ram, 0xBF)&0x80 != 0
	r.lives = b&0x7 + 1
}

func (r *ventureReader) Lives() int { return r.livesOrZero() }
