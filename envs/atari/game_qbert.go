package atari

// Q*bert, ALE's games/supported/QBert.cpp. Stella's properties start its screen window
// at line 40.
var qbertGame = Game{
	Name:           "qbert",
	MD5:            "484b0076816a104875e00467d431c2d2",
	Props:          Properties{YStart: 40},
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down},
	NewReader:      func() Reader { r := &qbertReader{}; r.Reset(); return r },
}

// qbertReader: the lives byte $88 starts at 2 and counts down to $FE (game over); the
// game is also over when it reads 2 right after reading $FF (a death and restart in
// one frame). ALE's life count starts at 4 and drops by one each time the signed lives
// byte drops by exactly one. While the game is not over the score is the six-digit BCD
// value of $DB (low), $DA, $D9 (high); on the game-over frame the reward is 0 and the
// score is not read (FIRE restarts the game and would clear it).
type qbertReader struct {
	scoreReader
	lastLives int // the last signed lives byte; 2 (anything but -1) after a reset
}

func (r *qbertReader) Reset() {
	r.scoreReader = scoreReader{lives: 4}
	r.lastLives = 2
}

func (r *qbertReader) Step(m Memory) {
	ram := m.RAM()
	v := readRAM(ram, 0x88)
	r.terminal = v == 0xFE || v == 0x02 && r.lastLives == -1
	signed := signedRAM(ram, 0x88)
	if r.lastLives-1 == signed {
		r.lives--
	}
	r.lastLives = signed
	if r.terminal {
		r.reward = 0
		return
	}
	r.setScore(decimalScore3(ram, 0xDB, 0xDA, 0xD9))
}

func (r *qbertReader) Lives() int { return r.livesOrZero() }
