package atari

import "fmt"

// Demon Attack, ALE's games/supported/DemonAttack.cpp. Its modes are 1, 3, 5 and 7.
var demonAttackGame = Game{
	Name:           "demon_attack",
	MD5:            "f0e0addc07971561ab80d9abe1b8d333",
	Modes:          []int{1, 3, 5, 7},
	Difficulties:   []int{0, 1},
	MinimalActions: []Action{Noop, Fire, Right, Left, RightFire, LeftFire},
	NewReader:      func() Reader { r := &demonAttackReader{}; r.Reset(); return r },
	setMode:        demonAttackSetMode,
}

// demonAttackSetMode presses SELECT one frame at a time until $EA holds the mode, then
// tells the reader a level change is under way (so the first frame of the soft reset
// is not taken for a game over) and soft-resets, as ALE does.
func demonAttackSetMode(a *ALE, mode int) error {
	return selectUntil(a, 1, func() bool {
		if readRAM(a.m.RAM(), 0xEA) != mode {
			return false
		}
		if r, ok := a.reader.(*demonAttackReader); ok {
			r.levelChange = true
		}
		return true
	}, fmt.Sprintf("mode %d (RAM $EA)", mode))
}

// demonAttackReader: six-digit BCD score in $85 (low), $83, $81 (high), except that the
// uninitialised pattern $AB/$CD/$EA in $81/$83/$85 counts as 0; the lives are $F2 plus
// 1; the game is over when $F2 reads 0 and $F1 reads $BD, unless a level change was
// flagged for this frame (the flag lasts one frame).
type demonAttackReader struct {
	scoreReader
	levelChange bool
}

func (r *demonAttackReader) Reset() {
	r.scoreReader = scoreReader{lives: 4}
	r.levelChange = false
}

func (r *demonAttackReader) Step(m Memory) {
	ram := m.RAM()
	score := decimalScore3(ram, 0x85, 0x83, 0x81)
	if readRAM(ram, 0x81) == 0xAB && readRAM(ram, 0x83) == 0xCD && readRAM(ram, 0x85) == 0xEA {
		score = 0
	}
	r.setScore(score)
	shown := readRAM(ram, 0xF2)
	r.terminal = shown == 0 && readRAM(ram, 0xF1) == 0xBD && !r.levelChange
	r.lives = shown + 1
	r.levelChange = false
}

func (r *demonAttackReader) Lives() int { return r.livesOrZero() }
