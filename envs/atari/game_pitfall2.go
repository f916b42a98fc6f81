package atari

// Pitfall II: Lost Caverns, ALE's games/supported/Pitfall2.cpp (the DPC cartridge).
// Every reset ends with one UP frame.
var pitfall2Game = Game{
	Name:            "pitfall2",
	MD5:             "6d842c96d5a01967be9680080dd5be54",
	MinimalActions:  allActions,
	StartingActions: []Action{Up},
	NewReader:       func() Reader { r := &pitfall2Reader{}; r.Reset(); return r },
}

// pitfall2MaxScore is the highest score; ALE ends the game there, having no better
// way to detect the end of the adventure.
const pitfall2MaxScore = 199000

// pitfall2Reader: six-digit BCD score in $C9, $C8, $C7 (the game starts at 4000); no
// lives (always 1 while running).
type pitfall2Reader struct{ scoreReader }

func (r *pitfall2Reader) Reset() { r.scoreReader = scoreReader{score: 4000, lives: 1} }

func (r *pitfall2Reader) Step(m Memory) {
	r.setScore(decimalScore3(m.RAM(), 0xC9, 0xC8, 0xC7))
	r.lives = 1
	r.terminal = r.score == pitfall2MaxScore
}

func (r *pitfall2Reader) Lives() int { return r.livesOrZero() }
