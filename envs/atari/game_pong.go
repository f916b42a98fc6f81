package atari

// Pong (Video Olympics), ALE's games/supported/Pong.cpp. Both ports hold paddles and
// they are swapped, so the agent's paddle is read on INPT1 with its button on SWCHA
// bit 6.
var pongGame = Game{
	Name:           "pong",
	MD5:            "60e0ea3cbe0913d39803477945e9e5ec",
	Props:          Properties{LeftPaddles: true, RightPaddles: true, SwapPaddles: true},
	Modes:          intRange(2, 0, 1),
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: []Action{Noop, Fire, Right, Left, RightFire, LeftFire},
	NewReader:      func() Reader { return &pongReader{} },
	setMode:        selectRAMMode(0x96, 2),
}

// pongReader: the CPU's score is RAM 13, the player's RAM 14; the reward is the change
// of their difference, and the game ends when either reaches 21. Pong has no lives.
type pongReader struct{ scoreReader }

func (r *pongReader) Reset() { r.scoreReader = scoreReader{} }

func (r *pongReader) Step(m Memory) {
	ram := m.RAM()
	cpu, player := readRAM(ram, 13), readRAM(ram, 14)
	r.setScore(player - cpu)
	r.terminal = cpu == 21 || player == 21
}

func (r *pongReader) Lives() int { return 0 }
