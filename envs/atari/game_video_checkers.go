package atari

import "fmt"

// Video Checkers, ALE's games/supported/VideoCheckers.cpp. Modes 1 to 9 are regular
// checkers and 11 to 19 reverse checkers, in increasing difficulty (the cartridge
// stores the reverse games as 17 to 25). Its minimal action set has no NOOP.
var videoCheckersGame = Game{
	Name:           "video_checkers",
	MD5:            "539d26b6e9df0da8e7465f0f5ad863b7",
	Modes:          append(intRange(9, 1, 1), intRange(9, 11, 1)...),
	MinimalActions: []Action{Fire, UpRight, UpLeft, DownRight, DownLeft},
	NewReader:      func() Reader { return &videoCheckersReader{} },
	setMode:        videoCheckersSetMode,
}

// videoCheckersSetMode tells the reader whether the game is reverse checkers, then
// presses SELECT one frame at a time until $F6 holds the game (mode + 6 for reverse
// checkers) and soft-resets.
func videoCheckersSetMode(a *ALE, mode int) error {
	reverse := mode >= 11
	if r, ok := a.reader.(*videoCheckersReader); ok {
		r.reverse = reverse
	}
	want := mode
	if reverse {
		want += 6
	}
	return selectUntil(a, 1, func() bool { return readRAM(a.m.RAM(), 0xF6) == want },
		fmt.Sprintf("game %d (RAM $F6)", want))
}

// videoCheckersBoard are the RAM bytes of the 32 dark squares.
var videoCheckersBoard = func() []int {
	var out []int
	for _, first := range []int{0x80, 0x89, 0x92, 0x9B} {
		for i := range 8 {
			out = append(out, first+i)
		}
	}
	return out
}()

// videoCheckersReader: a square holding $10 or $20 is a black piece, $90 or $A0 a white
// one. When black has no pieces left the game is over with reward -1 (+1 in reverse
// checkers); when white has none, +1 (-1 in reverse checkers). As in ALE the reward then
// stays set, and the reverse flag is kept across resets (mode selection sets it on every
// reset). ALE keeps its default lives.
type videoCheckersReader struct {
	scoreReader
	reverse bool
}

func (r *videoCheckersReader) Reset() { r.scoreReader = scoreReader{} }

func (r *videoCheckersReader) Step(m Memory) {
	ram := m.RAM()
	black, white := 0, 0
	for _, addr := range videoCheckersBoard {
		switch readRAM(ram, addr) {
		case 0x10, 0x20:
			black++
		case 0x90, 0xA0:
			white++
		}
	}
	win := 1
	if r.reverse {
		win = -1
	}
	switch {
	case black == 0:
		r.reward, r.terminal = -win, true
	case white == 0:
		r.reward, r.terminal = win, true
	}
}

func (r *videoCheckersReader) Lives() int { return r.defaultLives() }
