package atari

// Entombed, ALE's games/supported/Entombed.cpp. The game starts with FIRE, not RESET:
// every reset ends with one FIRE frame and five NOOP frames while it sets up.
var entombedGame = Game{
	Name:            "entombed",
	MD5:             "6b683be69f92958abe0e2a9945157ad5",
	Difficulties:    []int{0, 2},
	MinimalActions:  allActions,
	StartingActions: append([]Action{Fire}, repeatAction(Noop, 5)...),
	NewReader:       func() Reader { return &entombedReader{} },
}

// entombedReader: the score is the byte $E3 (binary, not BCD); the game is over when
// the lives, the low 2 bits of $C7, reach 0. ALE keeps its default lives (1 while
// running) for the single-player game.
type entombedReader struct{ scoreReader }

func (r *entombedReader) Reset() { r.scoreReader = scoreReader{} }

func (r *entombedReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(readRAM(ram, 0xE3))
	r.terminal = readRAM(ram, 0xC7)&0x03 == 0
}

func (r *entombedReader) Lives() int { return r.defaultLives() }
