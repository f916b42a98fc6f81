package atari

// Krull, ALE's games/supported/Krull.cpp.
var krullGame = Game{
	Name:           "krull",
	MD5:            "4baada22435320d185c95b7dd2bcdb24",
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &krullReader{}; r.Reset(); return r },
}

// krullReader: six-digit BCD score in $9E (low), $9D, $9C (high); the lives are the low
// 3 bits of $9F plus 1; the game is over when $9F reads 0, $A2 reads 3 and $80 reads
// $80.
type krullReader struct{ scoreReader }

func (r *krullReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *krullReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x9E, 0x9D, 0x9C))
	lives := readRAM(ram, 0x9F)
	r.terminal = lives == 0 && readRAM(ram, 0xA2) == 0x03 && readRAM(ram, 0x80) == 0x80
	r.lives = lives&0x7 + 1
}

func (r *krullReader) Lives() int { return r.livesOrZero() }
