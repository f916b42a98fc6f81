package inspect

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// seedKeys are the config keys that differ between seeds of one experiment without
// making it another experiment: they are ignored when grouping runs for a band.
var seedKeys = map[string]bool{"run.seed": true, "run.name": true, "run.dir": true, "run.threads": true}

// Group is runs with the same config but for the seed (and name, folder, threads).
type Group struct {
	Label string
	Runs  []*Run
}

// GroupBySeed groups runs whose configs differ only in seedKeys, in the order the
// groups first appear. A group's label is the config values that set it apart from
// the other groups, or the first run's name when there is one group.
func GroupBySeed(runs []*Run) []Group {
	var groups []Group
	var sigs []string
	for _, r := range runs {
		sig := signature(r)
		i := indexOf(sigs, sig)
		if i < 0 {
			sigs = append(sigs, sig)
			groups = append(groups, Group{})
			i = len(groups) - 1
		}
		groups[i].Runs = append(groups[i].Runs, r)
	}
	// Keys whose value differs between groups label them.
	var differing []string
	if len(groups) > 1 {
		keys := map[string]bool{}
		for _, g := range groups {
			for k := range g.Runs[0].Config {
				if !seedKeys[k] {
					keys[k] = true
				}
			}
		}
		for k := range keys {
			first := FormatValue(groups[0].Runs[0].Config[k])
			for _, g := range groups[1:] {
				if FormatValue(g.Runs[0].Config[k]) != first {
					differing = append(differing, k)
					break
				}
			}
		}
		sort.Strings(differing)
	}
	for i := range groups {
		r0 := groups[i].Runs[0]
		var parts []string
		for _, k := range differing {
			if v, ok := r0.Config[k]; ok {
				parts = append(parts, fmt.Sprintf("%s=%s", strings.TrimPrefix(strings.TrimPrefix(k, "ppo."), "run."), FormatValue(v)))
			}
		}
		label := strings.Join(parts, " ")
		if label == "" || len(label) > 60 {
			label = r0.Name
		}
		if n := len(groups[i].Runs); n > 1 {
			label += fmt.Sprintf(" (%d seeds)", n)
		}
		groups[i].Label = label
	}
	return groups
}

