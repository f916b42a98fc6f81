package atari

// Road Runner, ALE's games/supported/RoadRunner.cpp (an F6 cartridge; its md5 is not in
// Stella's property table, so every property is the default).
var roadRunnerGame = Game{
	Name:           "road_runner",
	MD5:            "ce5cc62608be2cd3ed8abd844efb8919",
	MinimalActions: allActions,
	NewReader:      func() Reader { r := &roadRunnerReader{}; r.Reset(); return r },
}

// roadRunnerReader: the score is four decimal digits in the low nibbles of $C9..$CC,
// lowest first, times 100 (digit value $A is a blank zero); spare lives are the low 3
// bits of $C4; the game is over when none are left and the runner is moving in a
// death animation ($B9 or $BD non-zero).
type roadRunnerReader struct{ scoreReader }

func (r *roadRunnerReader) Reset() { r.scoreReader = scoreReader{lives: 3} }

func (r *roadRunnerReader) Step(m Memory) {
	ram := m.RAM()
	score, mult := 0, 1
	for digit := range 4 {
		v := readRAM(ram, 0xC9+digit) & 0xf
		if v == 0xA {
			v = 0
		}
		score += mult * v
		mult *= 10
	}
	r.setScore(score * 100)
	livesByte := readRAM(ram, 0xC4) & 0x7
	yVel, xVelDeath := readRAM(ram, 0xB9), readRAM(ram, 0xBD)
	r.terminal = livesByte == 0 && (yVel != 0 || xVelDeath != 0)
	r.lives = livesByte + 1
}

func (r *roadRunnerReader) Lives() int { return r.livesOrZero() }
