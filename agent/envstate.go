package agent

import (
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/rlpool/rlpool/envpool"
)

// ErrNoEnvState means an env cannot save its state (it does not implement
// encoding.BinaryMarshaler and BinaryUnmarshaler), so a resumed run restarts episodes
// instead of continuing them exactly.
var ErrNoEnvState = errors.New("agent: env does not implement encoding.BinaryMarshaler/BinaryUnmarshaler; resume restarts its episodes")

// TimeLimit wraps a factory so that each env reports Truncated after maxSteps steps of
// an episode (Gymnasium's TimeLimit); maxSteps <= 0 adds no limit. Learners run the pool
// with its own limit disabled and use this instead, so that the step counter is part of
// the env's saved state and a resumed run truncates episodes exactly where an
// uninterrupted one would.
func TimeLimit(f envpool.Factory, maxSteps int) envpool.Factory {
	return func(index int, seed int64) (envpool.Env, error) {
		e, err := f(index, seed)
		if err != nil || e == nil {
			return e, err
		}
		return &timeLimitEnv{inner: e, max: maxSteps}, nil
	}
}

type timeLimitEnv struct {
	inner   envpool.Env
	max     int
	elapsed int
}

// Reset starts an episode and its step count.
func (t *timeLimitEnv) Reset() { t.elapsed = 0; t.inner.Reset() }

// NewGame starts an episode in a new game and its step count, passing the pool's
// distinction between the two resets on to the wrapped env (envpool.NewGamer).
func (t *timeLimitEnv) NewGame() { t.elapsed = 0; envpool.StartNewGame(t.inner) }

// Step steps the wrapped env and reports Truncated once the limit is reached.
func (t *timeLimitEnv) Step(a []float32) envpool.StepResult {
	r := t.inner.Step(a)
	t.elapsed++
	if t.max > 0 && t.elapsed >= t.max {
		r.Truncated = true
	}
	return r
}

// Observe passes through to the wrapped env.
func (t *timeLimitEnv) Observe(obs envpool.Obs, info []float32) { t.inner.Observe(obs, info) }

// Close closes the wrapped env when it holds resources.
func (t *timeLimitEnv) Close() error {
	if c, ok := t.inner.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// MarshalBinary saves the step counter and the wrapped env's state.
func (t *timeLimitEnv) MarshalBinary() ([]byte, error) {
	m, ok := t.inner.(encoding.BinaryMarshaler)
	if !ok {
		return nil, ErrNoEnvState
	}
	b, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return append(binary.LittleEndian.AppendUint64(nil, uint64(t.elapsed)), b...), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (t *timeLimitEnv) UnmarshalBinary(b []byte) error {
	u, ok := t.inner.(encoding.BinaryUnmarshaler)
	if !ok {
		return ErrNoEnvState
	}
	if len(b) < 8 {
		return fmt.Errorf("agent: env state of %d bytes is too short", len(b))
	}
	t.elapsed = int(binary.LittleEndian.Uint64(b))
	return u.UnmarshalBinary(b[8:])
}
