package atari

// Freeway, ALE's games/supported/Freeway.cpp.
var freewayGame = Game{
	Name:           "freeway",
	MD5:            "8e0ab801b1705a740b476b7f588c6d16",
	Modes:          intRange(8, 0, 1),
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Up, Down},
	NewReader:      func() Reader { return &freewayReader{} },
	setMode:        selectRAMMode(0x80, 1),
}

// freewayReader: the score is the BCD byte RAM 103 (crossings); the reward is clamped to
// 0 or 1; the game is over when RAM 22 reads 1. ALE reports no lives.
type freewayReader struct{ scoreReader }

func (r *freewayReader) Reset() { r.scoreReader = scoreReader{} }

func (r *freewayReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(bcd(readRAM(ram, 103)))
	r.reward = min(max(r.reward, 0), 1)
	r.terminal = readRAM(ram, 22) == 1
}

func (r *freewayReader) Lives() int { return 0 }
