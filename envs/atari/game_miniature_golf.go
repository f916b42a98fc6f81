package atari

// Miniature Golf, ALE's games/supported/MiniatureGolf.cpp.
var miniatureGolfGame = Game{
	Name:           "miniature_golf",
	MD5:            "df62a658496ac98a3aa4a6ee5719c251",
	Difficulties:   []int{0, 1},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &miniatureGolfReader{} },
}

// miniatureGolfReader: the left status (BCD $87) is the cumulative stroke count while
// a hole is played and the hole number in the lobby between holes, where the right
// status (BCD $88) shows the hole's par; $AF (BCD) is the hole number. When the hole
// number changes, the reward is par minus the strokes taken on the hole just finished
// (if any were taken), and hole number 0 ends the game. The stroke count wraps after
// 99, which is added back. The reward is 0 on every other frame.
type miniatureGolfReader struct {
	scoreReader
	hole, par, hits, left, hitsAtHoleStart int
}

func (r *miniatureGolfReader) Reset() { *r = miniatureGolfReader{} }

func (r *miniatureGolfReader) Step(m Memory) {
	ram := m.RAM()
	r.reward = 0
	left, right, hole := bcd(readRAM(ram, 0x87)), bcd(readRAM(ram, 0x88)), bcd(readRAM(ram, 0xAF))
	if hole != r.hole {
		if strokes := r.left + r.hits - r.hitsAtHoleStart; strokes > 0 {
			r.reward = r.par - strokes
		}
		if hole == 0 {
			r.terminal = true
		}
		r.hole, r.hits, r.hitsAtHoleStart = hole, 0, r.left
	}
	if right != 0 {
		r.par = right
		return
	}
	if left < r.left {
		r.hits += r.left
	}
	r.left = left
}

func (r *miniatureGolfReader) Lives() int { return r.defaultLives() }
