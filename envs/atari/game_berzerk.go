package atari

// Berzerk, ALE's games/supported/Berzerk.cpp. Its modes are 1 to 12 in BCD (1 ... 9,
// $10, $11, $12).
var berzerkGame = Game{
	Name:           "berzerk",
	MD5:            "136f75c4dd02c29283752b7e5799f978",
	Modes:          append(intRange(9, 1, 1), 0x10, 0x11, 0x12),
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &berzerkReader{}; r.Reset(); return r },
	// The game accepts SELECT only after 20 NOOP steps.
	setMode: waitThenSelectRAMMode(20, 0x80, 2),
}

// berzerkReader: six-digit BCD score in RAM 95 (low), 94, 93 (high); the lives are $DA
// plus 1, and the game is over when $DA reads $FF.
type berzerkReader struct{ scoreReader }

func (r *berzerkReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *berzerkReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 95, 94, 93))
	b := readRAM(ram, 0xDA)
	r.terminal = b == 0xFF
	r.lives = b + 1
}

func (r *berzerkReader) Lives() int { return r.livesOrZero() }
