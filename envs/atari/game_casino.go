package atari

// Casino, ALE's games/supported/Casino.cpp. A paddle game (left port). Modes: 0
// (Blackjack), 2 (Stud Poker), 3 (Poker Solitaire); the cartridge's game 2, Blackjack
// for more players, is left out. Every reset ends with 60 NOOP frames (the cards are
// shuffled) and two FIRE frames (player A joins the game).
var casinoGame = Game{
	Name:            "casino",
	MD5:             "b816296311019ab69a21cb9e9e235d12",
	Props:           Properties{LeftPaddles: true},
	Modes:           []int{0, 2, 3},
	Difficulties:    []int{0, 1, 2, 3},
	MinimalActions:  []Action{Noop, Fire, Up, Down},
	StartingActions: append(repeatAction(Noop, 60), Fire, Fire),
	NewReader:       func() Reader { return &casinoReader{} },
	setMode:         selectRAMMode(0xD4, 2),
}

// casinoReader: the chips are BCD in $95 (low) and $8C (high). In Poker Solitaire
// ($D4 = 3) the game is over once a positive score has been awarded ($9E reads $AA).
// In the other games the reward is only updated while the player has control (bit 7
// of $D3 clear), because the game hands back 1000 chips as it ends; otherwise ALE
// keeps the previous frame's reward. The game is over at 0 chips, or when a bet ($9E,
// BCD) is on the table and input is disabled.
type casinoReader struct{ scoreReader }

func (r *casinoReader) Reset() { r.scoreReader = scoreReader{} }

func (r *casinoReader) Step(m Memory) {
	ram := m.RAM()
	score := decimalScore2(ram, 0x95, 0x8C)
	if readRAM(ram, 0xD4) == 3 {
		r.reward = score - r.score
		r.terminal = score > 0 && readRAM(ram, 0x9E) == 0xAA
	} else {
		inputDisabled := readRAM(ram, 0xD3)&0x80 != 0
		if !inputDisabled {
			r.reward = score - r.score
		}
		r.terminal = score == 0 || bcd(readRAM(ram, 0x9E)) > 0 && inputDisabled
	}
	r.score = score
}

func (r *casinoReader) Lives() int { return r.defaultLives() }
