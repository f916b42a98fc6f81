package atari

// Word Zapper, ALE's games/supported/WordZapper.cpp. Every reset ends with 486 NOOP
// frames (the title animation ignores input, even RESET), a FIRE frame that starts the
// game and two NOOP frames.
var wordZapperGame = Game{
	Name:            "word_zapper",
	MD5:             "ec3beb6d8b5689e867bafb5d5f507491",
	Modes:           intRange(24, 0, 1),
	Difficulties:    []int{0, 1, 2, 3},
	MinimalActions:  allActions,
	StartingActions: append(append(repeatAction(Noop, 486), Fire), Noop, Noop),
	NewReader:       func() Reader { return &wordZapperReader{} },
	setMode:         selectRAMMode(0xDB, 2),
}

// wordZapperReader: nothing is read while the wall clock (BCD $CF) is 0 (the game state
// is not valid then; ALE keeps the last reward and flag). Otherwise the score is 2 minus
// the rounds remaining, $DC read as a signed byte (it wraps to $FF after the last
// round), and the game is over at score 3 or when the time remaining (BCD $DE) is 0.
// ALE keeps its default lives.
type wordZapperReader struct{ scoreReader }

func (r *wordZapperReader) Reset() { r.scoreReader = scoreReader{} }

func (r *wordZapperReader) Step(m Memory) {
	ram := m.RAM()
	if bcd(readRAM(ram, 0xCF)) <= 0 {
		return
	}
	r.setScore(2 - signedRAM(ram, 0xDC))
	r.terminal = r.score == 3 || bcd(readRAM(ram, 0xDE)) == 0
}

func (r *wordZapperReader) Lives() int { return r.defaultLives() }
