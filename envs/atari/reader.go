package atari

// Memory is what a game reader may look at after a frame: the 128 bytes of RIOT RAM
// and, for the few games that keep state elsewhere (Klax's score lives in its
// cartridge's extra RAM), a read of any address of the 2600's memory map, as ALE's
// readMappedRam does. *vcs.Console provides both; tests use a plain RAM image.
type Memory interface {
	RAM() *[128]byte
	Peek(addr uint16) uint8
}

// Reader is one game's RL bookkeeping, the Go form of an ALE RomSettings subclass:
// it turns the RAM after each emulated frame into a reward, a game-over flag and a
// life count. The ALE calls Step after every frame it emulates (including the frames
// of a reset, as ALE does), so Reward is the change over the last frame.
type Reader interface {
	// Reset clears the score, lives and terminal bookkeeping; it does not emulate.
	Reset()
	// Step reads the RAM after a frame and updates reward, terminal and lives.
	Step(m Memory)
	// Reward is the score change seen by the last Step.
	Reward() int
	// Terminal reports whether the game is over.
	Terminal() bool
	// Lives is ALE's lives() for the game (0 for games without lives).
	Lives() int
}

// readRAM reads RAM the way ALE's readRam does: ALE addresses RAM by offset from 0x80
// and masks it, so game files written with either $80-based addresses (0xE8) or plain
// indices (13) read the right byte. Keeping ALE's numbers makes the readers easy to
// check against ALE's sources.
func readRAM(ram *[128]byte, offset int) int {
	return int(ram[offset&0x7f])
}

// bcd returns the two-digit decimal value of a BCD byte, computed as ALE does
// (10*high nibble + low nibble, without validating the digits).
func bcd(v int) int {
	return 10*(v>>4) + v&0xf
}

// decimalScore2 is ALE's two-byte getDecimalScore(lower, higher): four BCD digits.
func decimalScore2(ram *[128]byte, lower, higher int) int {
	return bcd(readRAM(ram, lower)) + 100*bcd(readRAM(ram, higher))
}

// decimalScore3 is ALE's three-byte getDecimalScore(lower, middle, higher): six BCD
// digits.
func decimalScore3(ram *[128]byte, lower, middle, higher int) int {
	return decimalScore2(ram, lower, middle) + 10000*bcd(readRAM(ram, higher))
}

// scoreReader holds the fields nearly every ALE reader has, with ALE's meaning:
// the last reward, the last score, the terminal flag and the life count.
type scoreReader struct {
	reward   int
	score    int
	terminal bool
	lives    int
}

// Reward returns the score change of the last frame.
func (r *scoreReader) Reward() int { return r.reward }

// Terminal reports the game-over flag of the last frame.
func (r *scoreReader) Terminal() bool { return r.terminal }

// setScore records a new score and the reward it implies.
func (r *scoreReader) setScore(score int) {
	r.reward = score - r.score
	r.score = score
}

// livesOrZero is ALE's common lives() override: the life count, or 0 once the game
// is over.
func (r *scoreReader) livesOrZero() int {
	if r.terminal {
		return 0
	}
	return r.lives
}

// defaultLives is RomSettings::lives() for games that do not override it: 1 while the
// game runs, 0 once it is over.
func (r *scoreReader) defaultLives() int {
	if r.terminal {
		return 0
	}
	return 1
}

// setWrappedScore is setScore for games whose score counter wraps around at `wrap`:
// a negative change is taken as a wrap and `wrap` is added to it, as ALE's Asteroids
// reader does (and Space Invaders', in its own form).
func (r *scoreReader) setWrappedScore(score, wrap int) {
	r.setScore(score)
	if r.reward < 0 {
		r.reward += wrap
	}
}

// signedRAM reads a RAM byte as a two's-complement number (-128..127), as games that
// keep signed counters (Backgammon's pieces) are read by ALE.
func signedRAM(ram *[128]byte, offset int) int {
	return int(int8(ram[offset&0x7f]))
}

// blankDigit maps a score digit of $A, which several games draw as a blank, to 0
// (Battle Zone's, Road Runner's and others' digit decoding in ALE).
func blankDigit(d int) int {
	if d == 0xA {
		return 0
	}
	return d
}

// digitsScore is the score of games that keep one decimal digit per RAM byte: the
// bytes at addrs, lowest digit first, each multiplied by 10 times the previous weight,
// starting at `unit`. The bytes are used whole, not masked, as ALE does.
func digitsScore(ram *[128]byte, unit int, addrs ...int) int {
	score := 0
	for _, addr := range addrs {
		score += unit * readRAM(ram, addr)
		unit *= 10
	}
	return score
}

// lowNibbleDigits is the score of games that keep one decimal digit in the low nibble
// of each of n consecutive RAM bytes from `first`, lowest digit first, with $A drawn
// as a blank 0 (Defender; Road Runner's reader does the same over four bytes).
func lowNibbleDigits(ram *[128]byte, first, n int) int {
	score, mult := 0, 1
	for i := range n {
		score += mult * blankDigit(readRAM(ram, first+i)&0xf)
		mult *= 10
	}
	return score
}
