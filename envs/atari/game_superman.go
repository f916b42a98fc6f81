package atari

// Superman, ALE's games/supported/Superman.cpp.
var supermanGame = Game{
	Name:           "superman",
	MD5:            "a9531c763077464307086ec9a1fd057d",
	Difficulties:   []int{0, 1, 2, 3},
	MinimalActions: allActions,
	NewReader:      func() Reader { return &supermanReader{} },
}

// supermanMaxSeconds is the last time the game clock shows (99:59); it wraps after.
const supermanMaxSeconds = 99*60 + 59

// supermanReader: the game is over when the player enters the Daily Bugle (room address
// $80 + 256 * $81 = $F2AC) as Clark Kent (bit 6 of $9F). The only reward comes then:
// 99:59 minus the game clock (BCD minutes $E3, seconds $E2), in seconds. ALE keeps its
// default lives.
type supermanReader struct{ scoreReader }

func (r *supermanReader) Reset() { r.scoreReader = scoreReader{} }

func (r *supermanReader) Step(m Memory) {
	ram := m.RAM()
	seconds := bcd(readRAM(ram, 0xE3))*60 + bcd(readRAM(ram, 0xE2))
	room := readRAM(ram, 0x80) + readRAM(ram, 0x81)<<8
	r.terminal = readRAM(ram, 0x9F)&0x40 != 0 && room == 0xF2AC
	r.reward = 0
	if r.terminal {
		r.reward = supermanMaxSeconds - seconds
	}
}

func (r *supermanReader) Lives() int { return r.defaultLives() }
