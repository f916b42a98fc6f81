package atari

// Keystone Kapers, ALE's games/supported/KeystoneKapers.cpp. The game starts with the
// RESET switch: every reset ends with one RESET frame (ALE's RESET pseudo-action).
var keystoneKapersGame = Game{
	Name:            "keystone_kapers",
	MD5:             "6c1f3f2e359dbf55df462ccbcdd2f6bf",
	MinimalActions:  []Action{Noop, Fire, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft, UpFire, RightFire, LeftFire, DownFire},
	StartingActions: []Action{actionReset},
	NewReader:       func() Reader { r := &keystoneKapersReader{}; r.Reset(); return r },
}

// keystoneKapersReader: BCD score in $9C (low) and $9B (high); lives in $96; the game is
// over when none are left and $88 reads 0.
type keystoneKapersReader struct{ scoreReader }

func (r *keystoneKapersReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *keystoneKapersReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore2(ram, 0x9C, 0x9B))
	r.lives = readRAM(ram, 0x96)
	r.terminal = r.lives == 0 && readRAM(ram, 0x88) == 0x00
}

func (r *keystoneKapersReader) Lives() int { return r.livesOrZero() }
