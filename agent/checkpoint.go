package agent

import (
	"encoding/gob"
	"fmt"
	"io"
	"os"

	"github.com/rlpool/rlpool/agent/model"
)

// CheckpointFormat is the version of the Checkpoint layout; Load rejects others.
const CheckpointFormat = 1

// Checkpoint is everything a learner needs to continue a run exactly: weights,
// optimiser moments, normalisation statistics, generator states, env states and
// counters, as named arrays. Learners choose the names; the runner adds its own under
// the "run." prefix.
type Checkpoint struct {
	Format   int
	Algo     string
	TaskID   string
	EnvSteps int64
	F32      map[string][]float32
	F64      map[string][]float64
	I64      map[string][]int64
	Bytes    map[string][]byte
	Blobs    map[string][][]byte
}

// NewCheckpoint returns an empty checkpoint for a learner and task.
func NewCheckpoint(algo, task string, envSteps int64) *Checkpoint {
	return &Checkpoint{Format: CheckpointFormat, Algo: algo, TaskID: task, EnvSteps: envSteps,
		F32: map[string][]float32{}, F64: map[string][]float64{}, I64: map[string][]int64{},
		Bytes: map[string][]byte{}, Blobs: map[string][][]byte{}}
}

// Write encodes the checkpoint (gob).
func (c *Checkpoint) Write(w io.Writer) error {
	if err := gob.NewEncoder(w).Encode(c); err != nil {
		return fmt.Errorf("agent: write checkpoint: %w", err)
	}
	return nil
}

// ReadCheckpointFile opens path and decodes the checkpoint in it.
func ReadCheckpointFile(path string) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCheckpoint(f)
}

// ReadCheckpoint decodes a checkpoint written by Write.
func ReadCheckpoint(r io.Reader) (*Checkpoint, error) {
	c := &Checkpoint{}
	if err := gob.NewDecoder(r).Decode(c); err != nil {
		return nil, fmt.Errorf("agent: read checkpoint: %w (the file is damaged or not a checkpoint)", err)
	}
	if c.Format != CheckpointFormat {
		return nil, fmt.Errorf("agent: checkpoint format %d; this build reads format %d", c.Format, CheckpointFormat)
	}
	// gob leaves empty maps nil; give Get* and Put* usable maps.
	fresh := NewCheckpoint(c.Algo, c.TaskID, c.EnvSteps)
	if c.F32 == nil {
		c.F32 = fresh.F32
	}
	if c.F64 == nil {
		c.F64 = fresh.F64
	}
	if c.I64 == nil {
		c.I64 = fresh.I64
	}
	if c.Bytes == nil {
		c.Bytes = fresh.Bytes
	}
	if c.Blobs == nil {
		c.Blobs = fresh.Blobs
	}
	return c, nil
}

// PutParams stores params' values under their names.
func (c *Checkpoint) PutParams(prefix string, ps []model.Param) {
	for _, p := range ps {
		c.F32[prefix+p.Name] = append([]float32(nil), p.F32()...)
	}
}

// GetParams loads params' values, checking that each is present with the right size.
func (c *Checkpoint) GetParams(prefix string, ps []model.Param) error {
	for _, p := range ps {
		v, ok := c.F32[prefix+p.Name]
		if !ok {
			return fmt.Errorf("agent: checkpoint has no %s%s; it was written for a different network", prefix, p.Name)
		}
		if len(v) != len(p.F32()) {
			return fmt.Errorf("agent: checkpoint %s%s has %d values, the network needs %d; use the run's own net settings", prefix, p.Name, len(v), len(p.F32()))
		}
		copy(p.F32(), v)
	}
	return nil
}

// PutRMS stores running statistics.
func (c *Checkpoint) PutRMS(name string, r *RunningMeanStd) {
	c.F64[name+".mean"] = append([]float64(nil), r.Mean...)
	c.F64[name+".var"] = append([]float64(nil), r.Var...)
	c.F64[name+".count"] = []float64{r.Count}
}

// GetRMS loads running statistics saved by PutRMS.
func (c *Checkpoint) GetRMS(name string, r *RunningMeanStd) error {
	m, v, n := c.F64[name+".mean"], c.F64[name+".var"], c.F64[name+".count"]
	if len(m) != len(r.Mean) || len(v) != len(r.Var) || len(n) != 1 {
		return fmt.Errorf("agent: checkpoint has no usable %s statistics (want %d values)", name, len(r.Mean))
	}
	copy(r.Mean, m)
	copy(r.Var, v)
	r.Count = n[0]
	return nil
}
