package atari

import "fmt"

// Double Dunk, ALE's games/supported/DoubleDunk.cpp. Its 16 modes are the on/off
// combinations of four menu options (bit 0: 3-point shots, bit 1: 10-second rule,
// bit 2: 3-second rule, bit 3: fouls). Every reset ends with one UPFIRE frame.
var doubleDunkGame = Game{
	Name:            "double_dunk",
	MD5:             "368d88a6c071caba60b4f778615aae94",
	Modes:           intRange(16, 0, 1),
	MinimalActions:  allActions,
	StartingActions: []Action{UpFire},
	NewReader:       func() Reader { return &doubleDunkReader{} },
	setMode:         doubleDunkSetMode,
}

// doubleDunkOptions are the option bits of $80 that modes 1, 2, 4 and 8 turn on, in
// the order the menu lists them (after two options ALE leaves alone).
var doubleDunkOptions = [4]int{0x08, 0x10, 0x04, 0x20}

// doubleDunkSetMode opens the options menu with SELECT, skips its first two entries,
// and for each of the four options moves down the menu (DOWN then NOOP steps until the
// cursor, $B0, moves) and sets it (RIGHT then NOOP steps until its bit of $80 is set,
// or LEFT then NOOP until it is clear). Then it soft-resets and plays an UPFIRE and a
// NOOP step. Every step is a full ALE step, as in ALE.
func doubleDunkSetMode(a *ALE, mode int) error {
	ram := func(addr int) int { return readRAM(a.m.RAM(), addr) }
	// repeat plays act then NOOP until done, giving up like selectUntil does.
	repeat := func(act Action, done func() bool, what string) error {
		for n := 0; !done(); n++ {
			if n == maxSelectPresses {
				return fmt.Errorf("atari: double_dunk: mode selection did not reach %s after %d steps; the emulator does not respond to the menu as ALE's does", what, n)
			}
			if _, err := a.Act(int(act)); err != nil {
				return err
			}
			if _, err := a.Act(int(Noop)); err != nil {
				return err
			}
		}
		return nil
	}
	goDown := func() error {
		prev := ram(0xB0)
		return repeat(Down, func() bool { return ram(0xB0) != prev }, "the next menu entry")
	}
	if err := a.pressSelect(1); err != nil {
		return err
	}
	for range 2 {
		if err := goDown(); err != nil {
			return err
		}
	}
	for i, bit := range doubleDunkOptions {
		if i > 0 {
			if err := goDown(); err != nil {
				return err
			}
		}
		on := mode&(1<<i) != 0
		act := Left
		if on {
			act = Right
		}
		if err := repeat(act, func() bool { return (ram(0x80)&bit == bit) == on },
			fmt.Sprintf("option bit $%02X = %v", bit, on)); err != nil {
			return err
		}
	}
	if err := a.softReset(); err != nil {
		return err
	}
	if _, err := a.Act(int(UpFire)); err != nil {
		return err
	}
	_, err := a.Act(int(Noop))
	return err
}

// doubleDunkReader: the player's points are the BCD byte $F6, the opponent's $F7; the
// score is their difference. The game is over when either has 24 or more and $FE reads
// $E7. ALE reports no lives.
type doubleDunkReader struct{ scoreReader }

func (r *doubleDunkReader) Reset() { r.scoreReader = scoreReader{} }

func (r *doubleDunkReader) Step(m Memory) {
	ram := m.RAM()
	mine, theirs := bcd(readRAM(ram, 0xF6)), bcd(readRAM(ram, 0xF7))
	r.setScore(mine - theirs)
	r.terminal = (mine >= 24 || theirs >= 24) && readRAM(ram, 0xFE) == 0xE7
}

func (r *doubleDunkReader) Lives() int { return 0 }
