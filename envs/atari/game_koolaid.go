package atari

// Kool-Aid Man, ALE's games/supported/Koolaid.cpp.
var koolaidGame = Game{
	Name:           "koolaid",
	MD5:            "534e23210dd1993c828d944c6ac4d9fb",
	MinimalActions: []Action{Noop, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft},
	NewReader:      func() Reader { return &koolaidReader{} },
}

// koolaidReader: the score is 100 times the BCD value of $81 (low) and $80 (high); the
// game is over when $D1 reads $80. ALE reports no lives.
type koolaidReader struct{ scoreReader }

func (r *koolaidReader) Reset() { r.scoreReader = scoreReader{} }

func (r *koolaidReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * decimalScore2(ram, 0x81, 0x80))
	r.terminal = readRAM(ram, 0xD1) == 0x80
}

func (r *koolaidReader) Lives() int { return 0 }
