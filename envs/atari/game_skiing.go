package atari

// Skiing, ALE's games/supported/Skiing.cpp. Every reset ends with 16 DOWN frames.
// ALE declares every FIRE action illegal for this game (see Game.IsLegal).
var skiingGame = Game{
	Name:            "skiing",
	MD5:             "b76fbadc8ffb1f83e2ca08b6fb4d6c9f",
	MinimalActions:  []Action{Noop, Right, Left},
	StartingActions: repeatAction(Down, 16),
	NewReader:       func() Reader { return &skiingReader{} },
}

// skiingReader: the elapsed time is $E8 minutes (binary) and the BCD centiseconds in
// $EA (low) and $E9 (high); the reward is minus the time elapsed since the last frame,
// in centiseconds. The game is over when $91 reads $FF. ALE reports no lives.
type skiingReader struct{ scoreReader }

func (r *skiingReader) Reset() { r.scoreReader = scoreReader{} }

func (r *skiingReader) Step(m Memory) {
	ram := m.RAM()
	t := readRAM(ram, 0xE8)*6000 + decimalScore2(ram, 0xEA, 0xE9)
	r.reward = r.score - t
	r.score = t
	r.terminal = readRAM(ram, 0x91) == 0xFF
}

func (r *skiingReader) Lives() int { return 0 }
