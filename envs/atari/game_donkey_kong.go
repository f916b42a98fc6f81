package atari

// Donkey Kong, ALE's games/supported/DonkeyKong.cpp.
var donkeyKongGame = Game{
	Name:           "donkey_kong",
	MD5:            "36b20c427975760cb9cf4a47e41369e4",
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &donkeyKongReader{}; r.Reset(); return r },
}

// donkeyKongReader: the score is 100 times the BCD value of $88 (low) and $87 (high);
// lives in $A3; the game is over when none are left, $8F reads 3 and $8B reads $1F.
type donkeyKongReader struct{ scoreReader }

func (r *donkeyKongReader) Reset() { r.scoreReader = scoreReader{lives: 2} }

func (r *donkeyKongReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * decimalScore2(ram, 0x88, 0x87))
	r.lives = readRAM(ram, 0xA3)
	r.terminal = r.lives == 0 && readRAM(ram, 0x8F) == 0x03 && readRAM(ram, 0x8B) == 0x1F
}

func (r *donkeyKongReader) Lives() int { return r.livesOrZero() }
