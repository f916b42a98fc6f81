package atari

// Bowling, ALE's games/supported/Bowling.cpp. Its modes are 0, 2 and 4.
var bowlingGame = Game{
	Name:           "bowling",
	MD5:            "c9b7afad3bfd922e006a6bfc1d4f3fe7",
	Modes:          []int{0, 2, 4},
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Up, Down, UpFire, DownFire},
	NewReader:      func() Reader { return &bowlingReader{} },
	setMode:        selectRAMMode(2, 2),
}

// bowlingReader: BCD score in $A1 (low) and $A6 (high); the game is over when the
// frame number $A4 passes $10. ALE reports no lives.
type bowlingReader struct{ scoreReader }

func (r *bowlingReader) Reset() { r.scoreReader = scoreReader{} }

func (r *bowlingReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore2(ram, 0xA1, 0xA6))
	r.terminal = readRAM(ram, 0xA4) > 0x10
}

func (r *bowlingReader) Lives() int { return 0 }
