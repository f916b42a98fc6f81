package atari

// Mr. Do!, ALE's games/supported/MrDo.cpp. Every reset ends with one FIRE frame.
var mrDoGame = Game{
	Name:            "mr_do",
	MD5:             "aa7bb54d2c189a31bb1fa20099e42859",
	Modes:           intRange(4, 0, 1),
	MinimalActions:  []Action{Noop, Fire, Up, Right, Left, Down, UpFire, RightFire, LeftFire, DownFire},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { r := &mrDoReader{}; r.Reset(); return r },
	setMode:         selectRAMMode(0x80, 5),
}

// mrDoReader: the score is ten times the BCD value of $82 (low) and $83 (high); lives
// in $DB; the game is over when $DA reads $40.
type mrDoReader struct{ scoreReader }

func (r *mrDoReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *mrDoReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(10 * decimalScore2(ram, 0x82, 0x83))
	r.lives = readRAM(ram, 0xDB)
	r.terminal = readRAM(ram, 0xDA) == 0x40
}

func (r *mrDoReader) Lives() int { return r.livesOrZero() }
