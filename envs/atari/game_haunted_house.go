package atari

// Haunted House, ALE's games/supported/HauntedHouse.cpp. Its modes are the cartridge's
// games 1 to 9 (0 to 8).
var hauntedHouseGame = Game{
	Name:           "haunted_house",
	MD5:            "f0a6e99f5875891246c3dbecbf2d2cea",
	Modes:          intRange(9, 0, 1),
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &hauntedHouseReader{}; r.Reset(); return r },
	setMode:        selectRAMMode(0xCC, 2),
}

// hauntedHouseReader: every change of the match counter (the BCD byte $82, which wraps
// from 99 to 0) costs -1; escaping with the completed urn ($99 = $44) is worth +100 and
// ends the game, as does running out of lives ($96).
type hauntedHouseReader struct {
	scoreReader
	matches int
}

func (r *hauntedHouseReader) Reset() {
	r.scoreReader = scoreReader{lives: 9}
	r.matches = 0
}

func (r *hauntedHouseReader) Step(m Memory) {
	ram := m.RAM()
	r.reward = 0
	if matches := bcd(readRAM(ram, 0x82)); matches != r.matches {
		r.reward--
		r.matches = matches
	}
	r.lives = readRAM(ram, 0x96)
	escaped := readRAM(ram, 0x99) == 0x44
	if escaped {
		r.reward += 100
	}
	r.terminal = r.lives == 0 || escaped
}

func (r *hauntedHouseReader) Lives() int { return r.livesOrZero() }
