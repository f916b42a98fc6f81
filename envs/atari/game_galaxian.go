package atari

// Galaxian, ALE's games/supported/Galaxian.cpp. Its modes are 1 to 9.
var galaxianGame = Game{
	Name:           "galaxian",
	MD5:            "211774f4c5739042618be8ff67351177",
	Modes:          intRange(9, 1, 1),
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Right, Left, RightFire, LeftFire},
	NewReader:      func() Reader { r := &galaxianReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xB3, 1),
}

// galaxianMaxScore is where Galaxian's score wraps; ALE adds it to a negative reward.
const galaxianMaxScore = 1000000

// galaxianReader: six-digit BCD score in $AE (low), $AD, $AC (high), wrapping at
// 1000000; the game is over when bit 7 of $BF is set, and the lives are then 0,
// otherwise $B9 plus 1.
type galaxianReader struct{ scoreReader }

func (r *galaxianReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *galaxianReader) Step(m Memory) {
	ram := m.RAM()
	r.setWrappedScore(decimalScore3(ram, 0xAE, 0xAD, 0xAC), galaxianMaxScore)
	r.terminal = readRAM(ram, 0xBF)&0x80 != 0
	if r.terminal {
		r.lives = 0
	} else {
		r.lives = readRAM(ram, 0xB9) + 1
	}
}

func (r *galaxianReader) Lives() int { return r.livesOrZero() }
