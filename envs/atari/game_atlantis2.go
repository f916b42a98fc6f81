package atari

// Atlantis II, ALE's games/supported/Atlantis2.cpp (from Xitari).
var atlantis2Game = Game{
	Name:           "atlantis2",
	MD5:            "826481f6fc53ea47c9f272f7050eedf7",
	MinimalActions: []Action{Noop, Fire, RightFire, LeftFire},
	NewReader:      func() Reader { return &atlantis2Reader{} },
}

// atlantis2Reader: lives in $F1, the game is over when they read $FF; otherwise the
// score is the six-digit BCD value of $A1 (low), $A2, $A3 (high). On the game-over
// frame the reward is 0 and the score is not read. (ALE's reset leaves the life count
// unset until the first frame; here it starts at 0.)
type atlantis2Reader struct{ scoreReader }

func (r *atlantis2Reader) Reset() { r.scoreReader = scoreReader{} }

func (r *atlantis2Reader) Step(m Memory) {
	ram := m.RAM()
	r.lives = readRAM(ram, 0xF1)
	r.terminal = r.lives == 0xFF
	if r.terminal {
		r.reward = 0
		return
	}
	r.setScore(decimalScore3(ram, 0xA1, 0xA2, 0xA3))
}

func (r *atlantis2Reader) Lives() int { return r.livesOrZero() }