func signature(r *Run) string {
	if len(r.Config) == 0 {
		return "path:" + r.Path // unreadable config: a group of its own
	}
	keys := make([]string, 0, len(r.Config))
	for k := range r.Config {
		if !seedKeys[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s\n", k, FormatValue(r.Config[k]))
	}
	return b.String()
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// tab10 are ten well-separated line colours (matplotlib's default cycle).
var tab10 = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{214, 39, 40, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
	color.RGBA{227, 119, 194, 255}, color.RGBA{127, 127, 127, 255}, color.RGBA{188, 189, 34, 255},
	color.RGBA{23, 190, 207, 255},
}

// Axis is what a learning curve is drawn against.
type Axis string

// The two x axes of `train runs plot`.
const (
	AxisSteps Axis = "steps"
	AxisTime  Axis = "time"
)

// curveXY returns a run's moving-mean curve as (x, y) pairs on the chosen axis,
// dropping points whose x is unknown.
func curveXY(r *Run, axis Axis) (xs, ys []float64) {
	for _, p := range r.Curve() {
		x := float64(p.Step)
		if axis == AxisTime {
			x = p.Wall
		}
		if math.IsNaN(x) || math.IsNaN(p.Mean) {
			continue
		}
		xs, ys = append(xs, x), append(ys, p.Mean)
	}
	return xs, ys
}

// stepAt is the curve's value at x: the last point at or before x (NaN before the first).
func stepAt(xs, ys []float64, x float64) float64 {
	i := sort.SearchFloat64s(xs, math.Nextafter(x, math.Inf(1)))
	if i == 0 {
		return math.NaN()
	}
	return ys[i-1]
}

// Band is a group's curve resampled on a common grid: the mean over its runs and the
// mean +- standard deviation around it.
type Band struct {
	X, Mean, Lo, Hi []float64
}

// GroupBand resamples every run of a group on gridPoints x values from 0 to the end of
// the shortest run (so each point averages all seeds) and returns mean and +-1 std.
func GroupBand(g Group, axis Axis, gridPoints int) Band {
	var curves [][2][]float64
	end := math.Inf(1)
	for _, r := range g.Runs {
		xs, ys := curveXY(r, axis)
		if len(xs) == 0 {
			continue
		}
		curves = append(curves, [2][]float64{xs, ys})
		end = math.Min(end, xs[len(xs)-1])
	}
	var b Band
	if len(curves) == 0 {
		return b
	}
	gridPoints = max(gridPoints, 2)
	vals := make([]float64, 0, len(curves))
	for i := range gridPoints {
		x := end * float64(i) / float64(gridPoints-1)
		vals = vals[:0]
		for _, c := range curves {
			if v := stepAt(c[0], c[1], x); !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		if len(vals) < len(curves) {
			continue // before some run's first episode
		}
		m, s := MeanStd(vals)
		b.X, b.Mean, b.Lo, b.Hi = append(b.X, x), append(b.Mean, m), append(b.Lo, m-s), append(b.Hi, m+s)
	}
	return b
}

// WritePlot draws the learning curves of runs (moving-mean return against env steps or
// wall seconds) as a PNG: one line per group of seeds, the mean over seeds with a
// shaded +-1 std band when a group has more than one run.
func WritePlot(w io.Writer, runs []*Run, axis Axis) error {
	if axis != AxisSteps && axis != AxisTime {
		return fmt.Errorf("runs: plot axis %q: use steps or time", axis)
	}
	p := plot.New()
	recent := DefaultRecent
	if len(runs) > 0 {
		recent = runs[0].Recent
	}
	p.Title.Text = "learning curves"
	p.Y.Label.Text = fmt.Sprintf("mean return of the last %d episodes", recent)
	if axis == AxisSteps {
		p.X.Label.Text = "env steps"
	} else {
		p.X.Label.Text = "wall seconds"
	}
	p.Legend.Top = false
	p.Legend.Left = false
	drawn := 0
	for i, g := range GroupBySeed(runs) {
		col := tab10[i%len(tab10)]
		if len(g.Runs) == 1 {
			xs, ys := curveXY(g.Runs[0], axis)
			if len(xs) == 0 {
				continue
			}
			pts := make(plotter.XYs, len(xs))
			for j := range xs {
				pts[j].X, pts[j].Y = xs[j], ys[j]
			}
			ln, err := plotter.NewLine(pts)
			if err != nil {
				return fmt.Errorf("runs: plot %s: %w", g.Label, err)
			}
			ln.LineStyle.Color, ln.LineStyle.Width = col, vg.Points(1.5)
			p.Add(ln)
			p.Legend.Add(g.Label, ln)
			drawn++
			continue
		}
		b := GroupBand(g, axis, 200)
		if len(b.X) < 2 {
			continue
		}
		poly := make(plotter.XYs, 0, 2*len(b.X))
		mean := make(plotter.XYs, len(b.X))
		for j := range b.X {
			poly = append(poly, plotter.XY{X: b.X[j], Y: b.Hi[j]})
			mean[j] = plotter.XY{X: b.X[j], Y: b.Mean[j]}
		}
		for j := len(b.X) - 1; j >= 0; j-- {
			poly = append(poly, plotter.XY{X: b.X[j], Y: b.Lo[j]})
		}
		pg, err := plotter.NewPolygon(poly)
		if err != nil {
			return fmt.Errorf("runs: plot %s: %w", g.Label, err)
		}
		r, gg, bb, _ := col.RGBA()
		pg.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(gg >> 8), B: uint8(bb >> 8), A: 60}
		pg.LineStyle.Width = 0
		p.Add(pg)
		ln, err := plotter.NewLine(mean)
		if err != nil {
			return fmt.Errorf("runs: plot %s: %w", g.Label, err)
		}
		ln.LineStyle.Color, ln.LineStyle.Width = col, vg.Points(2)
		p.Add(ln)
		p.Legend.Add(g.Label+" mean +- std", ln)
		drawn++
	}
	if drawn == 0 {
		return errors.New("runs: none of the runs has finished episodes to plot")
	}
	img := vgimg.New(9*vg.Inch, 5.5*vg.Inch)
	p.Draw(drawCanvas(img))
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

func drawCanvas(img *vgimg.Canvas) draw.Canvas { return draw.New(img) }
