package atari

// Breakout, ALE's games/supported/Breakout.cpp. A paddle game (left port).
var breakoutGame = Game{
	Name:           "breakout",
	MD5:            "f34f08e5eb96e500e851a80be3277a56",
	Props:          Properties{LeftPaddles: true},
	Modes:          intRange(12, 0, 4),
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Right, Left},
	NewReader:      func() Reader { r := &breakoutReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xB2, 1),
}

// breakoutReader: the score is BCD in RAM 77 (ones, tens) and the low nibble of RAM 76
// (hundreds); lives are RAM 57. The game counts as started once lives read 5 and is
// over when, started, they read 0.
type breakoutReader struct {
	scoreReader
	started bool
}

func (r *breakoutReader) Reset() {
	r.scoreReader = scoreReader{lives: 5}
	r.started = false
}

func (r *breakoutReader) Step(m Memory) {
	ram := m.RAM()
	x, y := readRAM(ram, 77), readRAM(ram, 76)
	r.setScore(x&0xf + 10*(x>>4&0xf) + 100*(y&0xf))
	lives := readRAM(ram, 57)
	if !r.started && lives == 5 {
		r.started = true
	}
	r.terminal = r.started && lives == 0
	r.lives = lives
}

func (r *breakoutReader) Lives() int { return r.livesOrZero() }
