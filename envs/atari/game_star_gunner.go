package atari

// Star Gunner, ALE's games/supported/StarGunner.cpp.
var starGunnerGame = Game{
	Name:           "star_gunner",
	MD5:            "a3c1c70024d7aabb41381adbfb6d3b25",
	Modes:          intRange(4, 0, 1),
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &starGunnerReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xF4, 15),
}

// starGunnerReader: the score is 100 times four digits in the low nibbles of $83..$86
// (lowest first, $A a blank 0); the game is over when the lives byte $87 reads 0. The
// game counts as started once $87 has read 5; until then ALE reports 5 lives (the byte
// starts at 6), then its low nibble.
type starGunnerReader struct {
	scoreReader
	started bool
}

func (r *starGunnerReader) Reset() {
	r.scoreReader = scoreReader{lives: 5}
	r.started = false
}

func (r *starGunnerReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(100 * lowNibbleDigits(ram, 0x83, 4))
	b := readRAM(ram, 0x87)
	r.terminal = b == 0
	r.started = r.started || b == 0x05
	if r.started {
		r.lives = b & 0xf
	} else {
		r.lives = 5
	}
}

func (r *starGunnerReader) Lives() int { return r.livesOrZero() }
