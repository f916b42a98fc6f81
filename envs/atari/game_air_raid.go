package atari

// Air Raid, ALE's games/supported/AirRaid.cpp. Its modes are 1 to 8; every reset ends
// with one FIRE frame.
var airRaidGame = Game{
	Name:            "air_raid",
	MD5:             "35be55426c1fec32dfb503b4f0651572",
	Modes:           intRange(8, 1, 1),
	MinimalActions:  []Action{Noop, Fire, Right, Left, RightFire, LeftFire},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { return &airRaidReader{} },
	setMode:         airRaidSetMode,
}

// airRaidSetMode opens the mode panel with one 20-frame SELECT press, then presses
// SELECT 10 frames at a time until $AA (the score byte, which shows the mode on the
// panel) equals the mode.
func airRaidSetMode(a *ALE, mode int) error {
	if err := a.pressSelect(20); err != nil {
		return err
	}
	return selectRAMMode(0xAA, 10)(a, mode)
}

// airRaidReader: six-digit BCD score in $AA, $A9, $A8; the game is over when $A7 (the
// lives) reads $FF. ALE keeps its default lives (1 while running).
type airRaidReader struct{ scoreReader }

func (r *airRaidReader) Reset() { r.scoreReader = scoreReader{} }

func (r *airRaidReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xAA, 0xA9, 0xA8))
	r.terminal = readRAM(ram, 0xA7) == 0xFF
}

func (r *airRaidReader) Lives() int { return r.defaultLives() }
