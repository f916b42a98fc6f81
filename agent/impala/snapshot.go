package impala

import "sync/atomic"

// snapshot is one published copy of the learner's weights. Once published it is only
// read, until no actor holds it and the learner reuses its buffers for a later version.
type snapshot struct {
	version int64       // learner updates applied to these weights
	weights [][]float32 // in acNet.params order
	refs    atomic.Int32
}

// snapshots is a versioned, reference-counted set of weight copies: the learner
// publishes a copy after each update, and actors take the latest one atomically and
// copy it into their own network. A buffer is rewritten only when it is not the
// latest and no actor holds it, so an actor never reads weights being written (the
// optimiser writes the learner's own tensors, which actors never see). With actors that
// copy quickly two or three buffers are in use (double buffering).
type snapshots struct {
	latest atomic.Pointer[snapshot]
	// version is the latest snapshot's version, for readers that hold no reference: a
	// snapshot that is no longer the latest may be rewritten, its version with it.
	version atomic.Int64
	all     []*snapshot // owned by the publishing goroutine
}

// publish copies weights into a free buffer and makes it the latest version. It is
// called by one goroutine (the learner).
func (s *snapshots) publish(weights [][]float32, version int64) {
	cur := s.latest.Load()
	var free *snapshot
	for _, b := range s.all {
		if b != cur && b.refs.Load() == 0 {
			free = b
			break
		}
	}
	if free == nil {
		free = &snapshot{weights: make([][]float32, len(weights))}
		for i, w := range weights {
			free.weights[i] = make([]float32, len(w))
		}
		s.all = append(s.all, free)
	}
	for i, w := range weights {
		copy(free.weights[i], w)
	}
	free.version = version
	s.latest.Store(free)
	s.version.Store(version)
}

// acquire returns the latest snapshot, held until release. A buffer the learner may be
// rewriting is never returned: after taking a reference the snapshot is checked to
// still be the latest, and the learner only rewrites buffers that are not.
func (s *snapshots) acquire() *snapshot {
	for {
		sn := s.latest.Load()
		sn.refs.Add(1)
		if s.latest.Load() == sn {
			return sn
		}
		sn.refs.Add(-1)
	}
}

// release drops a reference taken by acquire.
func (sn *snapshot) release() { sn.refs.Add(-1) }

// latestVersion is the version of the latest snapshot. It reads the copy kept beside
// the pointer, not the snapshot's own field: between loading the pointer and reading
// the field, the learner may publish twice and rewrite that buffer.
func (s *snapshots) latestVersion() int64 { return s.version.Load() }
