package atari

// Battle Zone, ALE's games/supported/BattleZone.cpp. Stella's properties turn HMOVE
// blanks off for this ROM. Its modes are 1 to 3.
var battleZoneGame = Game{
	Name:           "battle_zone",
	MD5:            "41f252a66c6301f1e8ab3612c19bc5d4",
	Props:          Properties{NoHmoveBlanks: true},
	Modes:          intRange(3, 1, 1),
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &battleZoneReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xA1, 2),
}

// battleZoneReader: the score is 1000 times three digits: the high nibble of $9D
// (ones), the low and high nibbles of $9E (tens, hundreds), where a digit of $A is a
// blank 0; lives are the low nibble of $BA and the game is over when they reach 0.
type battleZoneReader struct{ scoreReader }

func (r *battleZoneReader) Reset() { r.scoreReader = scoreReader{lives: 5} }

func (r *battleZoneReader) Step(m Memory) {
	ram := m.RAM()
	first, second := readRAM(ram, 0x9D), readRAM(ram, 0x9E)
	score := blankDigit(first>>4) + 10*blankDigit(second&0xf) + 100*blankDigit(second>>4)
	r.setScore(1000 * score)
	r.lives = readRAM(ram, 0xBA) & 0xf
	r.terminal = r.lives == 0
}

func (r *battleZoneReader) Lives() int { return r.livesOrZero() }
