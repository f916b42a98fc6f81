//go:build !unix

package agent

import "math"

// ProcessCPUSeconds is NaN where the process's CPU time is not read: metrics.csv's
// cpu_pct column and the phases' CPU shares are then NaN.
func ProcessCPUSeconds() float64 { return math.NaN() }
