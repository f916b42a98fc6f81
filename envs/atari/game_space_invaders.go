package atari

// Space Invaders, ALE's games/supported/SpaceInvaders.cpp.
var spaceInvadersGame = Game{
	Name:           "space_invaders",
	MD5:            "72ffbef6504b75e69ee1045af9075f66",
	Modes:          intRange(16, 0, 1),
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Right, Left, RightFire, LeftFire},
	NewReader:      func() Reader { r := &spaceInvadersReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xDC, 2),
}

// spaceInvadersMaxScore is where the four-digit score wraps; ALE adds the wrap back so
// the reward of the wrapping frame stays positive.
const spaceInvadersMaxScore = 10000

// spaceInvadersReader: BCD score in $E8 (low) and $E6 (high), lives in $C9; the game is
// over when bit 7 of $98 is set or no lives are left.
type spaceInvadersReader struct{ scoreReader }

func (r *spaceInvadersReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *spaceInvadersReader) Step(m Memory) {
	ram := m.RAM()
	score := decimalScore2(ram, 0xE8, 0xE6)
	r.reward = score - r.score
	if r.reward < 0 {
		r.reward = spaceInvadersMaxScore - r.score + score
	}
	r.score = score
	r.lives = readRAM(ram, 0xC9)
	r.terminal = readRAM(ram, 0x98)&0x80 != 0 || r.lives == 0
}

func (r *spaceInvadersReader) Lives() int { return r.livesOrZero() }
