package atari

import "fmt"

// Adventure, ALE's games/supported/Adventure.cpp. Stella's properties leave the right
// port without a controller, which the console treats as a joystick.
var adventureGame = Game{
	Name:           "adventure",
	MD5:            "4b27f5397c442d25f0c418ccdacf1926",
	Modes:          []int{0, 1, 2},
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &adventureReader{} },
	setMode:        adventureSetMode,
}

// adventureSetMode presses SELECT until the level bits of $DD ((RAM >> 1) & 3) select
// the mode. As in ALE, each press lasts 2 + (environment RNG mod 256) frames (level 3
// seeds its object placement from the frame counter), and is followed by one full
// NOOP step (the game debounces SELECT) that draws the sticky-action numbers and
// counts as a frame.
func adventureSetMode(a *ALE, mode int) error {
	level := func() int { return readRAM(a.m.RAM(), 0xDD) >> 1 & 3 }
	for n := 0; level() != mode; n++ {
		if n == maxSelectPresses {
			return fmt.Errorf("atari: adventure: mode selection did not reach level %d after %d SELECT presses; the emulator does not respond to SELECT as ALE's does", mode, n)
		}
		if err := a.pressSelect(2 + int(a.rng.Next()%256)); err != nil {
			return err
		}
		if _, err := a.Act(int(Noop)); err != nil {
			return err
		}
	}
	return a.softReset()
}

// adventureReader: the reward is 1 once the chalice is in the yellow castle ($B9 =
// $12), and stays 1 (ALE never clears it before the next reset); the game is over then,
// or when the dragon has eaten the player ($E0 = 2). ALE reports 1 life, even at the
// end.
type adventureReader struct{ scoreReader }

func (r *adventureReader) Reset() { r.scoreReader = scoreReader{} }

func (r *adventureReader) Step(m Memory) {
	ram := m.RAM()
	won := readRAM(ram, 0xB9) == 0x12
	if won {
		r.reward = 1
	}
	r.terminal = readRAM(ram, 0xE0) == 2 || won
}

func (r *adventureReader) Lives() int { return 1 }
