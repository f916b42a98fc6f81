package atari

// Fishing Derby, ALE's games/supported/FishingDerby.cpp.
var fishingDerbyGame = Game{
	Name:           "fishing_derby",
	MD5:            "b8865f05676e64f3bec72b9defdacfa7",
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &fishingDerbyReader{} },
}

// fishingDerbyReader: the player's catch is the BCD byte $BD, the opponent's $BE; the
// score is their difference, and the game is over when either byte reads $99. ALE
// reports no lives.
type fishingDerbyReader struct{ scoreReader }

func (r *fishingDerbyReader) Reset() { r.scoreReader = scoreReader{} }

func (r *fishingDerbyReader) Step(m Memory) {
	ram := m.RAM()
	mine, theirs := readRAM(ram, 0xBD), readRAM(ram, 0xBE)
	r.setScore(bcd(mine) - bcd(theirs))
	r.terminal = mine == 0x99 || theirs == 0x99
}

func (r *fishingDerbyReader) Lives() int { return 0 }
