package atari

// Boxing, ALE's games/supported/Boxing.cpp.
var boxingGame = Game{
	Name:           "boxing",
	MD5:            "c3ef5c4653212088eda54dc91d787870",
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &boxingReader{} },
}

// boxingReader: the player's points are the BCD byte $92, the opponent's $93, and a
// byte of $C0 is a knock-out worth 100; the score is their difference. The game is
// over at a knock-out or when the clock ($90 high nibble minutes, $91 BCD seconds)
// reaches 0:00. ALE reports no lives.
type boxingReader struct{ scoreReader }

func (r *boxingReader) Reset() { r.scoreReader = scoreReader{} }

func (r *boxingReader) Step(m Memory) {
	ram := m.RAM()
	points := func(addr int) int {
		if readRAM(ram, addr) == 0xC0 {
			return 100
		}
		return bcd(readRAM(ram, addr))
	}
	mine, theirs := points(0x92), points(0x93)
	r.setScore(mine - theirs)
	if mine == 100 || theirs == 100 {
		r.terminal = true
		return
	}
	r.terminal = readRAM(ram, 0x90)>>4 == 0 && bcd(readRAM(ram, 0x91)) == 0
}

func (r *boxingReader) Lives() int { return 0 }
