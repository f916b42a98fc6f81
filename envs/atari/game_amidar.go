package atari

// Amidar, ALE's games/supported/Amidar.cpp. Stella's properties set both difficulty
// switches to A (they matter only until ALE first sets them) and leave the right port
// without a controller (a joystick to the console).
var amidarGame = Game{
	Name:           "amidar",
	MD5:            "acb7750b4d0c4bd34969802a7deb2990",
	Props:          Properties{LeftDifficultyA: true, RightDifficultyA: true},
	Difficulties:   []int{0, 3},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpFire, RightFire, LeftFire, DownFire},
	NewReader:      func() Reader { r := &amidarReader{}; r.Reset(); return r },
}

// amidarReader: six-digit BCD score in $D9 (low), $DA, $DB (high); the low nibble of
// $D6 counts lives and the game is over when $D6 reads $80.
type amidarReader struct{ scoreReader }

func (r *amidarReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *amidarReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xD9, 0xDA, 0xDB))
	b := readRAM(ram, 0xD6)
	r.terminal = b == 0x80
	r.lives = b & 0xf
}

func (r *amidarReader) Lives() int { return r.livesOrZero() }
