package vcs

// Random is a standard 32-bit Mersenne Twister (MT19937) with Stella's and ALE's
// interface. The console uses one as its system random generator: ALE seeds it once
// with system_random_seed and draws from it for RIOT RAM, the RIOT timer and Superchip
// RAM, so the Go port must make the same draws in the same order to stay frame-exact.
// The atari package uses others as ALE's environment generator (sticky actions) and
// as EnvPool's noop-start generator, which are MT19937s too.
//
// The zero value is not seeded; call Seed (or use NewRandom) first. A Random is a
// plain value: copying one copies its position in the sequence.
type Random struct {
	mt  [624]uint32
	idx int
}

// NewRandom returns a generator seeded with seed using the standard MT19937
// single-integer initialisation.
func NewRandom(seed uint32) *Random {
	r := &Random{}
	r.Seed(seed)
	return r
}

// Seed re-initialises the generator state from seed (init_genrand).
func (r *Random) Seed(seed uint32) {
	r.mt[0] = seed
	for i := 1; i < 624; i++ {
		prev := r.mt[i-1]
		r.mt[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	r.idx = 624
}

// Next returns the next raw 32-bit output, as Stella's Random::next does.
func (r *Random) Next() uint32 {
	if r.idx >= 624 {
		r.twist()
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// NextDouble returns the next output divided by 2^32, in [0, 1).
func (r *Random) NextDouble() float64 {
	return float64(r.Next()) / 4294967296.0
}

func (r *Random) twist() {
	const upper, lower = 0x80000000, 0x7fffffff
	for i := 0; i < 624; i++ {
		y := (r.mt[i] & upper) | (r.mt[(i+1)%624] & lower)
		v := r.mt[(i+397)%624] ^ (y >> 1)
		if y&1 != 0 {
			v ^= 0x9908b0df
		}
		r.mt[i] = v
	}
	r.idx = 0
}
