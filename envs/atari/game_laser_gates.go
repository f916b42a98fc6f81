package atari

// Laser Gates, ALE's games/supported/LaserGates.cpp. The game starts with the RESET
// switch: every reset ends with one RESET frame (ALE's RESET pseudo-action).
var laserGatesGame = Game{
	Name:            "laser_gates",
	MD5:             "8e4cd60d93fcde8065c1a2b972a26377",
	MinimalActions:  allActions,
	StartingActions: []Action{actionReset},
	NewReader:       func() Reader { return &laserGatesReader{} },
}

// laserGatesReader: six-digit BCD score in $82 (low), $81, $80 (high); the game is over
// when $83 reads 0. ALE reports no lives.
type laserGatesReader struct{ scoreReader }

func (r *laserGatesReader) Reset() { r.scoreReader = scoreReader{} }

func (r *laserGatesReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x82, 0x81, 0x80))
	r.terminal = readRAM(ram, 0x83) == 0x00
}

func (r *laserGatesReader) Lives() int { return 0 }
