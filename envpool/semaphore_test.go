package envpool

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hangLimit bounds every wait in these tests, so that a lost wake-up fails the test
// instead of hanging it. It is a safety net, not a speed requirement: a correct
// semaphore finishes each wait in well under a millisecond.
const hangLimit = 30 * time.Second

// waitClosed fails the test if done is not closed within hangLimit.
func waitClosed(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(hangLimit):
		t.Fatalf("%s: still waiting after %v (a lost wake-up?)", what, hangLimit)
	}
}

// waitUntil polls cond, yielding the processor, and fails the test if it does not hold
// within hangLimit.
func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(hangLimit); !cond(); runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached after %v", what, hangLimit)
		}
	}
}

func TestSemaphoreCountsPermits(t *testing.T) {
	tests := []struct {
		name     string
		releases []int // successive release calls
		want     int   // permits tryAcquire then takes before it fails
	}{
		{"new semaphore has none", nil, 0},
		{"one release of one", []int{1}, 1},
		{"one release of many", []int{5}, 5},
		{"releases add up", []int{2, 3, 1}, 6},
		{"release of zero adds nothing", []int{0, 2, 0}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSemaphore()
			for _, n := range tc.releases {
				s.release(n)
			}
			got := 0
			for s.tryAcquire() {
				got++
				if got > tc.want {
					break
				}
			}
			if got != tc.want {
				t.Fatalf("tryAcquire succeeded %d times, want %d", got, tc.want)
			}
			if c := s.count.Load(); c != 0 {
				t.Fatalf("count %d after taking every permit, want 0", c)
			}
		})
	}
}

func TestSemaphoreAcquireTakesAvailablePermitWithoutBlocking(t *testing.T) {
	s := newSemaphore()
	s.release(3)
	for range 3 {
		s.acquire() // would block forever if a permit were lost
	}
	if s.tryAcquire() {
		t.Fatal("a fourth permit was taken after releasing three")
	}
	if w := s.waiters.Load(); w != 0 {
		t.Fatalf("%d waiters recorded by acquires that never slept", w)
	}
}

func TestSemaphoreAcquireBlocksUntilRelease(t *testing.T) {
	s := newSemaphore()
	done := make(chan struct{})
	go func() {
		s.acquire()
		close(done)
	}()
	// Once the goroutine counts itself as a waiter it has spun, found no permit, and
	// is asleep in (or about to enter) cond.Wait: it cannot have returned.
	waitUntil(t, func() bool { return s.waiters.Load() == 1 }, "acquire going to sleep")
	select {
	case <-done:
		t.Fatal("acquire returned with no permit released")
	default:
	}
	s.release(1)
	waitClosed(t, done, "acquire after release(1)")
	if s.tryAcquire() {
		t.Fatal("the released permit was not consumed by the waiter")
	}
	if w := s.waiters.Load(); w != 0 {
		t.Fatalf("waiters = %d after the waiter left, want 0", w)
	}
}

// TestSemaphoreReleaseWakesExactlyN blocks several goroutines, releases fewer permits
// than there are waiters, and checks that exactly that many get through (release
// broadcasts, so the others must go back to sleep), then releases the rest.
func TestSemaphoreReleaseWakesExactlyN(t *testing.T) {
	tests := []struct{ waiters, first int }{
		{1, 1},
		{4, 1},
		{4, 3},
		{8, 4},
		{8, 8},
	}
	for _, tc := range tests {
		s := newSemaphore()
		var through atomic.Int32
		var wg sync.WaitGroup
		for range tc.waiters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.acquire()
				through.Add(1)
			}()
		}
		waitUntil(t, func() bool { return s.waiters.Load() == int32(tc.waiters) }, "every goroutine asleep")

		s.release(tc.first)
		left := int32(tc.waiters - tc.first)
		// A waiter leaves the waiter count only once it holds a permit, so when the
		// count is down to left, first waiters hold permits and the others are asleep.
		waitUntil(t, func() bool { return s.waiters.Load() == left }, "woken waiters leaving")
		waitUntil(t, func() bool { return through.Load() == int32(tc.first) }, "woken waiters returning")
		if c := s.count.Load(); c != 0 {
			t.Fatalf("%d waiters, release(%d): %d permits left over, want 0", tc.waiters, tc.first, c)
		}

		s.release(int(left))
		all := make(chan struct{})
		go func() { wg.Wait(); close(all) }()
		waitClosed(t, all, "the remaining waiters")
		if got := through.Load(); got != int32(tc.waiters) {
			t.Fatalf("%d waiters got through, want %d", got, tc.waiters)
		}
		if s.tryAcquire() {
			t.Fatalf("%d waiters: a permit is left after %d were released and taken", tc.waiters, tc.waiters)
		}
	}
}

// TestSemaphorePingPongLosesNoWakeUp hands a token back and forth between two
// goroutines through two semaphores many times. Each hand-off races a release against
// a waiter going to sleep; one lost wake-up stalls both sides.
func TestSemaphorePingPongLosesNoWakeUp(t *testing.T) {
	const rounds = 20000
	ping, pong := newSemaphore(), newSemaphore()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range rounds {
			ping.acquire()
			pong.release(1)
		}
	}()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for range rounds {
			ping.release(1)
			pong.acquire()
		}
	}()
	waitClosed(t, done, "ponger")
	waitClosed(t, finished, "pinger")
	if ping.count.Load() != 0 || pong.count.Load() != 0 {
		t.Fatalf("permits left: ping %d pong %d, want 0 and 0", ping.count.Load(), pong.count.Load())
	}
}

// TestSemaphoreConservesPermitsAcrossGoroutines has producers release permits in
// batches of varying size while more consumers than cores acquire them: every permit
// is taken exactly once, and none is left.
func TestSemaphoreConservesPermitsAcrossGoroutines(t *testing.T) {
	const producers, consumers, perProducer = 3, 6, 3000
	s := newSemaphore()
	var wg sync.WaitGroup
	var taken atomic.Int64
	for c := range consumers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := producers * perProducer / consumers
			if c == 0 {
				n += producers * perProducer % consumers
			}
			for range n {
				s.acquire()
				taken.Add(1)
			}
		}()
	}
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sent := 0; sent < perProducer; {
				n := min(1+(sent+p)%4, perProducer-sent)
				s.release(n)
				sent += n
			}
		}()
	}
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	waitClosed(t, all, "producers and consumers")
	if got := taken.Load(); got != producers*perProducer {
		t.Fatalf("%d permits taken, want %d", got, producers*perProducer)
	}
	if c, w := s.count.Load(), s.waiters.Load(); c != 0 || w != 0 {
		t.Fatalf("count %d, waiters %d at the end, want 0 and 0", c, w)
	}
}
