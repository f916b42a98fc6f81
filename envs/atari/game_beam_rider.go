package atari

// Beam Rider, ALE's games/supported/BeamRider.cpp. Every reset ends with one RIGHT
// frame.
var beamRiderGame = Game{
	Name:            "beam_rider",
	MD5:             "79ab4123a83dc11d468fb2108ea09e2e",
	Difficulties:    []int{0, 1},
	MinimalActions:  []Action{Noop, Fire, Up, Right, Left, UpRight, UpLeft, RightFire, LeftFire},
	StartingActions: []Action{Right},
	NewReader:       func() Reader { r := &beamRiderReader{}; r.Reset(); return r },
}

// beamRiderReader: six-digit BCD score in RAM 9 (low), 10, 11 (high); the lives are
// RAM $85 plus 1, but a loss of one life only counts once the death animation is over
// ($8C reads 1), because the counter blinks while the ship explodes; the game is over
// when RAM 5 reads 255.
type beamRiderReader struct{ scoreReader }

func (r *beamRiderReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *beamRiderReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 9, 10, 11))
	lives := readRAM(ram, 0x85) + 1
	if lives != r.lives-1 || readRAM(ram, 0x8C) == 0x01 {
		r.lives = lives
	}
	r.terminal = readRAM(ram, 5) == 255
}

func (r *beamRiderReader) Lives() int { return r.livesOrZero() }
