package atari

// Atlantis, ALE's games/supported/Atlantis.cpp.
var atlantisGame = Game{
	Name:           "atlantis",
	MD5:            "9ad36e699ef6f45d9eb6c4cf90475c9f",
	Modes:          intRange(4, 0, 1),
	MinimalActions: []Action{Noop, Fire, RightFire, LeftFire},
	NewReader:      func() Reader { r := &atlantisReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0x8D, 2),
}

// atlantisReader: the score is 100 times the BCD value of $A2 (low), $A3, $A1 (high);
// lives in $F1, and the game is over when they read $FF. On the game-over frame the
// score bytes hold garbage, so ALE gives reward 0 and keeps the old score.
type atlantisReader struct{ scoreReader }

func (r *atlantisReader) Reset() { r.scoreReader = scoreReader{lives: 6} }

func (r *atlantisReader) Step(m Memory) {
	ram := m.RAM()
	old := r.score
	r.setScore(100 * decimalScore3(ram, 0xA2, 0xA3, 0xA1))
	r.lives = readRAM(ram, 0xF1)
	r.terminal = r.lives == 0xFF
	if r.terminal {
		r.reward, r.score = 0, old
	}
}

func (r *atlantisReader) Lives() int { return r.livesOrZero() }
