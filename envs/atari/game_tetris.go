package atari

// Tetris (the homebrew tetris26), ALE's games/supported/Tetris.cpp.
var tetrisGame = Game{
	Name:           "tetris",
	MD5:            "b0e1ee07fbc73493eac5651a52f90f00",
	MinimalActions: []Action{Noop, Fire, Right, Left, Down},
	NewReader:      func() Reader { return &tetrisReader{} },
}

// tetrisReader: BCD score in $71 (low) and $72 (high); only increases are rewarded.
// The game counts as started after the first frame seen, and is over when, started,
// bit 7 of $73 is set; the score and the started flag are then cleared, as ALE does.
// ALE's life count for Tetris is always 0.
type tetrisReader struct {
	scoreReader
	started bool
}

func (r *tetrisReader) Reset() { *r = tetrisReader{} }

func (r *tetrisReader) Step(m Memory) {
	ram := m.RAM()
	score := decimalScore2(ram, 0x71, 0x72)
	r.reward = max(score-r.score, 0)
	r.score = score
	r.started = true
	r.terminal = r.started && readRAM(ram, 0x73)&0x80 != 0
	if r.terminal {
		r.score, r.started = 0, false
	}
}

func (r *tetrisReader) Lives() int { return 0 }
