package atari

// Turmoil, ALE's games/supported/Turmoil.cpp. Every reset ends with one FIRE frame.
var turmoilGame = Game{
	Name:  "turmoil",
	MD5:   "7a5463545dfb2dcfdafa6074b2f2c15e",
	Modes: intRange(9, 0, 1),
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft,
		RightFire, LeftFire},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { r := &turmoilReader{}; r.Reset(); return r },
	setMode:         selectRAMMode(0xEA, 2),
}

// turmoilReader: the score is ten times the sum of the BCD value of $89 (low) and $8A
// (high) and the byte $D3; lives in $B9; the game is over when none are left and $C5
// reads 1.
type turmoilReader struct{ scoreReader }

func (r *turmoilReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *turmoilReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(10 * (decimalScore2(ram, 0x89, 0x8A) + readRAM(ram, 0xD3)))
	r.lives = readRAM(ram, 0xB9)
	r.terminal = r.lives == 0 && readRAM(ram, 0xC5) == 0x01
}

func (r *turmoilReader) Lives() int { return r.livesOrZero() }
