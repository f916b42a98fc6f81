package impala

import (
	"sync"
	"testing"
)

// Readers of the latest version hold no reference, so they must never read a buffer's
// version while the learner rewrites it: under the race detector, an actor polling
// latestVersion while the learner publishes (and reuses buffers) reports no race, and
// the versions it sees never go back. (Before latestVersion read its own copy, this
// reported the read of a reused buffer's version field.)
func TestLatestVersionWhilePublishing(t *testing.T) {
	var s snapshots
	weights := [][]float32{make([]float32, 64)}
	s.publish(weights, 0)
	const versions = 2000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		last := int64(0)
		for last < versions {
			v := s.latestVersion()
			if v < last {
				t.Errorf("version went back from %d to %d", last, v)
				return
			}
			last = v
		}
	}()
	for v := int64(1); v <= versions; v++ {
		weights[0][0] = float32(v)
		s.publish(weights, v)
	}
	wg.Wait()
	if got := s.latestVersion(); got != versions {
		t.Errorf("latest version %d, want %d", got, versions)
	}
}
