package atari

import "fmt"

// E.T. the Extra-Terrestrial, ALE's games/supported/Et.cpp. Modes 0 to 2 are the
// cartridge's games 1 to 3 (all humans; no scientist; only Elliott).
var etGame = Game{
	Name:           "et",
	MD5:            "615a3bf251a38eb6638cdc7ffbde5480",
	Modes:          []int{0, 1, 2},
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &etReader{} },
	setMode:        etSetMode,
}

// etMaxPresses is how many SELECT presses ALE tries before it gives up on a mode.
const etMaxPresses = 100

// etSetMode holds SELECT 25 frames at a time (E.T. needs a long press) until $EA minus
// 1 (as a byte) equals the mode, at most 100 times, then soft-resets.
func etSetMode(a *ALE, mode int) error {
	current := func() int { return (readRAM(a.m.RAM(), 0xEA) - 1) & 0xff }
	for n := 0; current() != mode; n++ {
		if n == etMaxPresses {
			return fmt.Errorf("atari: et: mode selection did not reach mode %d after %d SELECT presses (ALE fails the same way); check the ROM and the emulator's SELECT handling", mode, n)
		}
		if err := a.pressSelect(25); err != nil {
			return err
		}
	}
	return a.softReset()
}

// etReader: six-digit BCD score in $E1 (low), $E0, $DF (high), awarded on the
// interstitial screens; the lives are $E5 plus 1, kept in a signed byte as ALE does
// (so $FF gives 0); the game is over with no lives left on the title screen ($80 = 8).
type etReader struct{ scoreReader }

func (r *etReader) Reset() { r.scoreReader = scoreReader{} }

func (r *etReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xE1, 0xE0, 0xDF))
	r.lives = int(int8(readRAM(ram, 0xE5) + 1))
	r.terminal = r.lives == 0 && readRAM(ram, 0x80) == 8
}

func (r *etReader) Lives() int { return r.livesOrZero() }
