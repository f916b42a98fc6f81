package envpool

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// semaphore is a counting semaphore that spins briefly before it sleeps: a worker that
// just finished a step usually finds the next one queued within a microsecond, and a
// futex sleep and wake costs several.
type semaphore struct {
	count   atomic.Int64
	waiters atomic.Int32
	mu      sync.Mutex
	cond    sync.Cond
}

func newSemaphore() *semaphore {
	s := &semaphore{}
	s.cond.L = &s.mu
	return s
}

// spinTries is how many times acquire polls before it sleeps; each failed poll after
// the first few yields the processor so a spinning worker never starves the sender.
const spinTries = 64

func (s *semaphore) tryAcquire() bool {
	for {
		c := s.count.Load()
		if c <= 0 {
			return false
		}
		if s.count.CompareAndSwap(c, c-1) {
			return true
		}
	}
}

func (s *semaphore) acquire() {
	for i := range spinTries {
		if s.tryAcquire() {
			return
		}
		if i >= 8 {
			runtime.Gosched()
		}
	}
	s.mu.Lock()
	s.waiters.Add(1)
	for !s.tryAcquire() {
		s.cond.Wait()
	}
	s.waiters.Add(-1)
	s.mu.Unlock()
}

// acquireTimeout is acquire giving up after d; it reports whether it took a permit. It
// does not spin: its callers wait on a thread of their own (a C caller's, locked to
// its goroutine), where every yield is a thread switch that also takes a processor
// from the workers.
func (s *semaphore) acquireTimeout(d time.Duration) bool {
	if s.tryAcquire() {
		return true
	}
	expired := false
	t := time.AfterFunc(d, func() {
		s.mu.Lock()
		expired = true
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer t.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waiters.Add(1)
	defer s.waiters.Add(-1)
	for !s.tryAcquire() {
		if expired {
			return false
		}
		s.cond.Wait()
	}
	return true
}

// release adds n permits. The count is raised before the waiter count is read, and a
// sleeper raises the waiter count before it rechecks the permits, so no wake-up is lost.
func (s *semaphore) release(n int) {
	s.count.Add(int64(n))
	if s.waiters.Load() > 0 {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	}
}
