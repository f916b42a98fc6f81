package atari

// Video Pinball, ALE's games/supported/VideoPinball.cpp. Its modes are 0 and 2.
var videoPinballGame = Game{
	Name:           "video_pinball",
	MD5:            "107cc025334211e6d29da0b6be46aec7",
	Modes:          []int{0, 2},
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpFire, RightFire, LeftFire},
	NewReader:      func() Reader { r := &videoPinballReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xC1, 2),
}

// videoPinballReader: six-digit BCD score in $B0 (low), $B2, $B4 (high); the game is
// over when bit 0 of $AF is set; the lives are 4 plus the extra-ball bit (bit 0 of $A8)
// minus the ball number (low 3 bits of $99).
type videoPinballReader struct{ scoreReader }

func (r *videoPinballReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *videoPinballReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xB0, 0xB2, 0xB4))
	r.terminal = readRAM(ram, 0xAF)&0x1 != 0
	r.lives = 4 + readRAM(ram, 0xA8)&0x1 - readRAM(ram, 0x99)&0x7
}

func (r *videoPinballReader) Lives() int { return r.livesOrZero() }
