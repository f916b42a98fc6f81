//go:build !unix

package trainer

import "math"

// processCPUSeconds is NaN where the process's CPU time is not read: metrics.csv's
// cpu_pct column is then NaN.
func processCPUSeconds() float64 { return math.NaN() }
