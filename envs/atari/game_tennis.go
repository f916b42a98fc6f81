package atari

// Tennis, ALE's games/supported/Tennis.cpp. Its single-player modes are 0 and 2.
var tennisGame = Game{
	Name:           "tennis",
	MD5:            "42cdd6a9e42a3639e190722b8ea3fc51",
	Modes:          []int{0, 2},
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &tennisReader{} },
	setMode:        selectRAMMode(0x80, 2),
}

// tennisReader: the points of the current game are $C5 (player) and $C6 (opponent),
// the games won $C7 and $C8 (binary). The reward is the change of the games
// difference if it changed this frame, else the change of the points difference, else
// 0. The set is over when a player has 6 or more games and leads by 2, or either has
// 7. ALE reports no lives.
type tennisReader struct {
	scoreReader
	prevGames, prevPoints int // the last differences of $C7-$C8 and $C5-$C6
}

func (r *tennisReader) Reset() { *r = tennisReader{} }

func (r *tennisReader) Step(m Memory) {
	ram := m.RAM()
	dPoints := readRAM(ram, 0xC5) - readRAM(ram, 0xC6)
	myGames, theirGames := readRAM(ram, 0xC7), readRAM(ram, 0xC8)
	dGames := myGames - theirGames
	switch {
	case dGames != r.prevGames:
		r.reward = dGames - r.prevGames
	case dPoints != r.prevPoints:
		r.reward = dPoints - r.prevPoints
	default:
		r.reward = 0
	}
	r.prevGames, r.prevPoints = dGames, dPoints
	r.terminal = myGames >= 6 && dGames >= 2 || theirGames >= 6 && -dGames >= 2 ||
		myGames == 7 || theirGames == 7
}

func (r *tennisReader) Lives() int { return 0 }
