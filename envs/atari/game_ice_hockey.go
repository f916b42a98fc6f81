package atari

// Ice Hockey, ALE's games/supported/IceHockey.cpp. Its single-player modes are 0 and 2.
var iceHockeyGame = Game{
	Name:           "ice_hockey",
	MD5:            "a4c08c4994eb9d24fb78be1793e82e26",
	Modes:          []int{0, 2},
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &iceHockeyReader{} },
	setMode:        selectRAMMode(0x80, 2),
}

// iceHockeyReader: the player's goals are the BCD byte $8A, the opponent's $8B; the
// score is their difference and the reward its change, capped at +1 (ALE's min, with
// no lower cap). The game is over when the clock ($87 minutes, $86 seconds) reads 0.
// ALE reports no lives.
type iceHockeyReader struct{ scoreReader }

func (r *iceHockeyReader) Reset() { r.scoreReader = scoreReader{} }

func (r *iceHockeyReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(bcd(readRAM(ram, 0x8A)) - bcd(readRAM(ram, 0x8B)))
	r.reward = min(r.reward, 1)
	r.terminal = readRAM(ram, 0x87) == 0 && readRAM(ram, 0x86) == 0
}

func (r *iceHockeyReader) Lives() int { return 0 }
