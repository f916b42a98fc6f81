package atari

// Montezuma's Revenge, ALE's games/supported/MontezumaRevenge.cpp (an E0 cartridge).
var montezumaRevengeGame = Game{
	Name:           "montezuma_revenge",
	MD5:            "3347a6dd59049b15a38394aa2dafa585",
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &montezumaRevengeReader{}; r.Reset(); return r },
}

// montezumaRevengeReader: six-digit BCD score in $95, $94, $93; spare lives in $BA;
// the game is over when none are left and $FE reads $60.
type montezumaRevengeReader struct{ scoreReader }

func (r *montezumaRevengeReader) Reset() { r.scoreReader = scoreReader{lives: 6} }

func (r *montezumaRevengeReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x95, 0x94, 0x93))
	lives := readRAM(ram, 0xBA)
	r.terminal = lives == 0 && readRAM(ram, 0xFE) == 0x60
	r.lives = lives&0x7 + 1
}

func (r *montezumaRevengeReader) Lives() int { return r.livesOrZero() }
