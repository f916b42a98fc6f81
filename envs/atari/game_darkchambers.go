package atari

// Dark Chambers, ALE's games/supported/DarkChambers.cpp. Stella's properties turn HMOVE
// blanks off for this ROM. ALE offers only mode 0 (SELECT does not change the mode
// byte) and ends every reset with 486 NOOP frames: the title animation ignores input,
// even RESET, for about 8 seconds.
var darkchambersGame = Game{
	Name:            "darkchambers",
	MD5:             "106855474c69d08c8ffa308d47337269",
	Props:           Properties{NoHmoveBlanks: true},
	MinimalActions:  allActions,
	StartingActions: repeatAction(Noop, 486),
	NewReader:       func() Reader { return &darkchambersReader{} },
}

// darkchambersReader: the level is $D5 and only goes up, so a lower level ends the
// game; the score is ten times the BCD value of $CC (low) and $CF (high), and a lower
// score (the counter passed its maximum) ends the game too; so does health 0 (the low
// 5 bits of $CA). The reward of a frame is 0 unless the score rose.
type darkchambersReader struct {
	scoreReader
	level int
}

func (r *darkchambersReader) Reset() { *r = darkchambersReader{} }

func (r *darkchambersReader) Step(m Memory) {
	ram := m.RAM()
	r.reward = 0
	level := readRAM(ram, 0xD5)
	if level < r.level {
		r.terminal = true
		return
	}
	r.level = level
	if score := 10 * decimalScore2(ram, 0xCC, 0xCF); score < r.score {
		r.terminal = true
	} else {
		r.setScore(score)
	}
	if readRAM(ram, 0xCA)&0x1f == 0 {
		r.terminal = true
	}
}

func (r *darkchambersReader) Lives() int { return r.defaultLives() }
