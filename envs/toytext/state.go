package toytext

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// pcgSize is the length of a PCG generator's saved state.
var pcgSize = len(must(rand.NewPCG(0, 0).MarshalBinary()))

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err) // a PCG always marshals
	}
	return b
}

// save encodes the generator (pcgSize bytes) followed by the env's integer state
// values as signed varints.
func (g *gen) save(vals ...int64) ([]byte, error) {
	out, err := g.pcg.AppendBinary(make([]byte, 0, pcgSize+4*len(vals)))
	for _, v := range vals {
		out = binary.AppendVarint(out, v)
	}
	return out, err
}

// load restores the generator that save wrote and returns the values after it.
func (g *gen) load(data []byte) ([]int64, error) {
	if len(data) < pcgSize {
		return nil, fmt.Errorf("toytext: env state of %d bytes is truncated", len(data))
	}
	if err := g.pcg.UnmarshalBinary(data[:pcgSize]); err != nil {
		return nil, fmt.Errorf("toytext: env state: %w", err)
	}
	var vals []int64
	for rest := data[pcgSize:]; len(rest) > 0; {
		v, m := binary.Varint(rest)
		if m <= 0 {
			return nil, fmt.Errorf("toytext: env state: value %d is malformed", len(vals))
		}
		vals, rest = append(vals, v), rest[m:]
	}
	return vals, nil
}

// loadExact restores the generator and exactly len(dst) values, value i within
// [lo[i], hi[i]), so that a state saved by another task is refused.
func (g *gen) loadExact(data []byte, dst []*int, lo, hi []int) error {
	vals, err := g.load(data)
	if err != nil {
		return err
	}
	if len(vals) != len(dst) {
		return fmt.Errorf("toytext: env state holds %d values, want %d (saved by another task?)", len(vals), len(dst))
	}
	for i, v := range vals {
		if v < int64(lo[i]) || v >= int64(hi[i]) {
			return fmt.Errorf("toytext: env state value %d is %d, outside [%d, %d) (saved by another task?)", i, v, lo[i], hi[i])
		}
	}
	for i, v := range vals {
		*dst[i] = int(v)
	}
	return nil
}

// probCode stores a transition probability (in [0, 1]) exactly as an integer: its
// bits, which fit an int64 since the sign bit is clear.
func probCode(p float64) int64 { return int64(math.Float64bits(p)) }

// probFrom is the probability that probCode stored.
func probFrom(c int) float64 { return math.Float64frombits(uint64(c)) }

// probBits is the exclusive upper bound of probCode's values: the bits of 1, plus one.
var probBits = int(math.Float64bits(1)) + 1

// MarshalBinary saves the player's tile, the last action and the last probability.
func (e *FrozenLake) MarshalBinary() ([]byte, error) {
	return e.save(int64(e.s), int64(e.last), probCode(e.prob))
}

// UnmarshalBinary restores what MarshalBinary saved.
func (e *FrozenLake) UnmarshalBinary(data []byte) error {
	var p int
	if err := e.loadExact(data, []*int{&e.s, &e.last, &p}, []int{0, -1, 0}, []int{e.nrow * e.ncol, 4, probBits}); err != nil {
		return err
	}
	e.prob = probFrom(p)
	return nil
}

// MarshalBinary saves the state number and the last action.
func (e *Taxi) MarshalBinary() ([]byte, error) { return e.save(int64(e.s), int64(e.last)) }

// UnmarshalBinary restores what MarshalBinary saved.
func (e *Taxi) UnmarshalBinary(data []byte) error {
	return e.loadExact(data, []*int{&e.s, &e.last}, []int{0, -1}, []int{taxiStates, 6})
}

// MarshalBinary saves the player's cell and the last probability.
func (e *CliffWalking) MarshalBinary() ([]byte, error) {
	return e.save(int64(e.s), probCode(e.prob))
}

// UnmarshalBinary restores what MarshalBinary saved.
func (e *CliffWalking) UnmarshalBinary(data []byte) error {
	var p int
	if err := e.loadExact(data, []*int{&e.s, &p}, []int{0, 0}, []int{cliffStates, probBits}); err != nil {
		return err
	}
	e.prob = probFrom(p)
	return nil
}

// MarshalBinary saves whether the hand is over and both hands.
func (e *Blackjack) MarshalBinary() ([]byte, error) {
	vals := []int64{0, int64(len(e.player))}
	if e.over {
		vals[0] = 1
	}
	for _, c := range e.player {
		vals = append(vals, int64(c))
	}
	vals = append(vals, int64(len(e.dealer)))
	for _, c := range e.dealer {
		vals = append(vals, int64(c))
	}
	return e.save(vals...)
}

// UnmarshalBinary restores what MarshalBinary saved.
func (e *Blackjack) UnmarshalBinary(data []byte) error {
	vals, err := e.load(data)
	if err != nil {
		return err
	}
	hand := func(at int) ([]int, int, error) {
		if at >= len(vals) || vals[at] < 2 || int64(len(vals)-at-1) < vals[at] {
			return nil, 0, fmt.Errorf("toytext: blackjack state is malformed (a hand at value %d)", at)
		}
		h := make([]int, vals[at])
		for i := range h {
			if c := vals[at+1+i]; c < 1 || c > 10 {
				return nil, 0, fmt.Errorf("toytext: blackjack state holds a card of %d", c)
			}
			h[i] = int(vals[at+1+i])
		}
		return h, at + 1 + len(h), nil
	}
	if len(vals) == 0 {
		return fmt.Errorf("toytext: blackjack state has no values")
	}
	player, at, err := hand(1)
	if err != nil {
		return err
	}
	dealer, at, err := hand(at)
	if err != nil {
		return err
	}
	if at != len(vals) {
		return fmt.Errorf("toytext: blackjack state has %d values after the hands", len(vals)-at)
	}
	e.over, e.player, e.dealer = vals[0] == 1, player, dealer
	return nil
}

// MarshalBinary saves the ball's cell and the paddle's column.
func (e *Catch) MarshalBinary() ([]byte, error) {
	return e.save(int64(e.ballRow), int64(e.ballCol), int64(e.paddle))
}

// UnmarshalBinary restores what MarshalBinary saved.
func (e *Catch) UnmarshalBinary(data []byte) error {
	return e.loadExact(data, []*int{&e.ballRow, &e.ballCol, &e.paddle}, []int{0, 0, 0}, []int{e.height, e.width, e.width})
}

// MarshalBinary saves the walker's state.
func (e *NChain) MarshalBinary() ([]byte, error) { return e.save(int64(e.s)) }

// UnmarshalBinary restores what MarshalBinary saved.
func (e *NChain) UnmarshalBinary(data []byte) error {
	return e.loadExact(data, []*int{&e.s}, []int{0}, []int{nchainStates})
}
