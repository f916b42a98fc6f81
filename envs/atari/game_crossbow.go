package atari

// Crossbow, ALE's games/supported/Crossbow.cpp. Its single-player modes are 0, 2, 4, 6.
var crossbowGame = Game{
	Name:           "crossbow",
	MD5:            "8cd26dcf249456fe4aeb8db42d49df74",
	Modes:          []int{0, 2, 4, 6},
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &crossbowReader{} },
	// The game number shown is $8D, one more than ALE's mode.
	setMode: selectRAMModePlusOne(0x8D, 2),
}

// crossbowReader: six-digit BCD score in $8D (low), $8C, $8B (high); the game is over on
// the game-over screen ($E7 = $82). ALE keeps its default lives (1 while running).
type crossbowReader struct{ scoreReader }

func (r *crossbowReader) Reset() { r.scoreReader = scoreReader{} }

func (r *crossbowReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x8D, 0x8C, 0x8B))
	r.terminal = readRAM(ram, 0xE7) == 0x82
}

func (r *crossbowReader) Lives() int { return r.defaultLives() }
