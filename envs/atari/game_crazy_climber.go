package atari

// Crazy Climber, ALE's games/supported/CrazyClimber.cpp.
var crazyClimberGame = Game{
	Name:           "crazy_climber",
	MD5:            "55ef7b65066428367844342ed59f956c",
	Modes:          intRange(4, 0, 1),
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft},
	NewReader:      func() Reader { r := &crazyClimberReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0x80, 2),
}

// crazyClimberReader: the score is 100 times four digits kept one per byte in $82..$85
// (lowest first); a negative reward is taken as 0; lives in $AA, and the game is over
// when they reach 0.
type crazyClimberReader struct{ scoreReader }

func (r *crazyClimberReader) Reset() { r.scoreReader = scoreReader{lives: 5} }

func (r *crazyClimberReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * digitsScore(ram, 1, 0x82, 0x83, 0x84, 0x85))
	r.reward = max(r.reward, 0)
	r.lives = readRAM(ram, 0xAA)
	r.terminal = r.lives == 0
}

func (r *crazyClimberReader) Lives() int { return r.livesOrZero() }
