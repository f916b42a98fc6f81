package atari

// Chopper Command, ALE's games/supported/ChopperCommand.cpp. Its modes are 0 and 2.
var chopperCommandGame = Game{
	Name:           "chopper_command",
	MD5:            "c1cb228470a87beb5f36e90ac745da26",
	Modes:          []int{0, 2},
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &chopperCommandReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xE0, 2),
}

// chopperCommandReader: the score is 100 times the BCD value of $EE (low) and $EC
// (high); lives are the low nibble of $E4. The game counts as started once bit 0 of
// $C2 has been set (the chopper faces right when play begins; it faces left on the
// mode screen), and is over when, started, no lives are left. ALE reports the lives
// without zeroing them at the end.
type chopperCommandReader struct {
	scoreReader
	started bool
}

func (r *chopperCommandReader) Reset() {
	r.scoreReader = scoreReader{lives: 3}
	r.started = false
}

func (r *chopperCommandReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * decimalScore2(ram, 0xEE, 0xEC))
	r.lives = readRAM(ram, 0xE4) & 0xf
	r.started = r.started || readRAM(ram, 0xC2)&1 != 0
	r.terminal = r.started && r.lives == 0
}

func (r *chopperCommandReader) Lives() int { return r.lives }
