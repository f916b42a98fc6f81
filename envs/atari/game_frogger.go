package atari

import "fmt"

// Frogger, ALE's games/supported/Frogger.cpp. Modes 0 to 2 are the cartridge's
// single-player games (odd game numbers 1, 3, 5 in $DD).
var froggerGame = Game{
	Name:           "frogger",
	MD5:            "081e2c114c9c20b61acf25fc95c71bf4",
	Modes:          []int{0, 1, 2},
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Up, Right, Left, Down},
	NewReader:      func() Reader { r := &froggerReader{}; r.Reset(); return r },
	setMode: func(a *ALE, mode int) error {
		want := 1 + 2*mode
		return selectUntil(a, 2, func() bool { return readRAM(a.m.RAM(), 0xDD) == want },
			fmt.Sprintf("game %d (RAM $DD)", want))
	},
}

// froggerReader: BCD score in $CE (low) and $CC (high); lives in $D0, and the game is
// over when they read $FF.
type froggerReader struct{ scoreReader }

func (r *froggerReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *froggerReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore2(ram, 0xCE, 0xCC))
	r.lives = readRAM(ram, 0xD0)
	r.terminal = r.lives == 0xFF
}

func (r *froggerReader) Lives() int { return r.livesOrZero() }
