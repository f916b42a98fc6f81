package atari

// Mario Bros., ALE's games/supported/MarioBros.cpp. Its single-player modes are 0, 2, 4
// and 6. Every reset ends with 10 NOOP frames and 7 FIRE frames (the start is strongly
// debounced).
var marioBrosGame = Game{
	Name:            "mario_bros",
	MD5:             "e908611d99890733be31733a979c62d8",
	Modes:           []int{0, 2, 4, 6},
	MinimalActions:  allActions,
	StartingActions: append(repeatAction(Noop, 10), repeatAction(Fire, 7)...),
	NewReader:       func() Reader { return &marioBrosReader{} },
	setMode:         selectRAMMode(0x80, 5),
}

// marioBrosReader: the score is 100 times the BCD value of $8A (low) and $89 (high);
// lives in $87, and the game is over when they reach 0.
type marioBrosReader struct{ scoreReader }

func (r *marioBrosReader) Reset() { r.scoreReader = scoreReader{} }

func (r *marioBrosReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * decimalScore2(ram, 0x8A, 0x89))
	r.lives = readRAM(ram, 0x87)
	r.terminal = r.lives == 0
}

func (r *marioBrosReader) Lives() int { return r.livesOrZero() }
