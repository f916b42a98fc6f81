package atari

// Basic Math, ALE's games/supported/BasicMath.cpp. ALE offers the cartridge's four
// random-problem games, modes 5 to 8.
var basicMathGame = Game{
	Name:           "basic_math",
	MD5:            "819aeeb9a2e11deb54e6de334f843894",
	Modes:          []int{5, 6, 7, 8},
	Difficulties:   []int{0, 2, 3},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down},
	NewReader:      func() Reader { return &basicMathReader{} },
	setMode:        selectRAMMode(0xC5, 2),
}

// basicMathReader: the score is the BCD byte $84; the game is over on the final score
// screen, when the BCD value of $86 is not 0 (after 10 rounds).
type basicMathReader struct{ scoreReader }

func (r *basicMathReader) Reset() { r.scoreReader = scoreReader{} }

func (r *basicMathReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(bcd(readRAM(ram, 0x84)))
	r.terminal = bcd(readRAM(ram, 0x86)) != 0
}

func (r *basicMathReader) Lives() int { return r.defaultLives() }
