package atari

// Wizard of Wor, ALE's games/supported/WizardOfWor.cpp. Stella's properties swap the
// controller ports for this ROM.
var wizardOfWorGame = Game{
	Name:           "wizard_of_wor",
	MD5:            "7e8aa18bc9502eb57daaf5e7c1e94da7",
	Props:          Properties{SwapPorts: true},
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpFire, RightFire, LeftFire, DownFire},
	NewReader:      func() Reader { r := &wizardOfWorReader{}; r.Reset(); return r },
}

// wizardOfWorReader: the score is 100 times the BCD value of $86 (low) and $88 (high),
// less 8000 when that value is 8000 or more (the display stops at 999); the lives are
// the low nibble of $8D, taken only while the player waits to enter ($D7 bit 0 clear:
// the game decrements them on entering the field); the game is over when that nibble
// is 0 and $F4 reads $F8.
type wizardOfWorReader struct{ scoreReader }

func (r *wizardOfWorReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *wizardOfWorReader) Step(m Memory) {
	ram := m.RAM()
	score := decimalScore2(ram, 0x86, 0x88)
	if score >= 8000 {
		score -= 8000
	}
	r.setScore(100 * score)
	lives := readRAM(ram, 0x8D) & 0xf
	r.terminal = lives == 0 && readRAM(ram, 0xF4) == 0xF8
	if readRAM(ram, 0xD7)&0x1 == 0 {
		r.lives = lives
	}
}

func (r *wizardOfWorReader) Lives() int { return r.livesOrZero() }
