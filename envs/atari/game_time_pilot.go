package atari

// Time Pilot, ALE's games/supported/TimePilot.cpp.
var timePilotGame = Game{
	Name:           "time_pilot",
	MD5:            "fc2104dd2dadf9a6176c1c1c8f87ced9",
	Difficulties:   []int{0, 1, 2},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpFire, RightFire, LeftFire, DownFire},
	NewReader:      func() Reader { r := &timePilotReader{}; r.Reset(); return r },
}

// timePilotReader: the score is 100 times the BCD value of $8D (low) and $8F (high);
// the game is over when $A0 is not 0; the lives (the low 3 bits of $8B plus 1) are only
// updated while flying (low nibble of $80 is 2).
type timePilotReader struct{ scoreReader }

func (r *timePilotReader) Reset() { r.scoreReader = scoreReader{lives: 5} }

func (r *timePilotReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * decimalScore2(ram, 0x8D, 0x8F))
	r.terminal = readRAM(ram, 0xA0) != 0
	if readRAM(ram, 0x80)&0xf == 2 {
		r.lives = readRAM(ram, 0x8B)&0x7 + 1
	}
}

func (r *timePilotReader) Lives() int { return r.livesOrZero() }
