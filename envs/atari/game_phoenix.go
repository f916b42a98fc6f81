package atari

// Phoenix, ALE's games/supported/Phoenix.cpp.
var phoenixGame = Game{
	Name:           "phoenix",
	MD5:            "7e52a95074a66640fcfde124fffd491a",
	MinimalActions: []Action{Noop, Fire, Right, Left, Down, RightFire, LeftFire, DownFire},
	NewReader:      func() Reader { r := &phoenixReader{}; r.Reset(); return r },
}

// phoenixReader: the score is ten times five digits: the BCD value of $C8 (low) and
// $C9 (high) times 10, plus the high nibble of $C7; the game is over when $CC reads
// $80; the lives are the low 3 bits of $CB.
type phoenixReader struct{ scoreReader }

func (r *phoenixReader) Reset() { r.scoreReader = scoreReader{lives: 5} }

func (r *phoenixReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(10 * (10*decimalScore2(ram, 0xC8, 0xC9) + readRAM(ram, 0xC7)>>4))
	r.terminal = readRAM(ram, 0xCC) == 0x80
	r.lives = readRAM(ram, 0xCB) & 0x7
}

func (r *phoenixReader) Lives() int { return r.livesOrZero() }
