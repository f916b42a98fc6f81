package atari

// Alien, ALE's games/supported/Alien.cpp.
var alienGame = Game{
	Name:           "alien",
	MD5:            "f1a0a23e6464d954e3a9579c4ccd01c8",
	Modes:          intRange(4, 0, 1),
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &alienReader{}; r.Reset(); return r },
	// ALE also copies the lives byte into its reader just before the final soft
	// reset; the soft reset's frames overwrite it, so it is not repeated here.
	setMode: selectRAMMode(0x81, 1),
}

// alienReader: the score is ten times five digits kept one per byte in $8B, $89, $87,
// $85, $83 (lowest first; each byte is the digit times 8, $80 a blank); the lives are
// the low nibble of $C0 and the game is over when they reach 0. ALE reports the lives
// without zeroing them at the end.
type alienReader struct{ scoreReader }

func (r *alienReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *alienReader) Step(m Memory) {
	ram := m.RAM()
	score, mult := 0, 1
	for _, addr := range []int{0x8B, 0x89, 0x87, 0x85, 0x83} {
		score += mult * alienDigit(readRAM(ram, addr))
		mult *= 10
	}
	r.setScore(10 * score)
	r.lives = readRAM(ram, 0xC0) & 0xf
	r.terminal = r.lives <= 0
}

func (r *alienReader) Lives() int { return r.lives }

// alienDigit decodes one of Alien's score bytes: $80 is a blank (0), anything else is
// the digit shifted left 3.
func alienDigit(v int) int {
	if v == 0x80 {
		return 0
	}
	return v >> 3
}
