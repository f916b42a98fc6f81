package atari

// Assault, ALE's games/supported/Assault.cpp.
var assaultGame = Game{
	Name:           "assault",
	MD5:            "de78b3a064d374390ac0710f95edde92",
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, RightFire, LeftFire},
	NewReader:      func() Reader { r := &assaultReader{}; r.Reset(); return r },
}

// assaultReader: six-digit BCD score in $82 (low), $81, $80 (high); lives in $E5; the
// game is over when they reach 0.
type assaultReader struct{ scoreReader }

func (r *assaultReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *assaultReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x82, 0x81, 0x80))
	r.lives = readRAM(ram, 0xE5)
	r.terminal = r.lives == 0
}

func (r *assaultReader) Lives() int { return r.livesOrZero() }
