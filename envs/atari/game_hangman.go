package atari

// Hangman, ALE's games/supported/Hangman.cpp. Modes 0 to 3 are the cartridge's
// single-player games 1 to 4 (vocabulary by school grade).
var hangmanGame = Game{
	Name:           "hangman",
	MD5:            "f16c709df0a6c52f47ff52b9d95b7d8d",
	Modes:          intRange(4, 0, 1),
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &hangmanReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xEE, 2),
}

// hangmanReader: the guesser's score is the BCD byte $EB, the setter's $EC; the reward
// is the change of the guesser's minus the change of the setter's (+1 for a word
// guessed, -1 for a word lost), and any non-zero reward ends the game (ALE cannot make
// the cartridge pick a new word). The game also ends when the game timer $F1 wraps
// from $FF to 0 between two frames. ALE keeps its default lives.
type hangmanReader struct {
	scoreReader
	player, computer int
	timer            [2]int // the last two values of $F1, newest first; -1 before any
}

func (r *hangmanReader) Reset() {
	*r = hangmanReader{timer: [2]int{-1, -1}}
}

func (r *hangmanReader) Step(m Memory) {
	ram := m.RAM()
	computer, player := bcd(readRAM(ram, 0xEC)), bcd(readRAM(ram, 0xEB))
	r.reward = (player - r.player) - (computer - r.computer)
	r.computer, r.player = computer, player
	r.timer[1], r.timer[0] = r.timer[0], readRAM(ram, 0xF1)
	timedOut := r.timer[0] == 0 && r.timer[1] == 255
	r.terminal = r.reward != 0 || timedOut
}

func (r *hangmanReader) Lives() int { return r.defaultLives() }
