// Package render draws what an agent sees as pictures and records them as animated
// GIFs for `train eval -gif`: classic-control systems drawn from their observations
// (cart and pole, the two acrobot links, the mountain car on its hill, the pendulum
// rod), and Atari screens in the console's own NTSC colours.
//
// Everything is drawn with the standard library onto paletted images, so a frame
// needs no colour quantisation and the GIF encoder writes it as it is.
package render

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"math"
)

// Classic palette indices.
const (
	White uint8 = iota
	Black
	Gray
	LightGray
	Brown
	Blue
	Red
	Green
	Yellow
	Sky
)

// ClassicPalette is the colour table of classic-control frames.
var ClassicPalette = color.Palette{
	color.RGBA{255, 255, 255, 255}, // White
	color.RGBA{0, 0, 0, 255},       // Black
	color.RGBA{110, 110, 110, 255}, // Gray
	color.RGBA{210, 210, 210, 255}, // LightGray
	color.RGBA{202, 152, 101, 255}, // Brown (CartPole's pole, as Gymnasium draws it)
	color.RGBA{129, 132, 203, 255}, // Blue (the axle)
	color.RGBA{204, 77, 77, 255},   // Red
	color.RGBA{60, 160, 60, 255},   // Green
	color.RGBA{230, 200, 40, 255},  // Yellow
	color.RGBA{225, 235, 250, 255}, // Sky
}

// Canvas is a paletted image with a world coordinate system: world (x, y) with y up
// maps to pixel (OX + x*Scale, OY - y*Scale).
type Canvas struct {
	Img    *image.Paletted
	OX, OY float64
	Scale  float64
}

// NewCanvas returns a w x h canvas filled with the background colour index bg.
func NewCanvas(w, h int, pal color.Palette, bg uint8) *Canvas {
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	if bg != 0 {
		for i := range img.Pix {
			img.Pix[i] = bg
		}
	}
	return &Canvas{Img: img, Scale: 1}
}

// px converts world coordinates to pixel coordinates.
func (c *Canvas) px(x, y float64) (float64, float64) { return c.OX + x*c.Scale, c.OY - y*c.Scale }

func (c *Canvas) set(x, y int, col uint8) {
	if image.Pt(x, y).In(c.Img.Rect) {
		c.Img.Pix[c.Img.PixOffset(x, y)] = col
	}
}

// FillPolygon fills a polygon given in world coordinates (even-odd rule).
func (c *Canvas) FillPolygon(pts [][2]float64, col uint8) {
	if len(pts) < 3 {
		return
	}
	xs := make([]float64, len(pts))
	ys := make([]float64, len(pts))
	minY, maxY := math.Inf(1), math.Inf(-1)
	for i, p := range pts {
		xs[i], ys[i] = c.px(p[0], p[1])
		minY, maxY = math.Min(minY, ys[i]), math.Max(maxY, ys[i])
	}
	b := c.Img.Rect
	y0, y1 := max(int(math.Floor(minY)), b.Min.Y), min(int(math.Ceil(maxY)), b.Max.Y-1)
	var cross []float64
	for y := y0; y <= y1; y++ {
		sy := float64(y) + 0.5
		cross = cross[:0]
		for i := range pts {
			j := (i + 1) % len(pts)
			if (ys[i] <= sy) != (ys[j] <= sy) {
				cross = append(cross, xs[i]+(sy-ys[i])*(xs[j]-xs[i])/(ys[j]-ys[i]))
			}
		}
		sortFloats(cross)
		for k := 0; k+1 < len(cross); k += 2 {
			for x := max(int(math.Ceil(cross[k]-0.5)), b.Min.X); x <= min(int(math.Floor(cross[k+1]-0.5)), b.Max.X-1); x++ {
				c.set(x, y, col)
			}
		}
	}
}

