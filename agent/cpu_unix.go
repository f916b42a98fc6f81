//go:build unix

package agent

import (
	"math"
	"syscall"
)

// ProcessCPUSeconds is the CPU time, user and system, of every thread of the process
// so far, the oneDNN and OpenMP threads the Go runtime did not start among them; NaN if
// the system refuses to say. metrics.csv's cpu_pct and the learners' phase times
// (PhaseTimer) read it.
func ProcessCPUSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	return tvSeconds(ru.Utime) + tvSeconds(ru.Stime)
}

func tvSeconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}
