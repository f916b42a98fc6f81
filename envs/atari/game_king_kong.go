package atari

import "fmt"

// King Kong, ALE's games/supported/Kingkong.cpp. Modes 0 to 3 are the cartridge's
// single-player games (even values 0, 2, 4, 6 of $EC).
var kingKongGame = Game{
	Name:           "king_kong",
	MD5:            "0dd4c69b5f9a7ae96a7a08329496779a",
	Modes:          intRange(4, 0, 1),
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down},
	NewReader:      func() Reader { r := &kingKongReader{}; r.Reset(); return r },
	setMode: func(a *ALE, mode int) error {
		return selectUntil(a, 2, func() bool { return readRAM(a.m.RAM(), 0xEC) == 2*mode },
			fmt.Sprintf("game %d (RAM $EC)", 2*mode))
	},
}

// kingKongReader: BCD score in $83 (low) and $82 (high); lives in $EE, and the game is
// over when they reach 0.
type kingKongReader struct{ scoreReader }

func (r *kingKongReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *kingKongReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore2(ram, 0x83, 0x82))
	r.lives = readRAM(ram, 0xEE)
	r.terminal = r.lives == 0
}

func (r *kingKongReader) Lives() int { return r.livesOrZero() }
