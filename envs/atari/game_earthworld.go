package atari

// Earthworld, ALE's games/supported/Earthworld.cpp.
var earthworldGame = Game{
	Name:           "earthworld",
	MD5:            "5aea9974b975a6a844e6df10d2b861c4",
	MinimalActions: allActions,
	NewReader:      func() Reader { return &earthworldReader{} },
}

// earthworldReader: the score is the clue number, the BCD byte $A7; the game is over
// at the 10th clue. ALE keeps its default lives (1 while running).
type earthworldReader struct{ scoreReader }

func (r *earthworldReader) Reset() { r.scoreReader = scoreReader{} }

func (r *earthworldReader) Step(m Memory) {
	r.setScore(bcd(readRAM(m.RAM(), 0xA7)))
	r.terminal = r.score == 10
}

func (r *earthworldReader) Lives() int { return r.defaultLives() }
