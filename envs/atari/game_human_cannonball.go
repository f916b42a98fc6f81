package atari

import "fmt"

// Human Cannonball, ALE's games/supported/HumanCannonball.cpp. Modes 0 to 7 are the
// cartridge's one-player games 1 to 8.
var humanCannonballGame = Game{
	Name:           "human_cannonball",
	MD5:            "7972e5101fa548b952d852db24ad6060",
	Modes:          intRange(8, 0, 1),
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &humanCannonballReader{} },
	setMode: func(a *ALE, mode int) error {
		// On the selection screen $B6 is the game number (mode + 1, as a byte) and $B7
		// the number of players.
		return selectUntil(a, 2, func() bool {
			ram := a.m.RAM()
			return (readRAM(ram, 0xB6)-1)&0xff == mode && readRAM(ram, 0xB7) == 1
		}, fmt.Sprintf("one-player game %d (RAM $B6/$B7)", mode+1))
	},
}

// humanCannonballReader: the score is the BCD byte $B6 (hits), the misses the BCD byte
// $B7; the game is over at 7 of either. ALE keeps its default lives.
type humanCannonballReader struct{ scoreReader }

func (r *humanCannonballReader) Reset() { r.scoreReader = scoreReader{} }

func (r *humanCannonballReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(bcd(readRAM(ram, 0xB6)))
	r.terminal = r.score == 7 || bcd(readRAM(ram, 0xB7)) == 7
}

func (r *humanCannonballReader) Lives() int { return r.defaultLives() }
