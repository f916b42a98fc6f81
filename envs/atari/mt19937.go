package atari

// mt19937 is the 32-bit Mersenne Twister ALE uses for its environment RNG (the one
// sticky actions draw from). ALE seeds it with the ordinary single-integer seeding
// from the random_seed setting; EnvPool passes each env's seed there, so an env's
// sticky-action stream depends only on its seed.
type mt19937 struct {
	state [624]uint32
	index int
}

// seed resets the generator with MT19937's init_genrand.
func (m *mt19937) seed(s uint32) {
	m.state[0] = s
	for i := 1; i < len(m.state); i++ {
		prev := m.state[i-1]
		m.state[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	m.index = len(m.state)
}

// next returns the next raw 32-bit output.
func (m *mt19937) next() uint32 {
	if m.index >= len(m.state) {
		m.twist()
	}
	y := m.state[m.index]
	m.index++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// nextDouble returns a uniform draw in [0, 1): the next output divided by 2^32, as
// ALE's Random::nextDouble computes it.
func (m *mt19937) nextDouble() float64 {
	return float64(m.next()) / 4294967296.0
}

func (m *mt19937) twist() {
	const n, mid = 624, 397
	for i := range n {
		y := m.state[i]&0x80000000 | m.state[(i+1)%n]&0x7fffffff
		v := m.state[(i+mid)%n] ^ y>>1
		if y&1 != 0 {
			v ^= 0x9908b0df
		}
		m.state[i] = v
	}
	m.index = 0
}
