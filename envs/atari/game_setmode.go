package atari

import "fmt"

// Helpers for the mode-selection steps of ALE's games (RomSettings::setMode) that
// go beyond selectRAMMode.

// actNoops plays n full NOOP steps the way a game's setMode calls ALE's
// environment->act(PLAYER_A_NOOP, PLAYER_B_NOOP): each draws the sticky-action
// numbers, emulates one frame, lets the reader see it and counts as a frame. Games
// use it to wait until they accept SELECT (Berzerk) or to let a debouncer settle.
func actNoops(a *ALE, n int) error {
	for range n {
		if _, err := a.Act(int(Noop)); err != nil {
			return err
		}
	}
	return nil
}

// waitThenSelectRAMMode is the setMode of games that must run `wait` NOOP steps before
// they respond to SELECT, then select the mode byte at RAM[offset] like selectRAMMode.
func waitThenSelectRAMMode(wait, offset, frames int) func(a *ALE, mode int) error {
	sel := selectRAMMode(offset, frames)
	return func(a *ALE, mode int) error {
		if err := actNoops(a, wait); err != nil {
			return err
		}
		return sel(a, mode)
	}
}

// selectRAMModeShifted is the setMode of games whose mode byte RAM[offset] reads the
// mode plus `shift` while the title screen shows (James Bond, Kangaroo): press SELECT
// `frames` frames at a time until it reads either value.
func selectRAMModeShifted(offset, frames, shift int) func(a *ALE, mode int) error {
	return func(a *ALE, mode int) error {
		return selectUntil(a, frames, func() bool {
			v := readRAM(a.m.RAM(), offset)
			return v == mode || v == mode+shift
		}, fmt.Sprintf("mode %d (RAM $%02X, or the mode plus $%02X)", mode, 0x80|offset&0x7f, shift))
	}
}

// selectRAMModePlusOne is the setMode of games whose RAM[offset] holds the cartridge's
// game number, one more than ALE's mode (Crossbow, Othello): press SELECT `frames`
// frames at a time until RAM[offset] - 1, as a byte, equals the mode.
func selectRAMModePlusOne(offset, frames int) func(a *ALE, mode int) error {
	return func(a *ALE, mode int) error {
		return selectUntil(a, frames, func() bool { return (readRAM(a.m.RAM(), offset)-1)&0xff == mode },
			fmt.Sprintf("mode %d (RAM $%02X = game %d)", mode, 0x80|offset&0x7f, mode+1))
	}
}
