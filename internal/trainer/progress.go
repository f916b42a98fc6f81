package trainer

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"
)

// Progress is a single line of custom fields (steps, rate, elapsed, ETA, recent and
// best return) written in two modes: redrawn in place with "\r\x1b[K" on a terminal,
// plain newline-terminated lines elsewhere. A progress-bar library such as
// github.com/schollz/progressbar/v3 draws a bar with its own fields and its own
// throttling and has no plain-line mode for logs, so a dependency would buy little
// over the small pure renderer below, which the tests pin down exactly.

const (
	// terminalEvery and plainEvery are the least time between two progress lines: a
	// terminal is redrawn five times a second, a log file (CI, nohup, Slurm) gets a
	// line every 30 s between the periodic metrics lines on Stdout.
	terminalEvery = 200 * time.Millisecond
	plainEvery    = 30 * time.Second
)

// progressInfo is what a progress line shows.
type progressInfo struct {
	Steps, Total int64
	Elapsed      time.Duration // wall time of the run, resumed sessions included
	StepsPerSec  float64       // the rate since this invocation of train started (a resumed run starts afresh)
	Recent, Best float64       // recent mean return and the best of it; NaN when unknown
}

// renderProgress formats a progress line (without "\r" or newline). The ETA assumes
// the current rate; it is "?" before any step has been timed.
func renderProgress(p progressInfo) string {
	pct := 0.0
	if p.Total > 0 {
		pct = 100 * float64(p.Steps) / float64(p.Total)
	}
	eta := "?"
	switch {
	case p.Steps >= p.Total:
		eta = "0s"
	case p.StepsPerSec > 0:
		eta = fmtDuration(time.Duration(float64(p.Total-p.Steps) / p.StepsPerSec * float64(time.Second)))
	}
	return fmt.Sprintf("%d/%d steps (%.0f%%) | %.0f steps/s | elapsed %s | ETA %s | return %s | best %s",
		p.Steps, p.Total, pct, p.StepsPerSec, fmtDuration(p.Elapsed), eta, fmtReturn(p.Recent), fmtReturn(p.Best))
}

// fmtDuration rounds d to whole seconds: 7s, 4m05s, 1h02m03s.
func fmtDuration(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm%02ds", s/3600, s/60%60, s%60)
}

func fmtReturn(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// fitWidth cuts the (ASCII) line to width-1 columns so that it never wraps, which
// would leave "\r" redrawing only its last row; width 0 (unknown) leaves it whole.
func fitWidth(line string, width int) string {
	if width <= 1 || len(line) < width {
		return line
	}
	return line[:width-1]
}

// isTerminal reports whether w is a terminal: an *os.File whose descriptor answers
// the terminal-attributes ioctl. A file, a pipe or a bytes.Buffer is not.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && f != nil && fileIsTerminal(f)
}

// progress writes the progress line when Options.Progress is set: redrawn in place on
// a terminal at most every terminalEvery, a plain line every plainEvery elsewhere.
// force (at the end of the run) writes it regardless of the time.
func (r *runner) progress(force bool) {
	if !r.opts.Progress {
		return
	}
	every := plainEvery
	if r.term {
		every = terminalEvery
	}
	if !force && time.Since(r.lastDraw) < every {
		return
	}
	r.lastDraw = time.Now()
	steps := r.learner.EnvSteps()
	line := renderProgress(progressInfo{
		Steps: steps, Total: r.cfg.Run.TotalSteps,
		Elapsed:     time.Duration(r.wall() * float64(time.Second)),
		StepsPerSec: float64(steps-r.startSteps) / math.Max(time.Since(r.start).Seconds(), 1e-9),
		Recent:      r.recentMean(), Best: r.best,
	})
	if r.term {
		if f, ok := r.opts.Stderr.(*os.File); ok {
			line = fitWidth(line, terminalWidth(f))
		}
		fmt.Fprint(r.opts.Stderr, "\r\x1b[K"+line)
	} else {
		fmt.Fprintln(r.opts.Stderr, "train: "+line)
	}
}

// clearProgress erases the terminal progress line before a line on Stdout.
func (r *runner) clearProgress() {
	if r.opts.Progress && r.term {
		fmt.Fprint(r.opts.Stderr, "\r\x1b[K")
	}
}

// note writes an early-feedback line (envs created, first iteration done) when
// progress is on, so that a slow start (an Atari pool, a first large rollout) does not
// look like a hang.
func (r *runner) note(format string, args ...any) {
	if r.opts.Progress {
		r.clearProgress()
		fmt.Fprintf(r.opts.Stderr, "train: "+format+"\n", args...)
	}
}

// updateBest raises the best recent mean return once the recent window is full (the
// criterion the target uses).
func (r *runner) updateBest() {
	if len(r.st.Recent) < r.cfg.Run.RecentEpisodes {
		return
	}
	if m := r.recentMean(); math.IsNaN(r.best) || m > r.best {
		r.best = m
	}
}
