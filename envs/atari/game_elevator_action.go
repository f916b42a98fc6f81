package atari

// Elevator Action, ALE's games/supported/ElevatorAction.cpp (an F8SC cartridge). Every
// reset ends with 16 FIRE frames.
var elevatorActionGame = Game{
	Name:            "elevator_action",
	MD5:             "71f8bacfbdca019113f3f0801849057e",
	MinimalActions:  allActions,
	StartingActions: repeatAction(Fire, 16),
	NewReader:       func() Reader { r := &elevatorActionReader{}; r.Reset(); return r },
}

// elevatorActionReader: six-digit BCD score in $89, $88, $87; lives in $83; the game is
// over when no lives are left outside the start screen ($81 non-zero).
type elevatorActionReader struct{ scoreReader }

func (r *elevatorActionReader) Reset() { r.scoreReader = scoreReader{lives: 4} }

func (r *elevatorActionReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x89, 0x88, 0x87))
	r.lives = readRAM(ram, 0x83)
	startScreen := readRAM(ram, 0x81) == 0
	r.terminal = r.lives == 0 && !startScreen
}

func (r *elevatorActionReader) Lives() int { return r.livesOrZero() }

// repeatAction returns n copies of a.
func repeatAction(a Action, n int) []Action {
	out := make([]Action, n)
	for i := range out {
		out[i] = a
	}
	return out
}
