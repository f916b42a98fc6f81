package atari

// Kung-Fu Master, ALE's games/supported/KungFuMaster.cpp.
var kungFuMasterGame = Game{
	Name: "kung_fu_master",
	MD5:  "5b92a93b23523ff16e2789b820e2a4c5",
	MinimalActions: []Action{Noop, Up, Right, Left, Down, DownRight, DownLeft, RightFire, LeftFire,
		DownFire, UpRightFire, UpLeftFire, DownRightFire, DownLeftFire},
	NewReader: func() Reader { r := &kungFuMasterReader{}; r.Reset(); return r },
}

// kungFuMasterReader: six-digit BCD score in $9A (low), $99, $98 (high); the lives are
// the low 3 bits of $9D plus 1, and the game is over when $9D reads $FF.
type kungFuMasterReader struct{ scoreReader }

func (r *kungFuMasterReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *kungFuMasterReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x9A, 0x99, 0x98))
	b := readRAM(ram, 0x9D)
	r.terminal = b == 0xFF
	r.lives = b&0x7 + 1
}

func (r *kungFuMasterReader) Lives() int { return r.livesOrZero() }
