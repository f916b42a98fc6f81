package atari

// Centipede, ALE's games/supported/Centipede.cpp. Its modes are $16 and $56.
var centipedeGame = Game{
	Name:           "centipede",
	MD5:            "91c2098e88a6b13f977af8c003e0bca5",
	Modes:          []int{0x16, 0x56},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &centipedeReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xA7, 2),
}

// centipedeReader: six-digit BCD score in RAM 118 (low), 117, 116 (high); a negative
// reward is taken as 0 (the score is sometimes cleared before the game ends); the lives
// are bits 4-6 of $ED plus 1; the game is over when bit 6 of $A6 is set.
type centipedeReader struct{ scoreReader }

func (r *centipedeReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *centipedeReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 118, 117, 116))
	r.reward = max(r.reward, 0)
	r.lives = readRAM(ram, 0xED)>>4&0x7 + 1
	r.terminal = readRAM(ram, 0xA6)&0x40 != 0
}

func (r *centipedeReader) Lives() int { return r.livesOrZero() }
