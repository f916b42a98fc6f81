package atari

// Pooyan, ALE's games/supported/Pooyan.cpp. Stella's properties move its screen window:
// it starts at line 26 and is 220 lines high. Its modes are $0A, $1E, $32, $46.
var pooyanGame = Game{
	Name:           "pooyan",
	MD5:            "4799a40b6e889370b7ee55c17ba65141",
	Props:          Properties{YStart: 26, Height: 220},
	Modes:          []int{0x0A, 0x1E, 0x32, 0x46},
	MinimalActions: []Action{Noop, Fire, Up, Down, UpFire, DownFire},
	NewReader:      func() Reader { r := &pooyanReader{}; r.Reset(); return r },
	setMode:        pooyanSetMode,
}

// pooyanSetMode presses SELECT once (2 frames) to open the selection, then 2 frames at
// a time until $BD holds the mode, as ALE does.
func pooyanSetMode(a *ALE, mode int) error {
	if err := a.pressSelect(2); err != nil {
		return err
	}
	return selectRAMMode(0xBD, 2)(a, mode)
}

// pooyanReader: six-digit BCD score in $8A (low), $89, $88 (high); the lives are the low
// 3 bits of $96 plus 1; the game is over when $96 reads 0 and $98 reads 5.
type pooyanReader struct{ scoreReader }

func (r *pooyanReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *pooyanReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x8A, 0x89, 0x88))
	b := readRAM(ram, 0x96)
	r.terminal = b == 0 && readRAM(ram, 0x98) == 0x05
	r.lives = b&0x7 + 1
}

func (r *pooyanReader) Lives() int { return r.livesOrZero() }
