package atari

// Othello, ALE's games/supported/Othello.cpp. Modes 0 to 2 are the one-player skill
// levels (the cartridge's games 1 to 3).
var othelloGame = Game{
	Name:           "othello",
	MD5:            "113cd09c9771ac278544b7e90efe7df2",
	Modes:          []int{0, 1, 2},
	Difficulties:   []int{0, 2},
	MinimalActions: []Action{Noop, Fire, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft},
	NewReader:      func() Reader { return &othelloReader{} },
	setMode:        selectRAMModePlusOne(0xDE, 2),
}

// othelloNoInputFrames is how many consecutive frames the turn indicator must read 0
// (no player to move) before ALE calls the game over.
const othelloNoInputFrames = 50

// othelloReader: the score is white's discs (BCD $CE) minus black's (BCD $D0). The turn
// indicator $C0 is $FF on white's turn, 1 on black's and 0 when nobody may move (also,
// briefly, at other times); the game is over once it has read 0 for more than 50
// frames in a row. ALE keeps its default lives.
type othelloReader struct {
	scoreReader
	noInput int
}

func (r *othelloReader) Reset() { *r = othelloReader{} }

func (r *othelloReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(bcd(readRAM(ram, 0xCE)) - bcd(readRAM(ram, 0xD0)))
	if readRAM(ram, 0xC0) == 0 {
		r.noInput++
	} else {
		r.noInput = 0
	}
	r.terminal = r.noInput > othelloNoInputFrames
}

func (r *othelloReader) Lives() int { return r.defaultLives() }
