package atari

// Enduro, ALE's games/supported/Enduro.cpp. Every reset ends with one FIRE frame.
var enduroGame = Game{
	Name:            "enduro",
	MD5:             "94b92a882f6dbaa6993a46e2dcc58402",
	MinimalActions:  []Action{Noop, Fire, Right, Left, Down, DownRight, DownLeft, RightFire, LeftFire},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { return &enduroReader{} },
}

// enduroReader: the score is the number of cars passed. The day ($AD) is 0 before the
// race, 1 on the first day (200 cars to pass) and 2 or more later (300 a day); the BCD
// value of $AB (low) and $AC (high) counts the cars still to pass that day. The game is
// over when $AF reads $FF. ALE reports no lives.
type enduroReader struct{ scoreReader }

func (r *enduroReader) Reset() { r.scoreReader = scoreReader{} }

func (r *enduroReader) Step(m Memory) {
	ram := m.RAM()
	score := 0
	if day := readRAM(ram, 0xAD); day != 0 {
		left := decimalScore2(ram, 0xAB, 0xAC)
		if day == 1 {
			score = 200 - left
		} else {
			score = 200 + (day-2)*300 + 300 - left
		}
	}
	r.setScore(score)
	r.terminal = readRAM(ram, 0xAF) == 0xFF
}

func (r *enduroReader) Lives() int { return 0 }
