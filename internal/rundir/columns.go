package rundir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Columns of metrics.csv, one row per log interval. Readers find them by name in
// the file's header (Columns), so files that gain columns keep reading.
const (
	ColEnvSteps     = "env_steps"          // env steps so far
	ColWall         = "wall_s"             // seconds of training so far (timing-dependent)
	ColStepsPerSec  = "steps_per_s"        // env steps per second over the interval (timing-dependent)
	ColCPU          = "cpu_pct"            // the process's CPU time over the interval's wall time, % of one core (timing-dependent)
	ColEpisodes     = "episodes"           // episodes that ended in the interval
	ColReturnMean   = "return_mean"        // their raw returns: mean, std, min, max
	ColReturnStd    = "return_std"         //
	ColReturnMin    = "return_min"         //
	ColReturnMax    = "return_max"         //
	ColLengthMean   = "length_mean"        // their mean length
	ColRecentReturn = "recent_return_mean" // mean raw return of the last run.recent_episodes episodes
	// ColRecentSuccess, the share of the last run.recent_episodes episodes that
	// succeeded, follows ColRecentReturn for tasks that flag success (agent.Episode).
	ColRecentSuccess = "recent_success_rate"
)

// metricsFixed are metrics.csv's leading columns in order.
var metricsFixed = []string{ColEnvSteps, ColWall, ColStepsPerSec, ColCPU, ColEpisodes, ColReturnMean, ColReturnStd,
	ColReturnMin, ColReturnMax, ColLengthMean, ColRecentReturn}

// MetricsHeader is metrics.csv's header: the fixed columns (with the recent success
// rate for tasks that flag success), then the learner's statistics (loss terms,
// entropy, ...) under their own names.
func MetricsHeader(success bool, stats []string) []string {
	h := append([]string(nil), metricsFixed...)
	if success {
		h = append(h, ColRecentSuccess)
	}
	return append(h, stats...)
}

// IsMetricsFixed reports whether a metrics.csv column is one of the fixed ones
// rather than a learner's statistic.
func IsMetricsFixed(name string) bool {
	if name == ColRecentSuccess {
		return true
	}
	for _, c := range metricsFixed {
		if c == name {
			return true
		}
	}
	return false
}

// Groups of metrics.csv columns, by what they measure.
const (
	GroupEpisode = "episode" // the episodes that ended: counts, returns, lengths
	GroupPerf    = "perf"    // time and throughput
	GroupTrain   = "train"   // the learner's statistics
)

// MetricsGroup says what a metrics.csv column measures: GroupEpisode, GroupPerf,
// or GroupTrain for the rest (the learner's statistics; env_steps, the x axis, is
// no measurement). TensorBoard files its panels under these names.
func MetricsGroup(name string) string {
	switch name {
	case ColEpisodes, ColReturnMean, ColReturnStd, ColReturnMin, ColReturnMax, ColLengthMean, ColRecentReturn, ColRecentSuccess:
		return GroupEpisode
	case ColWall, ColStepsPerSec, ColCPU:
		return GroupPerf
	}
	return GroupTrain
}

// Columns of episodes.csv, one row per ended episode.
const (
	ColEpisodeStep = "env_step" // the env step at which the episode ended
	ColEnvID       = "env_id"   // which of the pool's environments played it
	ColReturn      = "return"   // its raw return
	ColLength      = "length"   // its length in steps
	ColSuccess     = "success"  // 1 if it succeeded, else 0: only for tasks that flag success
)

// EpisodesHeader is episodes.csv's header, with the success column for tasks that
// flag success.
func EpisodesHeader(success bool) []string {
	h := []string{ColEpisodeStep, ColEnvID, ColReturn, ColLength}
	if success {
		h = append(h, ColSuccess)
	}
	return h
}

// Columns finds a CSV file's columns by name: readers look a column up in the
// header the file has, never by its position, so a file with more columns, or its
// columns in another order, reads the same.
type Columns struct {
	names []string
	at    map[string]int
}

// NewColumns indexes a CSV header.
func NewColumns(header []string) Columns {
	at := make(map[string]int, len(header))
	for i, h := range header {
		if _, dup := at[h]; !dup {
			at[h] = i
		}
	}
	return Columns{names: header, at: at}
}

// Index returns the position of a column, or -1 when the header lacks it.
func (c Columns) Index(name string) int {
	if i, ok := c.at[name]; ok {
		return i
	}
	return -1
}

// Require returns an error naming the first of names the header of file lacks.
func (c Columns) Require(file string, names ...string) error {
	for _, n := range names {
		if c.Index(n) < 0 {
			return fmt.Errorf("rundir: %s has no column %s (its columns: %s)", file, n, strings.Join(c.names, ","))
		}
	}
	return nil
}

// Field returns a row's text in a column, or "" when the header or the row lacks it.
func (c Columns) Field(row []string, name string) string {
	if i := c.Index(name); i >= 0 && i < len(row) {
		return row[i]
	}
	return ""
}

// Float returns a row's number in a column, or NaN when the column is missing or
// does not hold a number.
func (c Columns) Float(row []string, name string) float64 {
	v, err := strconv.ParseFloat(c.Field(row, name), 64)
	if err != nil {
		return math.NaN()
	}
	return v
}