func sortFloats(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// Rect fills the axis-aligned rectangle with corners (x0, y0) and (x1, y1) in world
// coordinates.
func (c *Canvas) Rect(x0, y0, x1, y1 float64, col uint8) {
	c.FillPolygon([][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, col)
}

// Line draws a segment of the given width in pixels between two world points, with
// round caps.
func (c *Canvas) Line(x0, y0, x1, y1, width float64, col uint8) {
	ax, ay := c.px(x0, y0)
	bx, by := c.px(x1, y1)
	dx, dy := bx-ax, by-ay
	l := math.Hypot(dx, dy)
	if l > 0 {
		nx, ny := -dy/l*width/2, dx/l*width/2
		// Back to world units for FillPolygon.
		w := func(px, py float64) [2]float64 { return [2]float64{(px - c.OX) / c.Scale, (c.OY - py) / c.Scale} }
		c.FillPolygon([][2]float64{w(ax+nx, ay+ny), w(bx+nx, by+ny), w(bx-nx, by-ny), w(ax-nx, ay-ny)}, col)
	}
	c.discPx(ax, ay, width/2, col)
	c.discPx(bx, by, width/2, col)
}

// Disc fills a circle of radius r pixels around a world point.
func (c *Canvas) Disc(x, y, r float64, col uint8) {
	px, py := c.px(x, y)
	c.discPx(px, py, r, col)
}

func (c *Canvas) discPx(cx, cy, r float64, col uint8) {
	for y := int(math.Floor(cy - r)); y <= int(math.Ceil(cy+r)); y++ {
		for x := int(math.Floor(cx - r)); x <= int(math.Ceil(cx+r)); x++ {
			fx, fy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if fx*fx+fy*fy <= r*r {
				c.set(x, y, col)
			}
		}
	}
}

// ClassicTasks lists the task ids Classic can draw.
var ClassicTasks = []string{"CartPole-v1", "Acrobot-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1"}

// CanDrawClassic reports whether Classic knows the task.
func CanDrawClassic(task string) bool {
	for _, t := range ClassicTasks {
		if t == task {
			return true
		}
	}
	return false
}

// Classic draws a classic-control task's state from its raw observation, the way
// Gymnasium's renderers picture it (smaller).
func Classic(task string, obs []float32) (*image.Paletted, error) {
	need := map[string]int{"CartPole-v1": 4, "Acrobot-v1": 6, "MountainCar-v0": 2, "MountainCarContinuous-v0": 2, "Pendulum-v1": 3}
	n, ok := need[task]
	if !ok {
		return nil, fmt.Errorf("render: no drawing for task %s (drawable: %v)", task, ClassicTasks)
	}
	if len(obs) < n {
		return nil, fmt.Errorf("render: %s observation has %d values, want %d", task, len(obs), n)
	}
	o := make([]float64, len(obs))
	for i, v := range obs {
		o[i] = float64(v)
	}
	switch task {
	case "CartPole-v1":
		return cartPole(o), nil
	case "Acrobot-v1":
		return acrobot(o), nil
	case "Pendulum-v1":
		return pendulum(o), nil
	}
	return mountainCar(o), nil
}

// cartPole: obs = x, x_dot, theta (radians from upright, positive leaning right),
// theta_dot. The track spans x in [-2.4, 2.4].
func cartPole(o []float64) *image.Paletted {
	const w, h = 300, 200
	c := NewCanvas(w, h, ClassicPalette, White)
	c.Scale = w / 5.6 // the track (+-2.4) with a margin: a cart at the limit stays in view
	c.OX, c.OY = w/2, 130
	c.Line(-2.4, 0, 2.4, 0, 1, Black) // track
	x, th := o[0], o[2]
	const cw, ch = 0.4, 0.24 // cart size in world units (Gymnasium: 50 x 30 px at 600 px for 4.8)
	c.Rect(x-cw/2, -ch/2, x+cw/2, ch/2, Black)
	axleY := ch / 4
	const poleLen, poleW = 1.0, 8.0 // 2 * half-length 0.5
	c.Line(x, axleY, x+poleLen*math.Sin(th), axleY+poleLen*math.Cos(th), poleW, Brown)
	c.Disc(x, axleY, 3, Blue)
	return c.Img
}

// acrobot: obs = cos t1, sin t1, cos t2, sin t2, dt1, dt2; t1 = 0 hangs straight down,
// t2 is the second link's angle relative to the first. Goal: the tip above y = 1.
func acrobot(o []float64) *image.Paletted {
	const s = 200
	c := NewCanvas(s, s, ClassicPalette, White)
	c.Scale = s / 4.4
	c.OX, c.OY = s/2, s/2
	c.Line(-2.2, 1, 2.2, 1, 1, Black) // the goal height
	t1 := math.Atan2(o[1], o[0])
	t2 := math.Atan2(o[3], o[2])
	x1, y1 := math.Sin(t1), -math.Cos(t1)
	x2, y2 := x1+math.Sin(t1+t2), y1-math.Cos(t1+t2)
	c.Line(0, 0, x1, y1, 8, Blue)
	c.Line(x1, y1, x2, y2, 8, Blue)
	c.Disc(0, 0, 4, Yellow)
	c.Disc(x1, y1, 4, Yellow)
	return c.Img
}

// mountainCar: obs = position in [-1.2, 0.6], velocity; the hill is
// 0.45 sin(3x) + 0.55 and the flag stands at 0.5.
func mountainCar(o []float64) *image.Paletted {
	const w, h = 300, 230 // tall enough for the flag on the right-hand peak
	const minX, maxX = -1.2, 0.6
	c := NewCanvas(w, h, ClassicPalette, White)
	c.Scale = w / (maxX - minX)
	c.OX, c.OY = -minX*c.Scale, h-10
	height := func(x float64) float64 { return 0.45*math.Sin(3*x) + 0.55 }
	hill := [][2]float64{{minX, -0.1}}
	for i := 0; i <= 100; i++ {
		x := minX + (maxX-minX)*float64(i)/100
		hill = append(hill, [2]float64{x, height(x)})
	}
	hill = append(hill, [2]float64{maxX, -0.1})
	c.FillPolygon(hill, LightGray)
	for i := 0; i < 100; i++ {
		a, b := hill[i+1], hill[i+2]
		c.Line(a[0], a[1], b[0], b[1], 2, Black)
	}
	// The flag at the goal.
	fx, fy := 0.5, height(0.5)
	c.Line(fx, fy, fx, fy+0.2, 2, Black)
	c.FillPolygon([][2]float64{{fx, fy + 0.2}, {fx, fy + 0.14}, {fx + 0.1, fy + 0.17}}, Yellow)
	// The car: a box tilted with the slope, wheels below.
	pos := math.Max(minX, math.Min(maxX, o[0]))
	ang := math.Atan(1.35 * math.Cos(3*pos))
	cs, sn := math.Cos(ang), math.Sin(ang)
	const cw, ch, lift = 0.16, 0.07, 0.03
	rot := func(dx, dy float64) [2]float64 {
		return [2]float64{pos + dx*cs - dy*sn, height(pos) + dx*sn + dy*cs}
	}
	c.FillPolygon([][2]float64{rot(-cw/2, lift), rot(cw/2, lift), rot(cw/2, lift+ch), rot(-cw/2, lift+ch)}, Black)
	for _, dx := range []float64{-cw / 3, cw / 3} {
		p := rot(dx, lift)
		c.Disc(p[0], p[1], 4, Gray)
	}
	return c.Img
}

// pendulum: obs = cos theta, sin theta, theta_dot with theta = 0 upright.
func pendulum(o []float64) *image.Paletted {
	const s = 200
	c := NewCanvas(s, s, ClassicPalette, White)
	c.Scale = s / 2.4
	c.OX, c.OY = s/2, s/2
	th := math.Atan2(o[1], o[0])
	c.Line(0, 0, -math.Sin(th), math.Cos(th), 16, Red)
	c.Disc(0, 0, 4, Black)
	return c.Img
}

// Recorder collects frames for an animated GIF, up to MaxFrames (later frames are
// dropped and counted, so a long episode cannot exhaust memory).
type Recorder struct {
	// Delay is each frame's display time in hundredths of a second.
	Delay     int
	MaxFrames int
	frames    []*image.Paletted
	Dropped   int
}

// NewRecorder returns a recorder showing each frame for delay hundredths of a second.
func NewRecorder(delay, maxFrames int) *Recorder {
	return &Recorder{Delay: max(delay, 2), MaxFrames: maxFrames}
}

// Add appends a frame (kept as given: do not reuse it).
func (r *Recorder) Add(f *image.Paletted) {
	if r.MaxFrames > 0 && len(r.frames) >= r.MaxFrames {
		r.Dropped++
		return
	}
	r.frames = append(r.frames, f)
}

// Len is the number of frames kept.
func (r *Recorder) Len() int { return len(r.frames) }

// Encode writes the frames as a looping animated GIF.
func (r *Recorder) Encode(w io.Writer) error {
	if len(r.frames) == 0 {
		return fmt.Errorf("render: no frames to write")
	}
	g := &gif.GIF{LoopCount: 0}
	for _, f := range r.frames {
		g.Image = append(g.Image, f)
		g.Delay = append(g.Delay, r.Delay)
	}
	g.Disposal = make([]byte, len(g.Image))
	return gif.EncodeAll(w, g)
}
