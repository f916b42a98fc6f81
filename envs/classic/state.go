package classic

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// seeded is an env's random generator with the PCG source kept, so that the env can
// save and restore it: a resumed training run then continues every episode exactly.
type seeded struct {
	pcg *rand.PCG
	rng *rand.Rand
}

// newSeeded returns the per-env generator: a PCG stream fixed by the env's seed.
func newSeeded(seed int64) seeded {
	pcg := rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)
	return seeded{pcg: pcg, rng: rand.New(pcg)}
}

// marshal encodes the generator followed by the given state values.
func (s *seeded) marshal(vals ...float64) ([]byte, error) {
	g, err := s.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	out := binary.AppendUvarint(nil, uint64(len(g)))
	out = append(out, g...)
	for _, v := range vals {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
	}
	return out, nil
}

// unmarshal restores what marshal wrote into the generator and the given values.
func (s *seeded) unmarshal(data []byte, vals ...*float64) error {
	n, k := binary.Uvarint(data)
	if k <= 0 || uint64(len(data)-k) < n {
		return fmt.Errorf("classic: env state of %d bytes is truncated", len(data))
	}
	if err := s.pcg.UnmarshalBinary(data[k : k+int(n)]); err != nil {
		return fmt.Errorf("classic: env state: %w", err)
	}
	rest := data[k+int(n):]
	if len(rest) != 8*len(vals) {
		return fmt.Errorf("classic: env state holds %d values, want %d", len(rest)/8, len(vals))
	}
	for i, v := range vals {
		*v = math.Float64frombits(binary.LittleEndian.Uint64(rest[8*i:]))
	}
	return nil
}

// MarshalBinary saves the cart-pole's state and generator.
func (e *CartPole) MarshalBinary() ([]byte, error) {
	s := e.state
	return e.marshal(s[0], s[1], s[2], s[3], float64(e.stepsBeyond))
}

// UnmarshalBinary restores what MarshalBinary saved.
func (e *CartPole) UnmarshalBinary(data []byte) error {
	var beyond float64
	s := &e.state
	if err := e.unmarshal(data, &s[0], &s[1], &s[2], &s[3], &beyond); err != nil {
		return err
	}
	e.stepsBeyond = int(beyond)
	return nil
}

// MarshalBinary saves the acrobot's state and generator.
func (e *Acrobot) MarshalBinary() ([]byte, error) {
	s := e.state
	return e.marshal(s[0], s[1], s[2], s[3])
}

// UnmarshalBinary restores what MarshalBinary saved.
func (e *Acrobot) UnmarshalBinary(data []byte) error {
	s := &e.state
	return e.unmarshal(data, &s[0], &s[1], &s[2], &s[3])
}

// MarshalBinary saves the car's state and generator.
func (e *MountainCar) MarshalBinary() ([]byte, error) { return e.marshal(e.pos, e.vel) }

// UnmarshalBinary restores what MarshalBinary saved.
func (e *MountainCar) UnmarshalBinary(data []byte) error { return e.unmarshal(data, &e.pos, &e.vel) }

// MarshalBinary saves the pendulum's state and generator.
func (e *Pendulum) MarshalBinary() ([]byte, error) {
	return e.marshal(e.theta, e.thDot, float64(e.lastU))
}

// UnmarshalBinary restores what MarshalBinary saved.
func (e *Pendulum) UnmarshalBinary(data []byte) error {
	var u float64
	if err := e.unmarshal(data, &e.theta, &e.thDot, &u); err != nil {
		return err
	}
	e.lastU = float32(u)
	return nil
}
