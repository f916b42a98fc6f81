package atari

// Sir Lancelot, ALE's games/supported/SirLancelot.cpp. Every reset ends with one RESET
// frame (ALE's RESET pseudo-action) and one LEFT frame.
var sirLancelotGame = Game{
	Name:            "sir_lancelot",
	MD5:             "dd0cbe5351551a538414fb9e37fc56e8",
	MinimalActions:  []Action{Noop, Fire, Right, Left, RightFire, LeftFire},
	StartingActions: []Action{actionReset, Left},
	NewReader:       func() Reader { r := &sirLancelotReader{}; r.Reset(); return r },
}

// sirLancelotReader: six-digit BCD score in $A0 (low), $9F, $9E (high); lives in $A9;
// the game is over when none are left and $A7 reads $A0.
type sirLancelotReader struct{ scoreReader }

func (r *sirLancelotReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *sirLancelotReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xA0, 0x9F, 0x9E))
	r.lives = readRAM(ram, 0xA9)
	r.terminal = r.lives == 0 && readRAM(ram, 0xA7) == 0xA0
}

func (r *sirLancelotReader) Lives() int { return r.livesOrZero() }
