package atari

// Robotank, ALE's games/supported/RoboTank.cpp (an FE cartridge).
var robotankGame = Game{
	Name:           "robotank",
	MD5:            "4f618c2429138e0280969193ed6c107e",
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &robotankReader{}; r.Reset(); return r },
}

// robotankReader: the score is 12 per destroyed squadron ($B6) plus destroyed tanks
// ($B5); spare lives are the low nibble of $A8; the game is over when none are left
// and $B4 reads $FF.
type robotankReader struct{ scoreReader }

func (r *robotankReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *robotankReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(readRAM(ram, 0xB6)*12 + readRAM(ram, 0xB5))
	lives := readRAM(ram, 0xA8)
	r.terminal = lives == 0 && readRAM(ram, 0xB4) == 0xFF
	r.lives = lives&0xf + 1
}

func (r *robotankReader) Lives() int { return r.livesOrZero() }
