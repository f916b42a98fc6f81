package atari

// Asterix, ALE's games/supported/Asterix.cpp. Every reset ends with one FIRE frame.
var asterixGame = Game{
	Name:            "asterix",
	MD5:             "89a68746eff7f266bbf08de2483abe55",
	MinimalActions:  []Action{Noop, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { r := &asterixReader{}; r.Reset(); return r },
}

// asterixReader: six-digit BCD score in $E0 (low), $DF, $DE (high); lives in the low
// nibble of $D3. The game is over on the last life when the death counter $C7 reads 1
// (ALE does not wait for 0 lives: holding FIRE on that frame would restart the game).
type asterixReader struct{ scoreReader }

func (r *asterixReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *asterixReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0xE0, 0xDF, 0xDE))
	r.lives = readRAM(ram, 0xD3) & 0xf
	r.terminal = readRAM(ram, 0xC7) == 0x01 && r.lives == 1
}

func (r *asterixReader) Lives() int { return r.livesOrZero() }
