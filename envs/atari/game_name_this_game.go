package atari

// Name This Game, ALE's games/supported/NameThisGame.cpp. Its modes are $08, $18, $28.
var nameThisGameGame = Game{
	Name:           "name_this_game",
	MD5:            "36306070f0c90a72461551a7a4f3a209",
	Modes:          []int{0x08, 0x18, 0x28},
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Right, Left, RightFire, LeftFire},
	NewReader:      func() Reader { r := &nameThisGameReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xDE, 2),
}

// nameThisGameReader: six-digit BCD score in $C6 (low), $C5, $C4 (high); the lives are
// the low 3 bits of $C7, and the game is over when they reach 0.
type nameThisGameReader struct{ scoreReader }

func (r *nameThisGameReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *nameThisGameReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xC6, 0xC5, 0xC4))
	r.lives = readRAM(ram, 0xC7) & 0x7
	r.terminal = r.lives == 0
}

func (r *nameThisGameReader) Lives() int { return r.livesOrZero() }
