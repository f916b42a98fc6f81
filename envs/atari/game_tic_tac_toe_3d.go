package atari

// 3-D Tic-Tac-Toe, ALE's games/supported/TicTacToe3d.cpp.
var ticTacToe3dGame = Game{
	Name:           "tic_tac_toe_3d",
	MD5:            "0db4f4150fecf77e4ce72ca4d04c052f",
	Modes:          intRange(9, 0, 1),
	Difficulties:   []int{0, 2},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft},
	NewReader:      func() Reader { return &ticTacToe3dReader{} },
	setMode:        selectRAMMode(0x88, 2),
}

// ticTacToe3dReader: a won or lost game leaves the return address $F310 in the last two
// RAM bytes ($FF high, $FE low); the winner is $E1 ($08 is the player's X): reward +1,
// otherwise -1, and the game is over. A draw (the game then waits forever) is detected
// when none of the 64 board bytes $9A..$D9 is 0. The reward is 0 on every other frame;
// once set, the game-over flag stays set, as in ALE.
type ticTacToe3dReader struct{ scoreReader }

func (r *ticTacToe3dReader) Reset() { r.scoreReader = scoreReader{} }

func (r *ticTacToe3dReader) Step(m Memory) {
	ram := m.RAM()
	r.reward = 0
	if readRAM(ram, 0xFF) == 0xF3 && readRAM(ram, 0xFE) == 0x10 {
		if readRAM(ram, 0xE1) == 0x08 {
			r.reward = 1
		} else {
			r.reward = -1
		}
		r.terminal = true
	}
	for addr := 0x9A; addr <= 0xD9; addr++ {
		if readRAM(ram, addr) == 0 {
			return
		}
	}
	r.terminal = true
}

func (r *ticTacToe3dReader) Lives() int { return r.defaultLives() }
