package atari

// Yars' Revenge, ALE's games/supported/YarsRevenge.cpp. Its modes are $00, $20, $40 and
// $60. Every reset ends with one FIRE frame.
var yarsRevengeGame = Game{
	Name:            "yars_revenge",
	MD5:             "c5930d0e8cdae3e037349bfa08e871be",
	Modes:           []int{0x00, 0x20, 0x40, 0x60},
	Difficulties:    []int{0, 1},
	MinimalActions:  allActions,
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { r := &yarsRevengeReader{}; r.Reset(); return r },
	setMode:         yarsRevengeSetMode,
}

// yarsRevengeSetMode enters the selection screen with one 2-frame SELECT press, then
// presses SELECT one frame at a time until $E3 holds the mode, as ALE does.
func yarsRevengeSetMode(a *ALE, mode int) error {
	if err := a.pressSelect(2); err != nil {
		return err
	}
	return selectRAMMode(0xE3, 1)(a, mode)
}

// yarsRevengeReader: six-digit BCD score in $E2 (low), $E1, $E0 (high); the lives are
// the high nibble of $9E, and the game is over when they reach 0.
type yarsRevengeReader struct{ scoreReader }

func (r *yarsRevengeReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *yarsRevengeReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xE2, 0xE1, 0xE0))
	r.lives = readRAM(ram, 0x9E) >> 4
	r.terminal = r.lives == 0
}

func (r *yarsRevengeReader) Lives() int { return r.livesOrZero() }
