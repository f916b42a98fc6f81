package atari

// Backgammon, ALE's games/supported/Backgammon.cpp. A paddle game (left port). ALE
// supports only the single-player game without acey-deucey or doubling cube (its mode
// 0, the cartridge's game 3) and only difficulty 3, which leaves the set-up mode; its
// minimal action set has no NOOP.
//
// ALE also widens the paddle range for this game (paddle_max 1000000 instead of
// 790196) so the cursor reaches the whole board; rlpool's paddle range is fixed, so
// that setting is not applied yet.
var backgammonGame = Game{
	Name:           "backgammon",
	MD5:            "8556b42aa05f94bc29ff39c39b11bff4",
	Props:          Properties{LeftPaddles: true},
	Modes:          []int{0},
	Difficulties:   []int{3},
	MinimalActions: []Action{Fire, Right, Left},
	NewReader:      func() Reader { return &backgammonReader{} },
	setMode: func(a *ALE, mode int) error {
		return selectUntil(a, 1, func() bool { return readRAM(a.m.RAM(), 0xDC) == 3 }, "game 3 (RAM $DC)")
	},
}

// backgammonReader: the board is $81-$8D and $8F-$9B (the player's pieces as negative
// counts, the computer's as positive), the pieces borne off are $80 (player, negative)
// and $8E (computer). Only when both sides' pieces add up to 15 (the computer uses the
// board as scratch space on its turn) is the game over: reward 1 when the player has
// borne off all 15, -1 when the computer has. As in ALE, the reward then stays set.
type backgammonReader struct{ scoreReader }

func (r *backgammonReader) Reset() { r.scoreReader = scoreReader{} }

func (r *backgammonReader) Step(m Memory) {
	ram := m.RAM()
	playerOut := -signedRAM(ram, 0x80)
	computerOut := signedRAM(ram, 0x8E)
	playerIn, computerIn := 0, 0
	for addr := 0x81; addr <= 0x9B; addr++ {
		if addr == 0x8E {
			continue
		}
		switch p := signedRAM(ram, addr); {
		case p > 0:
			computerIn += p
		case p < 0:
			playerIn -= p
		}
	}
	if computerIn+computerOut != 15 || playerIn+playerOut != 15 {
		return
	}
	switch {
	case playerOut == 15:
		r.terminal, r.reward = true, 1
	case computerOut == 15:
		r.terminal, r.reward = true, -1
	}
}

func (r *backgammonReader) Lives() int { return r.defaultLives() }
