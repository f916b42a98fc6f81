package atari

import "fmt"

// Lost Luggage, ALE's games/supported/LostLuggage.cpp. Modes 0 and 1 are the
// cartridge's single-player games 1 and 4 (4 adds a critical suitcase). Every reset
// ends with one FIRE frame.
// ALE declares every FIRE action illegal for this game, as FIRE restarts it (see
// Game.IsLegal).
var lostLuggageGame = Game{
	Name:            "lost_luggage",
	MD5:             "2d76c5d1aad506442b9e9fb67765e051",
	Modes:           []int{0, 1},
	Difficulties:    []int{0, 1},
	MinimalActions:  []Action{Noop, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft},
	StartingActions: []Action{Fire},
	NewReader:       func() Reader { r := &lostLuggageReader{}; r.Reset(); return r },
	setMode: func(a *ALE, mode int) error {
		want := 1 + 3*mode
		return selectUntil(a, 2, func() bool { return readRAM(a.m.RAM(), 0x94) == want },
			fmt.Sprintf("game %d (RAM $94)", want))
	},
}

// lostLuggageReader: six-digit BCD score in $96 (low), $95, $94 (high); lives in $CA;
// the game is over when none are left, $C8 reads $0A and $A5 and $A9 read 0.
type lostLuggageReader struct{ scoreReader }

func (r *lostLuggageReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *lostLuggageReader) Step(m Memory) {
	ram := m.RAM()
	r.setScore(decimalScore3(ram, 0x96, 0x95, 0x94))
	r.lives = readRAM(ram, 0xCA)
	r.terminal = r.lives == 0 && readRAM(ram, 0xC8) == 0x0A && readRAM(ram, 0xA5) == 0x00 && readRAM(ram, 0xA9) == 0x00
}

func (r *lostLuggageReader) Lives() int { return r.livesOrZero() }
