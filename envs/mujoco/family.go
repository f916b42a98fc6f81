package mujoco

// Helpers the MuJoCo families (Gymnasium's tasks, the control suite, the robotics tasks)
// share: compiled models cached once per process, per-env model copies, and the check
// that a simulation has not blown up.

import (
	"math"
	"sync"
)

// ModelCache holds compiled models by key, so that a family compiles each model once
// per process and every env and pool of its tasks shares the read-only mjModel (envs
// that edit their model copy it). The zero value is ready to use.
type ModelCache struct {
	mu sync.Mutex
	m  map[string]*Model
}

// Get returns the model compiled under key, compiling it with compile at the first
// call; a failed compile is not cached.
func (c *ModelCache) Get(key string, compile func() (*Model, error)) (*Model, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.m[key]; ok {
		return m, nil
	}
	m, err := compile()
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*Model{}
	}
	c.m[key] = m
	return m, nil
}

// CopyWithData returns a copy of the model with data made for it: what an env that
// edits its own model (goal markers, target sizes) starts from. On failure nothing is
// left allocated.
func (m *Model) CopyWithData() (*Model, *Data, error) {
	c, err := m.Copy()
	if err != nil {
		return nil, nil, err
	}
	d, err := NewData(c)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return c, d, nil
}

// StateFinite reports whether qpos and qvel hold only finite values: a step that leaves
// a NaN or an infinity there has blown up, and the families end the episode.
func (d *Data) StateFinite() bool {
	for _, v := range [2][]float64{d.Qpos, d.Qvel} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
	}
	return true
}
