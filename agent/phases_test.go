package agent

import (
	"math"
	"testing"
	"time"
)

// FormatPhases on hand-computed cases: shares of the phases' wall time, CPU in % of one
// core, and no CPU part where the system gave none.
func TestFormatPhases(t *testing.T) {
	for _, tc := range []struct {
		in   []PhaseTime
		want string
	}{
		{[]PhaseTime{{"collect", 10, 16.7}, {"learn", 30, 51.3}}, "collect 10.0 s (25%) at 167% CPU, learn 30.0 s (75%) at 171% CPU"},
		{[]PhaseTime{{"collect", 2, math.NaN()}}, "collect 2.0 s (100%)"},
		{[]PhaseTime{{"collect", 0, 0}}, ""},
		{nil, ""},
	} {
		if got := FormatPhases(tc.in); got != tc.want {
			t.Errorf("FormatPhases(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// PhaseClock keeps the phases in the order they first stopped, adds repeated phases up,
// and counts every interval once: the phases' wall times sum to no more than the time
// between Start and the last Stop, and no less than the pauses inside them.
func TestPhaseClock(t *testing.T) {
	var c PhaseClock
	before := time.Now()
	c.Start()
	time.Sleep(2 * time.Millisecond)
	c.Stop("collect")
	c.Stop("learn")
	time.Sleep(2 * time.Millisecond)
	c.Stop("collect")
	elapsed := time.Since(before).Seconds()
	got := c.Totals()
	if len(got) != 2 || got[0].Name != "collect" || got[1].Name != "learn" {
		t.Fatalf("phases %+v, want collect then learn", got)
	}
	sum := got[0].Wall + got[1].Wall
	if sum > elapsed || got[0].Wall < 0.004 || got[1].Wall < 0 {
		t.Fatalf("walls %+v (sum %v) against %v elapsed and 4 ms of sleep in collect", got, sum, elapsed)
	}
	if cpu := got[0].CPU + got[1].CPU; cpu < 0 {
		t.Fatalf("negative CPU time %v", cpu)
	}
	got[0].Wall = -1 // Totals is a copy
	if c.Totals()[0].Wall < 0 {
		t.Fatal("Totals shares its slice with the clock")
	}
}
