package atari

// Carnival, ALE's games/supported/Carnival.cpp. Stella's properties move its screen
// window: it starts at line 26 and is 214 lines high.
var carnivalGame = Game{
	Name:           "carnival",
	MD5:            "028024fb8e5e5f18ea586652f9799c96",
	Props:          Properties{YStart: 26, Height: 214},
	MinimalActions: []Action{Noop, Fire, Right, Left, RightFire, LeftFire},
	NewReader:      func() Reader { return &carnivalReader{} },
}

// carnivalReader: the score is 10 times the BCD value of $AE (low) and $AD (high); the
// game is over when the ammunition ($83) runs out. ALE reports no lives.
type carnivalReader struct{ scoreReader }

func (r *carnivalReader) Reset() { r.scoreReader = scoreReader{} }

func (r *carnivalReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(10 * decimalScore2(ram, 0xAE, 0xAD))
	r.terminal = readRAM(ram, 0x83) < 1
}

func (r *carnivalReader) Lives() int { return 0 }
