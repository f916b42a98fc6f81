package agent

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// PhaseTimer is implemented by learners whose iterations run in phases one after the
// other (PPO: collecting a rollout, then learning from it). `train` prints the phases
// at the end of a run, so that a user can see where the wall time went and how much of
// the machine each phase kept busy: a phase at 170% CPU on two cores leaves 15% idle.
type PhaseTimer interface {
	// Phases returns each phase's totals since the learner was built, in a fixed
	// order; nil when the phases overlapped and cannot be told apart.
	Phases() []PhaseTime
}

// PhaseTime is one phase's wall time and the process's CPU time during it, in seconds.
type PhaseTime struct {
	Name      string
	Wall, CPU float64
}

// PhaseClock accumulates PhaseTimes: Start a phase, Stop it, Totals to read them.
// The CPU time is the whole process's (ProcessCPUSeconds), so a phase's CPU includes
// every thread that ran during it: env workers, oneDNN's OpenMP team.
type PhaseClock struct {
	totals []PhaseTime
	at     time.Time
	cpuAt  float64
}

// Start marks the beginning of a phase.
func (c *PhaseClock) Start() {
	c.at, c.cpuAt = time.Now(), ProcessCPUSeconds()
}

// Stop adds the time since Start to the phase name and starts the next phase.
func (c *PhaseClock) Stop(name string) {
	now, cpu := time.Now(), ProcessCPUSeconds()
	i := slices.IndexFunc(c.totals, func(p PhaseTime) bool { return p.Name == name })
	if i < 0 { // a learner has a handful of phases: a scan finds one
		i = len(c.totals)
		c.totals = append(c.totals, PhaseTime{Name: name})
	}
	c.totals[i].Wall += now.Sub(c.at).Seconds()
	c.totals[i].CPU += cpu - c.cpuAt
	c.at, c.cpuAt = now, cpu
}

// Totals returns a copy of the phases' totals in the order they first stopped.
func (c *PhaseClock) Totals() []PhaseTime { return append([]PhaseTime(nil), c.totals...) }

// FormatPhases renders phases as one line: each phase's wall time, its share of the
// phases' wall time and its CPU use in % of one core, e.g.
// "collect 14.9 s (34%) at 167% CPU, learn 29.3 s (66%) at 171% CPU". An empty
// string when there are none.
func FormatPhases(phases []PhaseTime) string {
	total := 0.0
	for _, p := range phases {
		total += p.Wall
	}
	if total <= 0 {
		return ""
	}
	parts := make([]string, 0, len(phases))
	for _, p := range phases {
		s := fmt.Sprintf("%s %.1f s (%.0f%%)", p.Name, p.Wall, 100*p.Wall/total)
		if p.Wall > 0 && !math.IsNaN(p.CPU) { // NaN where the system does not say
			s += fmt.Sprintf(" at %.0f%% CPU", 100*p.CPU/p.Wall)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
