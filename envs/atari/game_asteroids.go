package atari

// Asteroids, ALE's games/supported/Asteroids.cpp. Stella's properties turn HMOVE
// blanks off for this ROM. Modes are 0 to 31 and $80 (the children's version).
var asteroidsGame = Game{
	Name:           "asteroids",
	MD5:            "ccbd36746ed4525821a8083b0d6d2c2c",
	Props:          Properties{NoHmoveBlanks: true},
	Modes:          append(intRange(32, 0, 1), 0x80),
	Difficulties:   []int{0, 3},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpRight, UpLeft, UpFire, RightFire, LeftFire, DownFire, UpRightFire, UpLeftFire},
	NewReader:      func() Reader { r := &asteroidsReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0x80, 2),
}

// asteroidsWrap is where Asteroids' score wraps; ALE adds it to a negative reward.
const asteroidsWrap = 100000

// asteroidsReader: the score is ten times the BCD value of $BE (low) and $BD (high),
// wrapping at 100000; the lives are the high nibble of $BC and the game is over when
// they reach 0.
type asteroidsReader struct{ scoreReader }

func (r *asteroidsReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *asteroidsReader) Step(m Memory) {
	ram := m.RAM()
	r.setWrappedScore(10*decimalScore2(ram, 0xBE, 0xBD), asteroidsWrap)
	r.lives = readRAM(ram, 0xBC) >> 4
	r.terminal = r.lives == 0
}

func (r *asteroidsReader) Lives() int { return r.livesOrZero() }
