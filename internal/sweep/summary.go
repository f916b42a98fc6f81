package sweep

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/inspect"
	"github.com/rlpool/rlpool/internal/rundir"
)

// ConfigResult is one configuration's trials summarised over seeds.
type ConfigResult struct {
	Config   int
	Values   []string
	Mean     float64 // mean over seeds of the trials' metrics (NaN when none has one)
	Std      float64 // population std over seeds
	Seeds    int
	Metrics  int     // trials with a metric (the mean's sample size)
	Wall     float64 // mean wall seconds per trial
	Statuses map[string]int
}

// Complete reports whether every trial of the configuration ran to its budget.
func (c *ConfigResult) Complete() bool {
	n := 0
	for st, k := range c.Statuses {
		if st != StatusFinished && st != StatusTimeout {
			return false
		}
		n += k
	}
	return n > 0
}

// Summarise groups records by configuration, best mean first (configurations without
// a metric last).
func Summarise(recs []Record) []ConfigResult {
	byConfig := map[int]*ConfigResult{}
	var order []int
	metrics := map[int][]float64{}
	for _, r := range recs {
		c, ok := byConfig[r.Config]
		if !ok {
			c = &ConfigResult{Config: r.Config, Values: r.Values, Statuses: map[string]int{}}
			byConfig[r.Config] = c
			order = append(order, r.Config)
		}
		c.Seeds++
		c.Wall += r.Wall
		c.Statuses[r.Status]++
		if !math.IsNaN(r.Metric) {
			metrics[r.Config] = append(metrics[r.Config], r.Metric)
		}
	}
	out := make([]ConfigResult, 0, len(order))
	for _, k := range order {
		c := byConfig[k]
		c.Wall /= float64(c.Seeds)
		c.Mean, c.Std = inspect.MeanStd(metrics[k])
		c.Metrics = len(metrics[k])
		out = append(out, *c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Mean, out[j].Mean
		if math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		return a > b
	})
	return out
}

// WriteSummary prints the sweep's table: one line per configuration, best first, with
// the final metric as mean +- std over seeds.
func WriteSummary(w io.Writer, s *Spec, recs []Record) error {
	fmt.Fprintf(w, "\nsweep %s: final metric = mean raw return of the last %d episodes; mean +- std over seeds\n", s.Name, s.MetricEpisodes)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"RANK", "CONFIG"}
	for _, p := range s.Params {
		head = append(head, shortKey(p.Key))
	}
	head = append(head, "SEEDS", "RETURN", "WALL/TRIAL", "STATUS")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for i, c := range Summarise(recs) {
		cells := []string{fmt.Sprint(i + 1), fmt.Sprintf("t%02d", c.Config)}
		cells = append(cells, c.Values...)
		ret := "-"
		switch {
		case math.IsNaN(c.Mean):
		case c.Metrics == 1:
			ret = fmt.Sprintf("%.1f", c.Mean) // one seed: no spread to show
		default:
			ret = fmt.Sprintf("%.1f +- %.1f", c.Mean, c.Std)
		}
		cells = append(cells, fmt.Sprint(c.Seeds), ret, inspect.Duration(c.Wall), statusText(c.Statuses))
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

func statusText(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 1 {
		return keys[0]
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", m[k], k)
	}
	return strings.Join(parts, ", ")
}

// Best returns the configuration with the highest mean metric among those whose trials
// all ran to their budget (pruned or failed ones only when no other has a metric).
func Best(s *Spec, recs []Record) (ConfigResult, bool) {
	all := Summarise(recs)
	for _, c := range all {
		if c.Complete() && !math.IsNaN(c.Mean) {
			return c, true
		}
	}
	for _, c := range all {
		if !math.IsNaN(c.Mean) {
			return c, true
		}
	}
	return ConfigResult{}, false
}

// WriteBest writes the base config with the best configuration's parameters (and the
// sweep's [set] overrides, but not its step budget) as a resolved run config.
func WriteBest(path string, s *Spec, best ConfigResult) error {
	sets := append([]string(nil), s.Set...)
	var desc []string
	for i, p := range s.Params {
		sets = append(sets, p.Key+"="+best.Values[i])
		desc = append(desc, p.Key+" = "+best.Values[i])
	}
	cfg, err := config.Load(s.Base, sets)
	if err != nil {
		return fmt.Errorf("sweep: best config: %w", err)
	}
	body, err := cfg.Encode()
	if err != nil {
		return err
	}
	head := fmt.Sprintf("# Best configuration of sweep %s (config t%02d): mean return of the last %d episodes\n# %.2f +- %.2f over %d seed(s).\n# Searched values: %s\n# Train it with: train -config %s\n\n",
		s.Name, best.Config, s.MetricEpisodes, best.Mean, best.Std, best.Seeds, strings.Join(desc, ", "), path)
	return rundir.WriteAtomic(path, func(w io.Writer) error {
		_, err := io.WriteString(w, head+string(body))
		return err
	})
}
