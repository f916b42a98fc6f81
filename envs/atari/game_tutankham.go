package atari

// Tutankham, ALE's games/supported/Tutankham.cpp (an E0 cartridge). Its modes are 0,
// 4, 8 and 12.
var tutankhamGame = Game{
	Name:           "tutankham",
	MD5:            "085322bae40d904f53bdcc56df0593fc",
	Modes:          []int{0, 4, 8, 12},
	MinimalActions: []Action{Noop, Up, Right, Left, Down, UpFire, RightFire, LeftFire},
	NewReader:      func() Reader { r := &tutankhamReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xAB, 2),
}

// tutankhamReader: BCD score in $9C (low) and $9A (high); the lives are the low 2 bits
// of $9E; the game is over when $9E reads 0 and $81 is not $84 (its value after power
// on, before the first game).
type tutankhamReader struct{ scoreReader }

func (r *tutankhamReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *tutankhamReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore2(ram, 0x9C, 0x9A))
	b := readRAM(ram, 0x9E)
	r.terminal = b == 0 && readRAM(ram, 0x81) != 0x84
	r.lives = b & 0x3
}

func (r *tutankhamReader) Lives() int { return r.livesOrZero() }
