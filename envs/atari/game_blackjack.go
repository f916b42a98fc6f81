package atari

// Blackjack, ALE's games/supported/Blackjack.cpp. A paddle game (left port).
//
// ALE sets paddle_max to 795000 for this game (instead of 790196) so every bet and
// betting action can be reached; rlpool's paddle range is fixed, so that setting is not
// applied yet.
var blackjackGame = Game{
	Name:           "blackjack",
	MD5:            "0a981c03204ac2b278ba392674682560",
	Props:          Properties{LeftPaddles: true},
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: []Action{Noop, Fire, Up, Down},
	NewReader:      func() Reader { return &blackjackReader{} },
}

// blackjackReader: the score is the player's chips, BCD in $89 (low) and $86 (high);
// when the chips run out the game writes $0B/$BB there, which counts as 0 and ends the
// game, as does reaching 1000 chips.
type blackjackReader struct{ scoreReader }

func (r *blackjackReader) Reset() { r.scoreReader = scoreReader{} }

func (r *blackjackReader) Step(m Memory) {
	ram := m.RAM()
	bust := readRAM(ram, 0x86) == 0x0B && readRAM(ram, 0x89) == 0xBB
	score := 0
	if !bust {
		score = decimalScore2(ram, 0x89, 0x86)
	}
	r.setScore(score)
	r.terminal = bust || score >= 1000
}

func (r *blackjackReader) Lives() int { return r.defaultLives() }
