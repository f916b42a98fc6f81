package atari

// Private Eye, ALE's games/supported/PrivateEye.cpp. Every reset ends with one UP
// frame.
var privateEyeGame = Game{
	Name:            "private_eye",
	MD5:             "ef3a4f64b6494ba770862768caf04b86",
	Modes:           intRange(5, 0, 1),
	Difficulties:    []int{0, 1, 2, 3},
	MinimalActions:  allActions,
	StartingActions: []Action{Up},
	NewReader:       func() Reader { r := &privateEyeReader{}; r.Reset(); return r },
	setMode:         selectRAMMode(0x80, 2),
}

// privateEyeStartScore is the score Private Eye starts with.
const privateEyeStartScore = 1000

// privateEyeReader: six-digit BCD score in $CA (low), $C9, $C8 (high), starting at 1000;
// the game is over when the copyright timer $C2 is neither 0 (running) nor 1 (start).
// ALE reports no lives.
type privateEyeReader struct{ scoreReader }

func (r *privateEyeReader) Reset() { r.scoreReader = scoreReader{score: privateEyeStartScore} }

func (r *privateEyeReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xCA, 0xC9, 0xC8))
	t := readRAM(ram, 0xC2)
	r.terminal = t != 0x00 && t != 0x01
}

func (r *privateEyeReader) Lives() int { return 0 }
