package atari

import "fmt"

// Surround, ALE's games/supported/Surround.cpp (from Xitari). Stella's properties swap
// the controller ports for this ROM. Its single-player modes are 2 and 4 (the
// cartridge's mode byte $F9 holds one less).
var surroundGame = Game{
	Name:           "surround",
	MD5:            "4d7517ae69f95cfbc053be01312b7dba",
	Props:          Properties{SwapPorts: true},
	Modes:          []int{2, 4},
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: []Action{Noop, Up, Right, Left, Down},
	NewReader:      func() Reader { return &surroundReader{} },
	setMode: func(a *ALE, mode int) error {
		return selectUntil(a, 2, func() bool { return readRAM(a.m.RAM(), 0xF9) == mode-1 },
			fmt.Sprintf("mode %d (RAM $F9 = %d)", mode, mode-1))
	},
}

// surroundReader: the opponent's score is the BCD byte $F6, the player's $F7; the score
// is their difference and the game is over when either reaches 10. ALE keeps its
// default lives.
type surroundReader struct{ scoreReader }

func (r *surroundReader) Reset() { r.scoreReader = scoreReader{} }

func (r *surroundReader) Step(m Memory) {
	ram := m.RAM()
	theirs, mine := bcd(readRAM(ram, 0xF6)), bcd(readRAM(ram, 0xF7))
	r.setScore(mine - theirs)
	r.terminal = theirs == 10 || mine == 10
}

func (r *surroundReader) Lives() int { return r.defaultLives() }
