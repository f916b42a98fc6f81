package atari

import "math/bits"

// Gopher, ALE's games/supported/Gopher.cpp. Its modes are 0 and 2; every reset ends
// with one FIRE frame.
var gopherGame = Game{
	Name:            "gopher",
	MD5:             "c16c79aad6272baffb8aae9a7fff0864",
	Modes:           []int{0, 2},
	Difficulties:    []int{0, 1},
	MinimalActions:  []Action{Noop, Fire, Up, Right, Left, UpFire, RightFire, LeftFire},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { r := &gopherReader{}; r.Reset(); return r },
	setMode:         gopherSetMode,
}

// gopherSetMode soft-resets first, then presses SELECT 5 frames at a time until $D3
// holds the mode, then soft-resets again, as ALE does.
func gopherSetMode(a *ALE, mode int) error {
	if err := a.softReset(); err != nil {
		return err
	}
	return selectRAMMode(0xD3, 5)(a, mode)
}

// gopherReader: six-digit BCD score in $B2 (low), $B1, $B0 (high); the carrots left are
// the bits of $B4 & 7 and the lives are their count; the game is over when none are
// left.
type gopherReader struct{ scoreReader }

func (r *gopherReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *gopherReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xB2, 0xB1, 0xB0))
	carrots := readRAM(ram, 0xB4) & 0x7
	r.terminal = carrots == 0
	r.lives = bits.OnesCount(uint(carrots))
}

func (r *gopherReader) Lives() int { return r.livesOrZero() }
