package atari

// Journey Escape, ALE's games/supported/JourneyEscape.cpp. Stella's properties make its
// screen 230 lines high. Every reset ends with one FIRE frame.
var journeyEscapeGame = Game{
	Name:         "journey_escape",
	MD5:          "718ae62c70af4e5fd8e932fee216948a",
	Props:        Properties{Height: 230},
	Difficulties: []int{0, 1},
	MinimalActions: []Action{Noop, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft,
		RightFire, LeftFire, DownFire, UpRightFire, UpLeftFire, DownRightFire, DownLeftFire},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { return &journeyEscapeReader{} },
}

// journeyEscapeStartingCash is the cash the game hands out at the start; ALE ignores a
// reward of exactly this amount.
const journeyEscapeStartingCash = 50000

// journeyEscapeReader: six-digit BCD score in $92 (low), $91, $90 (high); a reward of
// exactly 50000 (the starting cash) counts as 0; the game is over when the clock ($95
// minutes, $96 seconds) reads 0. ALE reports no lives.
type journeyEscapeReader struct{ scoreReader }

func (r *journeyEscapeReader) Reset() { r.scoreReader = scoreReader{} }

func (r *journeyEscapeReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x92, 0x91, 0x90))
	if r.reward == journeyEscapeStartingCash {
		r.reward = 0
	}
	r.terminal = readRAM(ram, 0x95) == 0 && readRAM(ram, 0x96) == 0
}

func (r *journeyEscapeReader) Lives() int { return 0 }
