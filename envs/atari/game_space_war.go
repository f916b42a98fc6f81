package atari

import "fmt"

// Space War, ALE's games/supported/SpaceWar.cpp. ALE offers games 6 to 17 (in games 1
// to 5 the player runs out of missiles before scoring 10 without a second player).
var spaceWarGame = Game{
	Name:           "space_war",
	MD5:            "b702641d698c60bcdc922dbd8c9dd49c",
	Modes:          intRange(12, 6, 1),
	MinimalActions: allActions,
	NewReader:      func() Reader { return &spaceWarReader{} },
	setMode: func(a *ALE, mode int) error {
		// On the selection screen the score byte $A7 shows the game number (BCD).
		return selectUntil(a, 2, func() bool { return bcd(readRAM(a.m.RAM(), 0xA7)) == mode },
			fmt.Sprintf("game %d (BCD RAM $A7)", mode))
	},
}

// spaceWarReader: the score is the BCD byte $A7; the game is over at 10 points or when
// the 10-minute timer $80 (counting up from $74 every 256 frames) wraps to 0. ALE keeps
// its default lives.
type spaceWarReader struct{ scoreReader }

func (r *spaceWarReader) Reset() { r.scoreReader = scoreReader{} }

func (r *spaceWarReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(bcd(readRAM(ram, 0xA7)))
	r.terminal = r.score == 10 || readRAM(ram, 0x80) == 0
}

func (r *spaceWarReader) Lives() int { return r.defaultLives() }
