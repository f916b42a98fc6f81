package atari

import "fmt"

// Pac-Man, ALE's games/supported/Pacman.cpp (from Xitari). Modes 0 to 7 are the
// cartridge's one-player games 1 to 8.
var pacmanGame = Game{
	Name:           "pacman",
	MD5:            "fc2233fc116faef0d3c31541717ca2db",
	Modes:          intRange(8, 0, 1),
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Up, Right, Left, Down},
	NewReader:      func() Reader { r := &pacmanReader{}; r.Reset(); return r },
	setMode: func(a *ALE, mode int) error {
		// On the selection screen $CC is the game number (mode + 1, as a byte) and $E6
		// is 0 for one player.
		return selectUntil(a, 2, func() bool {
			ram := a.m.RAM()
			return (readRAM(ram, 0xCC)-1)&0xff == mode && readRAM(ram, 0xE6) == 0
		}, fmt.Sprintf("one-player game %d (RAM $CC/$E6)", mode+1))
	},
}

// pacmanReader: six-digit BCD score in $CC (low), $CE, $D0 (high); the lives are $98
// plus 1; the game is over on the last life when the animation counter $E4 reads $3F.
type pacmanReader struct{ scoreReader }

func (r *pacmanReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *pacmanReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xCC, 0xCE, 0xD0))
	r.lives = readRAM(ram, 0x98) + 1
	r.terminal = r.lives == 1 && readRAM(ram, 0xE4) == 0x3F
}

func (r *pacmanReader) Lives() int { return r.livesOrZero() }
