package inspect

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rlpool/rlpool/internal/rundir"
)

// WriteList prints the runs table (newest first, as List returns them) and the
// entries that are not runs.
func WriteList(w io.Writer, runs []*Run, skipped []Skipped) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTASK\tALGO\tENV STEPS\tWALL\tRETURN (last N)\tSTATUS")
	for _, r := range runs {
		m, s, n := r.FinalReturn(0)
		status := r.Status
		if r.JobState != "" {
			status += ", " + r.JobState
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, orDash(r.Task), orDash(r.Algo),
			Steps(r.EnvSteps), wallCell(r.WallSeconds), returnCell(m, s, n), status)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(runs) == 0 {
		fmt.Fprintln(w, "(no runs)")
	}
	for _, s := range skipped {
		fmt.Fprintf(w, "not a run: %s (%s)\n", s.Path, s.Reason)
	}
	for _, r := range runs {
		for _, p := range r.Problems {
			fmt.Fprintf(w, "note: %s: %s\n", r.Name, p)
		}
	}
	return nil
}

func returnCell(m, s float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%s +- %s (%d)", num(m), num(s), n)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// num formats a metric compactly: 4 significant digits, "-" for NaN.
func num(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if v != 0 && (math.Abs(v) < 1e-3 || math.Abs(v) >= 1e6) {
		return fmt.Sprintf("%.3g", v)
	}
	s := fmt.Sprintf("%.4g", v)
	if strings.Contains(s, "e") {
		return fmt.Sprintf("%.1f", v)
	}
	return s
}

// Steps formats an env step count: 950, 12.5k, 1.2M.
func Steps(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.3gM", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.3gk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// Duration formats seconds as 42.1s, 3m05s or 2h10m.
func Duration(sec float64) string {
	if math.IsNaN(sec) || sec < 0 {
		return "-"
	}
	switch {
	case sec < 60:
		return fmt.Sprintf("%.1fs", sec)
	case sec < 3600:
		return fmt.Sprintf("%dm%02ds", int(sec)/60, int(sec)%60)
	}
	return fmt.Sprintf("%dh%02dm", int(sec)/3600, int(sec)%3600/60)
}

// sections lists a flattened config's keys grouped by their first component, sorted.
func sections(cfg map[string]any) (names []string, keys map[string][]string) {
	keys = map[string][]string{}
	for k := range cfg {
		sec, _, _ := strings.Cut(k, ".")
		if _, ok := keys[sec]; !ok {
			names = append(names, sec)
		}
		keys[sec] = append(keys[sec], k)
	}
	sort.Strings(names)
	for _, ks := range keys {
		sort.Strings(ks)
	}
	return names, keys
}

// FormatValue writes a config value as TOML would.
func FormatValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case float64:
		if math.IsNaN(x) {
			return "nan"
		}
		return fmt.Sprint(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = FormatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}

// Thresholds are the returns `show` reports the time to: the given ones, or 25, 50,
// 75 and 100% of the way from the first Recent episodes' mean to the run's target.
func (r *Run) Thresholds(given []float64) []float64 {
	if len(given) > 0 {
		return given
	}
	target, ok := r.Target()
	if !ok || len(r.Episodes) == 0 {
		return nil
	}
	first := r.Episodes[:min(len(r.Episodes), max(r.Recent, 1))]
	xs := make([]float64, len(first))
	for i, e := range first {
		xs[i] = e.Return
	}
	base, _ := MeanStd(xs)
	if base >= target {
		return []float64{target}
	}
	var out []float64
	for _, f := range []float64{0.25, 0.5, 0.75, 1} {
		out = append(out, math.Round((base+f*(target-base))*100)/100)
	}
	return out
}

// learnerColumns are metrics.csv's columns written by the learner (after the fixed
// ones), shown in summaries.
func learnerColumns(t *Table) []string {
	var out []string
	for _, h := range t.Header {
		if !rundir.IsMetricsFixed(h) {
			out = append(out, h)
		}
	}
	return out
}

// learnerSections are the config sections that belong to one learner (run.algo).
var learnerSections = map[string]bool{"ppo": true, "impala": true}

// WriteShow prints one run: where and how it ran, its config by section, its metrics
// summary and when it reached each threshold.
func WriteShow(w io.Writer, r *Run, thresholds []float64) error {
	fmt.Fprintf(w, "run        %s\n", r.Path)
	status := r.Status
	if r.Meta != nil && r.Meta.Reason != "" {
		status += " (" + r.Meta.Reason + ")"
	}
	fmt.Fprintf(w, "status     %s\n", status)
	fmt.Fprintf(w, "task       %s   algo %s   seed %d\n", orDash(r.Task), orDash(r.Algo), r.Seed)
	sps := math.NaN()
	if r.WallSeconds > 0 {
		sps = float64(r.EnvSteps) / r.WallSeconds
	}
	fmt.Fprintf(w, "progress   %d env steps in %s (%s steps/s overall)\n", r.EnvSteps, wallCell(r.WallSeconds), num(sps))
	if m := r.Meta; m != nil {
		end := "-"
		if m.EndTime != nil {
			end = m.EndTime.Local().Format(time.DateTime)
		}
		fmt.Fprintf(w, "started    %s   ended %s\n", m.StartTime.Local().Format(time.DateTime), end)
		fmt.Fprintf(w, "built      %s %s, commit %s, BLAS %s, %d CPUs on %s\n", m.Version, m.GoVersion, orDash(m.GitCommit), orDash(m.BLAS), m.CPUs, m.Host)
		if len(m.Resumes) > 0 {
			fmt.Fprintf(w, "resumed    %d time(s)\n", len(m.Resumes))
		}
	}

	fmt.Fprintln(w, "\nconfig")
	names, keys := sections(r.Config)
	for _, sec := range names {
		if learnerSections[sec] && r.Algo != "" && sec != r.Algo {
			continue // another learner's settings: resolved, but unused by this run
		}
		var line strings.Builder
		fmt.Fprintf(&line, "  [%s]", sec)
		width := line.Len()
		for _, k := range keys[sec] {
			item := " " + strings.TrimPrefix(k, sec+".") + "=" + FormatValue(r.Config[k])
			if width+len(item) > 100 {
				fmt.Fprintln(w, line.String())
				line.Reset()
				line.WriteString("     ")
				width = line.Len()
			}
			line.WriteString(item)
			width += len(item)
		}
		fmt.Fprintln(w, line.String())
	}
	if len(names) == 0 {
		fmt.Fprintln(w, "  (no readable config.toml)")
	}

	fmt.Fprintln(w, "\nmetrics")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	m, s, n := r.FinalReturn(0)
	fmt.Fprintf(tw, "  return, last %d episodes\t%s\n", r.Recent, returnCell(m, s, n))
	fmt.Fprintf(tw, "  episodes\t%d\n", len(r.Episodes))
	if len(r.Episodes) > 0 {
		best, bestStep := math.Inf(-1), int64(0)
		for i, p := range r.Curve() {
			if i+1 >= min(r.Recent, len(r.Episodes)) && p.Mean > best {
				best, bestStep = p.Mean, p.Step
			}
		}
		fmt.Fprintf(tw, "  best moving mean (%d episodes)\t%s at %d env steps\n", r.Recent, num(best), bestStep)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, e := range r.Episodes {
			lo, hi = math.Min(lo, e.Return), math.Max(hi, e.Return)
		}
		fmt.Fprintf(tw, "  episode returns\t%s .. %s\n", num(lo), num(hi))
	}
	if len(r.Metrics.Rows) > 0 {
		fmt.Fprintf(tw, "  metrics rows\t%d (last at %d env steps)\n", len(r.Metrics.Rows), int64(r.Metrics.Last(rundir.ColEnvSteps)))
		fmt.Fprintf(tw, "  steps/s (last interval)\t%s\n", num(r.Metrics.Last(rundir.ColStepsPerSec)))
		fmt.Fprintf(tw, "  CPU %% of one core (last interval)\t%s\n", num(r.Metrics.Last(rundir.ColCPU)))
		for _, c := range learnerColumns(&r.Metrics) {
			fmt.Fprintf(tw, "  %s (last)\t%s\n", c, num(r.Metrics.Last(c)))
		}
	}
	tw.Flush()

	ths := r.Thresholds(thresholds)
	if len(ths) > 0 {
		fmt.Fprintf(w, "\ntime to threshold (moving mean of %d episodes)\n", r.Recent)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  THRESHOLD\tENV STEPS\tWALL")
		for _, t := range r.TimeTo(ths) {
			if t.OK {
				fmt.Fprintf(tw, "  %s\t%d\t%s\n", num(t.Threshold), t.Step, Duration(t.Wall))
			} else {
				fmt.Fprintf(tw, "  %s\tnot reached\t-\n", num(t.Threshold))
			}
		}
		tw.Flush()
	}
	if len(r.Problems) > 0 {
		fmt.Fprintln(w, "\nproblems")
		for _, p := range r.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	return nil
}

// ConfigDiff lists the keys whose values differ between two flattened configs (a key
// missing on one side shows as "-"), sorted.
func ConfigDiff(a, b map[string]any) [][3]string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out [][3]string
	for k := range keys {
		va, oka := a[k]
		vb, okb := b[k]
		sa, sb := "-", "-"
		if oka {
			sa = FormatValue(va)
		}
		if okb {
			sb = FormatValue(vb)
		}
		if sa != sb {
			out = append(out, [3]string{k, sa, sb})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// WriteCompare prints two runs' config differences and their metrics side by side.
func WriteCompare(w io.Writer, a, b *Run) error {
	fmt.Fprintf(w, "A  %s\nB  %s\n\nconfig differences\n", a.Path, b.Path)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  KEY\tA\tB")
	diff := ConfigDiff(a.Config, b.Config)
	for _, d := range diff {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", d[0], d[1], d[2])
	}
	tw.Flush()
	if len(diff) == 0 {
		fmt.Fprintln(w, "  (identical configs)")
	}

	fmt.Fprintln(w, "\nmetrics")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  METRIC\tA\tB")
	row := func(name string, f func(r *Run) string) { fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, f(a), f(b)) }
	row("status", func(r *Run) string { return r.Status })
	row("env steps", func(r *Run) string { return fmt.Sprint(r.EnvSteps) })
	row("wall", func(r *Run) string { return Duration(r.WallSeconds) })
	row("steps/s overall", func(r *Run) string {
		if r.WallSeconds <= 0 {
			return "-"
		}
		return num(float64(r.EnvSteps) / r.WallSeconds)
	})
	row("episodes", func(r *Run) string { return fmt.Sprint(len(r.Episodes)) })
	row("final return (last N)", func(r *Run) string { m, s, n := r.FinalReturn(0); return returnCell(m, s, n) })
	row("best moving mean", func(r *Run) string {
		best := math.Inf(-1)
		for i, p := range r.Curve() {
			if i+1 >= min(r.Recent, len(r.Episodes)) {
				best = math.Max(best, p.Mean)
			}
		}
		if math.IsInf(best, -1) {
			return "-"
		}
		return num(best)
	})
	target, okA := a.Target()
	if tb, okB := b.Target(); !okA && okB {
		target, okA = tb, true
	}
	if okA {
		reach := func(r *Run) string {
			t := r.TimeTo([]float64{target})[0]
			if !t.OK {
				return "not reached"
			}
			return fmt.Sprintf("%d steps, %s", t.Step, Duration(t.Wall))
		}
		row(fmt.Sprintf("time to %s", num(target)), reach)
	}
	cols := learnerColumns(&a.Metrics)
	for _, c := range learnerColumns(&b.Metrics) {
		if a.Metrics.Col(c) < 0 {
			cols = append(cols, c)
		}
	}
	for _, c := range cols {
		row(c+" (last)", func(r *Run) string { return num(r.Metrics.Last(c)) })
	}
	return tw.Flush()
}

// wallCell is a run's wall time, "-" when nothing says how long it ran.
func wallCell(sec float64) string {
	if sec <= 0 {
		return "-"
	}
	return Duration(sec)
}
