package rundir

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// CurvePoint is one point of a learning curve.
type CurvePoint struct {
	X, Y float64
}

// Curves is what curves.png shows: every finished episode's return against env steps
// (with a moving average over Window episodes), and the recent mean return logged at
// each interval against wall-clock seconds.
type Curves struct {
	Title    string
	Episodes []CurvePoint // x: env step at the episode's end, y: return
	Window   int
	ByWall   []CurvePoint // x: wall seconds, y: recent mean return
	Target   float64      // drawn as a dashed line when not NaN
}

// WritePNG renders the two panels side by side into path, atomically.
func (c *Curves) WritePNG(path string) error {
	left, err := c.stepsPlot()
	if err != nil {
		return err
	}
	right, err := c.wallPlot()
	if err != nil {
		return err
	}
	const w, h = 12 * vg.Inch, 4.5 * vg.Inch
	img := vgimg.New(w, h)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 2,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	canvases := plot.Align([][]*plot.Plot{{left, right}}, tiles, dc)
	left.Draw(canvases[0][0])
	right.Draw(canvases[0][1])
	// Fast compression: the file is rewritten at every log interval.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return WriteAtomic(path, func(wr io.Writer) error { return enc.Encode(wr, img.Image()) })
}

func (c *Curves) stepsPlot() (*plot.Plot, error) {
	p := newPlot(c.Title+": return vs env steps", "env steps", "episode return")
	if len(c.Episodes) > 0 {
		pts := make(plotter.XYs, len(c.Episodes))
		for i, e := range c.Episodes {
			pts[i].X, pts[i].Y = e.X, e.Y
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("rundir: curves: %w", err)
		}
		sc.GlyphStyle.Radius = vg.Points(1.2)
		sc.GlyphStyle.Color = color.RGBA{R: 120, G: 160, B: 220, A: 255}
		p.Add(sc)
		win := max(c.Window, 1)
		avg := make(plotter.XYs, len(c.Episodes))
		sum := 0.0
		for i, e := range c.Episodes {
			sum += e.Y
			if i >= win {
				sum -= c.Episodes[i-win].Y
			}
			avg[i].X, avg[i].Y = e.X, sum/float64(min(i+1, win))
		}
		ln, err := newLine(avg, 2, color.RGBA{R: 20, G: 60, B: 160, A: 255})
		if err != nil {
			return nil, err
		}
		p.Add(ln)
		p.Legend.Add(fmt.Sprintf("mean of last %d", win), ln)
		p.Legend.Top = false
		p.Legend.Left = false
		c.addTarget(p, c.Episodes[0].X, c.Episodes[len(c.Episodes)-1].X)
	}
	return p, nil
}

func (c *Curves) wallPlot() (*plot.Plot, error) {
	p := newPlot("recent mean return vs wall time", "wall seconds", fmt.Sprintf("mean return (last %d)", max(c.Window, 1)))
	var pts plotter.XYs
	for _, e := range c.ByWall {
		if !math.IsNaN(e.Y) {
			pts = append(pts, plotter.XY{X: e.X, Y: e.Y})
		}
	}
	if len(pts) > 0 {
		lp, err := newLine(pts, 2, color.RGBA{R: 200, G: 80, B: 20, A: 255})
		if err != nil {
			return nil, err
		}
		p.Add(lp)
		c.addTarget(p, 0, pts[len(pts)-1].X)
	}
	return p, nil
}

func (c *Curves) addTarget(p *plot.Plot, x0, x1 float64) {
	if math.IsNaN(c.Target) || x1 <= x0 {
		return
	}
	t, err := newLine(plotter.XYs{{X: x0, Y: c.Target}, {X: x1, Y: c.Target}}, 0, color.Gray{Y: 100})
	if err != nil {
		return
	}
	t.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(t)
	p.Legend.Add(fmt.Sprintf("target %g", c.Target), t)
}

// newPlot is a plot with its title and axis labels, its ticks labelled by engTicks.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	p.X.Tick.Marker = plot.TickerFunc(engTicks)
	p.Y.Tick.Marker = plot.TickerFunc(engTicks)
	return p
}

// newLine is a line through pts in colour col, width points wide (0: plotter's
// default width).
func newLine(pts plotter.XYs, width float64, col color.Color) (*plotter.Line, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("rundir: curves: %w", err)
	}
	if width > 0 {
		l.LineStyle.Width = vg.Points(width)
	}
	l.LineStyle.Color = col
	return l, nil
}

// engTicks labels ticks as 250, 100k, 1.5M (no padded decimals).
func engTicks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label == "" {
			continue
		}
		v := ticks[i].Value
		switch {
		case math.Abs(v) >= 1e6:
			ticks[i].Label = fmt.Sprintf("%gM", v/1e6)
		case math.Abs(v) >= 1e3:
			ticks[i].Label = fmt.Sprintf("%gk", v/1e3)
		default:
			ticks[i].Label = fmt.Sprintf("%g", v)
		}
	}
	return ticks
}
