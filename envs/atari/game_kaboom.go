package atari

// Kaboom!, ALE's games/supported/Kaboom.cpp. A paddle game (left port). Every reset
// ends with one FIRE frame.
var kaboomGame = Game{
	Name:            "kaboom",
	MD5:             "5428cdfada281c569c74c7308c7f2c26",
	Props:           Properties{LeftPaddles: true},
	MinimalActions:  []Action{Noop, Fire, Right, Left},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { return &kaboomReader{} },
}

// kaboomMaxScore is the highest score; ALE ends the game there.
const kaboomMaxScore = 999999

// kaboomReader: six-digit BCD score in $A5 (low), $A4, $A3 (high); the game is over when
// the buckets ($A1) run out or the score reaches 999999. ALE keeps its default lives.
type kaboomReader struct{ scoreReader }

func (r *kaboomReader) Reset() { r.scoreReader = scoreReader{} }

func (r *kaboomReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xA5, 0xA4, 0xA3))
	r.terminal = readRAM(ram, 0xA1) == 0 || r.score == kaboomMaxScore
}

func (r *kaboomReader) Lives() int { return r.defaultLives() }
