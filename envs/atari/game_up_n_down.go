package atari

// Up'n Down, ALE's games/supported/UpNDown.cpp. Stella's properties start its screen
// window at line 30. Every reset ends with one FIRE frame.
var upNDownGame = Game{
	Name:            "up_n_down",
	MD5:             "a499d720e7ee35c62424de882a3351b6",
	Props:           Properties{YStart: 30},
	Difficulties:    []int{0, 1, 2, 3},
	MinimalActions:  []Action{Noop, Fire, Up, Down, UpFire, DownFire},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { r := &upNDownReader{}; r.Reset(); return r },
}

// upNDownReader: six-digit BCD score in $82 (low), $81, $80 (high); the lives are the
// low nibble of $86 plus 1; the game is over when that nibble is 0 and the death timer
// $94 is above $40.
type upNDownReader struct{ scoreReader }

func (r *upNDownReader) Reset() { r.scoreReader = scoreReader{lives: 5} }

func (r *upNDownReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x82, 0x81, 0x80))
	b := readRAM(ram, 0x86) & 0xf
	r.terminal = readRAM(ram, 0x94) > 0x40 && b == 0
	r.lives = b + 1
}

func (r *upNDownReader) Lives() int { return r.livesOrZero() }
