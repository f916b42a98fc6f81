package atari

// Seaquest, ALE's games/supported/Seaquest.cpp.
var seaquestGame = Game{
	Name:           "seaquest",
	MD5:            "240bfbac5163af4df5ae713985386f92",
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &seaquestReader{}; r.Reset(); return r },
}

// seaquestReader: six-digit BCD score in $BA (low), $B9, $B8 (high); the game is over
// when $A3 is not 0; the lives are $BB plus 1.
type seaquestReader struct{ scoreReader }

func (r *seaquestReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *seaquestReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xBA, 0xB9, 0xB8))
	r.terminal = readRAM(ram, 0xA3) != 0
	r.lives = readRAM(ram, 0xBB) + 1
}

func (r *seaquestReader) Lives() int { return r.livesOrZero() }
