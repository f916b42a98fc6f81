package atari

// TRON: Deadly Discs, ALE's games/supported/Trondead.cpp.
var trondeadGame = Game{
	Name:           "trondead",
	MD5:            "fb27afe896e7c928089307b32e5642ee",
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &trondeadReader{}; r.Reset(); return r },
}

// trondeadReader: six-digit BCD score in $BF (low), $BE, $BD (high); the hit count $C8
// ends the game at 5, and the lives are 5 minus it.
type trondeadReader struct{ scoreReader }

func (r *trondeadReader) Reset() { r.scoreReader = scoreReader{lives: 5} }

func (r *trondeadReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xBF, 0xBE, 0xBD))
	hits := readRAM(ram, 0xC8)
	r.terminal = hits == 5
	r.lives = 5 - hits
}

func (r *trondeadReader) Lives() int { return r.livesOrZero() }
