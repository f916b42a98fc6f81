package atari

import "fmt"

// Klax, ALE's games/supported/Klax.cpp (an F6SC cartridge). Its score, misses and
// level live in the cartridge's extra RAM, read at the SC read port ($F080-$F0FF).
var klaxGame = Game{
	Name:            "klax",
	MD5:             "eed9eaf1a0b6a2b9bc4c8032cb43e3fb",
	Modes:           []int{0, 1, 2},
	MinimalActions:  allActions,
	StartingActions: []Action{Fire, Noop},
	NewReader:       func() Reader { return &klaxReader{} },
	setMode:         klaxSetMode,
}

// klaxSetMode holds SELECT 2 frames at a time until the mode in cartridge RAM ($F0EA)
// is the wanted one.
func klaxSetMode(a *ALE, mode int) error {
	return selectUntil(a, 2, func() bool { return int(a.m.Peek(0xF0EA)) == mode },
		fmt.Sprintf("mode %d (cartridge RAM $F0EA)", mode))
}

// klaxReader: six-digit BCD score at $F0B4 (low), $F0B5, $F0B6 (high); the game is
// over when the misses ($F0EE) reach the allowed maximum ($F0E9), when all 25 bins at
// the bottom ($B3..$CB) hold real tiles while the game is active ($A8 = 4), or at
// level 100 ($F09D = $99).
type klaxReader struct{ scoreReader }

func (r *klaxReader) Reset() { r.scoreReader = scoreReader{} }

func (r *klaxReader) Step(m Memory) {
	score := bcd(int(m.Peek(0xF0B4))) + 100*bcd(int(m.Peek(0xF0B5))) + 10000*bcd(int(m.Peek(0xF0B6)))
	r.setScore(score)
	misses := int(m.Peek(0xF0EE))
	maxMisses := int(m.Peek(0xF0E9))
	ram := m.RAM()
	active := readRAM(ram, 0xA8) == 4
	blocks := 0
	for i := range 25 {
		switch readRAM(ram, 0xB3+i) {
		case 0, 2, 6, 10, 14: // empty, or the grey filler of the level-end bonus
		default:
			blocks++
		}
	}
	level := int(m.Peek(0xF09D))
	r.terminal = maxMisses > 0 && misses == maxMisses || active && blocks == 25 || level == 0x99
}

func (r *klaxReader) Lives() int { return r.defaultLives() }
