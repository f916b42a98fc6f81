package atari

// Ms. Pac-Man, ALE's games/supported/MsPacman.cpp. Stella's properties turn HMOVE
// blanks off for this ROM.
var msPacmanGame = Game{
	Name:           "ms_pacman",
	MD5:            "87e79cd41ce136fd4f72cc6e2c161bee",
	Props:          Properties{NoHmoveBlanks: true},
	Modes:          intRange(4, 0, 1),
	MinimalActions: []Action{Noop, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft},
	NewReader:      func() Reader { r := &msPacmanReader{}; r.Reset(); return r },
	setMode:        msPacmanSetMode,
}

// msPacmanSetMode holds SELECT 10 frames at a time until the mode byte ($99) and the
// variation byte ($A1) select the mode: the standard game (mode 0) is mode byte 1 with
// variation 1, any other mode m is mode byte m with variation 0.
func msPacmanSetMode(a *ALE, mode int) error {
	wantMode, wantVar := mode, 0
	if mode == 0 {
		wantMode, wantVar = 1, 1
	}
	return selectUntil(a, 10, func() bool {
		ram := a.m.RAM()
		return readRAM(ram, 0x99) == wantMode && readRAM(ram, 0xA1) == wantVar
	}, "the mode's RAM $99/$A1 values")
}

// msPacmanReader: six-digit BCD score in $F8, $F9, $FA; the low nibble of $FB counts
// spare lives; the game is over when none are left and the death timer $A7 reads $53.
type msPacmanReader struct{ scoreReader }

func (r *msPacmanReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *msPacmanReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xF8, 0xF9, 0xFA))
	livesByte := readRAM(ram, 0xFB) & 0xf
	deathTimer := readRAM(ram, 0xA7)
	r.terminal = livesByte == 0 && deathTimer == 0x53
	r.lives = livesByte&0x7 + 1
}

func (r *msPacmanReader) Lives() int { return r.livesOrZero() }
