package atari

// Pitfall!, ALE's games/supported/Pitfall.cpp. Every reset ends with one UP frame.
// (A later, unreleased ALE change adds a 20-minute-timer game over as mode 0; ALE
// 0.12.1, which rlpool follows, has no modes for Pitfall!.)
var pitfallGame = Game{
	Name:            "pitfall",
	MD5:             "3e90cf23106f2e08b2781e41299de556",
	MinimalActions:  allActions,
	StartingActions: []Action{Up},
	NewReader:       func() Reader { r := &pitfallReader{}; r.Reset(); return r },
}

// pitfallStartScore is the score Pitfall! starts with.
const pitfallStartScore = 2000

// pitfallReader: six-digit BCD score in $D7 (low), $D6, $D5 (high), starting at 2000;
// the high nibble of $80 encodes the lives ($A: 3, $8: 2, anything else 1); the game
// is over when it is 0 while the Activision logo scrolls ($9E non-zero: the player has
// no control).
type pitfallReader struct{ scoreReader }

func (r *pitfallReader) Reset() { r.scoreReader = scoreReader{score: pitfallStartScore, lives: 3} }

func (r *pitfallReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xD7, 0xD6, 0xD5))
	b := readRAM(ram, 0x80) >> 4
	r.terminal = b == 0 && readRAM(ram, 0x9E) != 0
	switch b {
	case 0xA:
		r.lives = 3
	case 0x8:
		r.lives = 2
	default:
		r.lives = 1
	}
}

func (r *pitfallReader) Lives() int { return r.livesOrZero() }
