package atari

// Video Chess, ALE's games/supported/VideoChess.cpp (from Xitari). Modes 0 to 4 are the
// first five computer levels (the higher ones are known to misbehave).
var videoChessGame = Game{
	Name:           "video_chess",
	MD5:            "f0b7db930ca0e548c41a97160b9f6275",
	Modes:          intRange(5, 0, 1),
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft},
	NewReader:      func() Reader { return &videoChessReader{} },
	setMode:        selectRAMMode(0xEA, 1),
}

// videoChessReader: only on white's turn ($E1 = $82; the computer simulates moves on
// its own turn) is the checkmate byte $EE read: 0 is black checkmated (reward +1, game
// over), 1 white checkmated (-1, game over). The reward is 0 otherwise; once set, the
// game-over flag stays set. ALE reports 1 life while the game runs.
type videoChessReader struct{ scoreReader }

func (r *videoChessReader) Reset() { r.scoreReader = scoreReader{} }

func (r *videoChessReader) Step(m Memory) {
	ram := m.RAM()
	r.reward = 0
	if readRAM(ram, 0xE1) != 0x82 {
		return
	}
	switch readRAM(ram, 0xEE) {
	case 0x00:
		r.reward, r.terminal = 1, true
	case 0x01:
		r.reward, r.terminal = -1, true
	}
}

func (r *videoChessReader) Lives() int { return r.defaultLives() }
