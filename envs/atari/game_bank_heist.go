package atari

// Bank Heist, ALE's games/supported/BankHeist.cpp. Its modes are 0, 4, ..., 28.
var bankHeistGame = Game{
	Name:           "bank_heist",
	MD5:            "00ce0bdd43aed84a983bef38fe7f5ee3",
	Modes:          intRange(8, 0, 4),
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &bankHeistReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0x80, 1),
}

// bankHeistReader: six-digit BCD score in $DA (low), $D9, $D8 (high); lives in $D5;
// the game is over when no lives are left and the death timer $CE reads 1.
type bankHeistReader struct{ scoreReader }

func (r *bankHeistReader) Reset() { r.scoreReader = scoreReader{lives: 5} }

func (r *bankHeistReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xDA, 0xD9, 0xD8))
	r.lives = readRAM(ram, 0xD5)
	r.terminal = readRAM(ram, 0xCE) == 0x01 && r.lives == 0
}

func (r *bankHeistReader) Lives() int { return r.livesOrZero() }
