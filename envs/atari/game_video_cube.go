package atari

import "fmt"

// Video Cube, ALE's games/supported/VideoCube.cpp. A mode is cube*100 + variation:
// cubes 0 to 50 (0 and 1 both select cube 1) times variations 0, 1, 2 (the cartridge's
// games 1, 3 and 9: normal, blacked out, restricted movement). Every reset ends with
// 61 NOOP frames, a FIRE frame (which starts the game) and two NOOP frames.
var videoCubeGame = Game{
	Name:            "video_cube",
	MD5:             "3f540a30fdee0b20aed7288e4a5ea528",
	Modes:           videoCubeModes(),
	Difficulties:    []int{0, 1},
	MinimalActions:  allActions,
	StartingActions: append(append(repeatAction(Noop, 61), Fire), Noop, Noop),
	NewReader:       func() Reader { return &videoCubeReader{} },
	setMode:         videoCubeSetMode,
}

// videoCubeGames are the cartridge's game numbers of variations 0, 1, 2.
var videoCubeGames = [3]int{1, 3, 9}

// videoCubeModes lists ALE's modes in its order: for each cube 0..50, variations 0..2.
func videoCubeModes() []int {
	var modes []int
	for cube := 0; cube <= 50; cube++ {
		for v := range len(videoCubeGames) {
			modes = append(modes, cube*100+v)
		}
	}
	return modes
}

// videoCubeSetMode presses SELECT 2 frames at a time until the low 5 bits of $FB hold
// the variation's game number minus 1, soft-resets, then plays full RIGHT steps until
// the cube number (BCD $9F) is the wanted one (cube 1 for modes below 100, as ALE's
// reset leaves it), as ALE does.
func videoCubeSetMode(a *ALE, mode int) error {
	cube := 1
	if mode >= 100 {
		cube = mode / 100
	}
	game := videoCubeGames[mode%100] - 1
	if err := selectUntil(a, 2, func() bool { return readRAM(a.m.RAM(), 0xFB)&0x1f == game },
		fmt.Sprintf("game %d (RAM $FB & $1F)", game)); err != nil {
		return err
	}
	for n := 0; bcd(readRAM(a.m.RAM(), 0x9F)) != cube; n++ {
		if n == maxSelectPresses {
			return fmt.Errorf("atari: video_cube: cube selection did not reach cube %d after %d RIGHT steps; the emulator does not respond as ALE's does", cube, n)
		}
		if _, err := a.Act(int(Right)); err != nil {
			return err
		}
	}
	return nil
}

// videoCubeReader: the cube's six faces are 9 bytes each from $A0 (one colour index per
// square); the reward is the change in the number of one-colour faces, and all 6 ends
// the game. The game timer $DB wrapping from $FF to 0 between two frames hands the cube
// to the computer: reward -1 and game over. As in ALE, the remembered timer values are
// not cleared by a reset (ALE leaves them uninitialised at first; here they start at 0).
type videoCubeReader struct {
	scoreReader
	faces int
	timer [2]int // the last two values of $DB, newest first
}

func (r *videoCubeReader) Reset() {
	r.scoreReader = scoreReader{}
	r.faces = 0
}

func (r *videoCubeReader) Step(m Memory) {
	ram := m.RAM()
	faces := 0
	for f := range 6 {
		first := 0xA0 + 9*f
		same := true
		for i := 1; i < 9 && same; i++ {
			same = readRAM(ram, first+i) == readRAM(ram, first)
		}
		if same {
			faces++
		}
	}
	r.timer[1], r.timer[0] = r.timer[0], readRAM(ram, 0xDB)
	timedOut := r.timer[0] == 0 && r.timer[1] == 255
	if timedOut {
		r.reward = -1
	} else {
		r.reward = faces - r.faces
	}
	r.faces = faces
	r.terminal = timedOut || faces == 6
}

func (r *videoCubeReader) Lives() int { return r.defaultLives() }
