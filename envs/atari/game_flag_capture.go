package atari

// Flag Capture, ALE's games/supported/FlagCapture.cpp. ALE offers the three
// single-player variations, modes 8 to 10.
var flagCaptureGame = Game{
	Name:           "flag_capture",
	MD5:            "30512e0e83903fc05541d2f6a6a62654",
	Modes:          []int{8, 9, 10},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &flagCaptureReader{} },
	setMode:        selectRAMMode(0xD6, 2),
}

// flagCaptureReader: the score is the BCD byte $EA; the game is over when the 75-second
// timer, the BCD byte $EB, reaches 0. ALE keeps its default lives (1 while running).
type flagCaptureReader struct{ scoreReader }

func (r *flagCaptureReader) Reset() { r.scoreReader = scoreReader{} }

func (r *flagCaptureReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(bcd(readRAM(ram, 0xEA)))
	r.terminal = bcd(readRAM(ram, 0xEB)) == 0
}

func (r *flagCaptureReader) Lives() int { return r.defaultLives() }
