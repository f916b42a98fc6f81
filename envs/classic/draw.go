package classic

import (
	"image"
	"image/color"
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// The envs draw themselves (envpool.Renderer) the way Gymnasium's renderers picture
// them, smaller, from their observations: the cart and pole, the two acrobot links,
// the mountain car on its hill, the pendulum rod. Pictures are paletted, drawn with the
// standard library, so a GIF stores them as they are.

// Every env draws itself.
var (
	_ envpool.Renderer = (*CartPole)(nil)
	_ envpool.Renderer = (*Acrobot)(nil)
	_ envpool.Renderer = (*MountainCar)(nil)
	_ envpool.Renderer = (*Pendulum)(nil)
)

// Render draws the cart on its track and the pole (envpool.Renderer): 300 x 200.
func (e *CartPole) Render() (image.Image, error) { return drawObs(e, 4, drawCartPole), nil }

// Render draws the two links and the goal height (envpool.Renderer): 200 x 200.
func (e *Acrobot) Render() (image.Image, error) { return drawObs(e, 6, drawAcrobot), nil }

// Render draws the car on its hill and the flag (envpool.Renderer): 300 x 230.
func (e *MountainCar) Render() (image.Image, error) { return drawObs(e, 2, drawMountainCar), nil }

// Render draws the rod from above its pivot (envpool.Renderer): 200 x 200.
func (e *Pendulum) Render() (image.Image, error) { return drawObs(e, 3, drawPendulum), nil }

// drawObs draws an env from its current observation of n values, read through Observe
// so that the picture shows exactly what the agent sees (float32 values).
func drawObs(e envpool.Env, n int, draw func(o []float64) *image.Paletted) *image.Paletted {
	obs := make([]float32, n)
	e.Observe(envpool.Obs{F32: obs}, nil)
	o := make([]float64, n)
	for i, v := range obs {
		o[i] = float64(v)
	}
	return draw(o)
}

// Colour indices of the drawings in palette.
const (
	white uint8 = iota
	black
	gray
	lightGray
	brown
	blue
	red
	green
	yellow
	sky
)

// palette is the colour table of the drawings.
var palette = color.Palette{
	color.RGBA{255, 255, 255, 255}, // white
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{110, 110, 110, 255}, // gray
	color.RGBA{210, 210, 210, 255}, // lightGray
	color.RGBA{202, 152, 101, 255}, // brown (CartPole's pole, as Gymnasium draws it)
	color.RGBA{129, 132, 203, 255}, // blue (the axle)
	color.RGBA{204, 77, 77, 255},   // red
	color.RGBA{60, 160, 60, 255},   // green
	color.RGBA{230, 200, 40, 255},  // yellow
	color.RGBA{225, 235, 250, 255}, // sky
}

// canvas is a paletted image with a world coordinate system: world (x, y) with y up
// maps to pixel (ox + x*scale, oy - y*scale).
type canvas struct {
	img    *image.Paletted
	ox, oy float64
	scale  float64
}

// newCanvas returns a w x h canvas filled with the background colour index bg.
func newCanvas(w, h int, pal color.Palette, bg uint8) *canvas {
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	if bg != 0 {
		for i := range img.Pix {
			img.Pix[i] = bg
		}
	}
	return &canvas{img: img, scale: 1}
}

// centredCanvas returns a white 200 x 200 canvas showing world coordinates within
// span/2 of the origin, which is at its centre: the swinging systems' pictures.
func centredCanvas(span float64) *canvas {
	const s = 200
	c := newCanvas(s, s, palette, white)
	c.scale = s / span
	c.ox, c.oy = s/2, s/2
	return c
}

// px converts world coordinates to pixel coordinates.
func (c *canvas) px(x, y float64) (float64, float64) { return c.ox + x*c.scale, c.oy - y*c.scale }

func (c *canvas) set(x, y int, col uint8) {
	if image.Pt(x, y).In(c.img.Rect) {
		c.img.Pix[c.img.PixOffset(x, y)] = col
	}
}

// fillPolygon fills a polygon given in world coordinates (even-odd rule).
func (c *canvas) fillPolygon(pts [][2]float64, col uint8) {
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
	b := c.img.Rect
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

// rect fills the axis-aligned rectangle with corners (x0, y0) and (x1, y1) in world
// coordinates.
func (c *canvas) rect(x0, y0, x1, y1 float64, col uint8) {
	c.fillPolygon([][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, col)
}

// line draws a segment of the given width in pixels between two world points, with
// round caps.
func (c *canvas) line(x0, y0, x1, y1, width float64, col uint8) {
	ax, ay := c.px(x0, y0)
	bx, by := c.px(x1, y1)
	dx, dy := bx-ax, by-ay
	l := math.Hypot(dx, dy)
	if l > 0 {
		nx, ny := -dy/l*width/2, dx/l*width/2
		// Back to world units for fillPolygon.
		w := func(px, py float64) [2]float64 { return [2]float64{(px - c.ox) / c.scale, (c.oy - py) / c.scale} }
		c.fillPolygon([][2]float64{w(ax+nx, ay+ny), w(bx+nx, by+ny), w(bx-nx, by-ny), w(ax-nx, ay-ny)}, col)
	}
	c.discPx(ax, ay, width/2, col)
	c.discPx(bx, by, width/2, col)
}

// disc fills a circle of radius r pixels around a world point.
func (c *canvas) disc(x, y, r float64, col uint8) {
	px, py := c.px(x, y)
	c.discPx(px, py, r, col)
}

func (c *canvas) discPx(cx, cy, r float64, col uint8) {
	for y := int(math.Floor(cy - r)); y <= int(math.Ceil(cy+r)); y++ {
		for x := int(math.Floor(cx - r)); x <= int(math.Ceil(cx+r)); x++ {
			fx, fy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if fx*fx+fy*fy <= r*r {
				c.set(x, y, col)
			}
		}
	}
}

// drawCartPole: obs = x, x_dot, theta (radians from upright, positive leaning right),
// theta_dot. The track spans x in [-2.4, 2.4].
func drawCartPole(o []float64) *image.Paletted {
	const w, h = 300, 200
	c := newCanvas(w, h, palette, white)
	c.scale = w / 5.6 // the track (+-2.4) with a margin: a cart at the limit stays in view
	c.ox, c.oy = w/2, 130
	c.line(-2.4, 0, 2.4, 0, 1, black) // track
	x, th := o[0], o[2]
	const cw, ch = 0.4, 0.24 // cart size in world units (Gymnasium: 50 x 30 px at 600 px for 4.8)
	c.rect(x-cw/2, -ch/2, x+cw/2, ch/2, black)
	axleY := ch / 4
	const poleLen, poleW = 1.0, 8.0 // 2 * half-length 0.5
	c.line(x, axleY, x+poleLen*math.Sin(th), axleY+poleLen*math.Cos(th), poleW, brown)
	c.disc(x, axleY, 3, blue)
	return c.img
}

// drawAcrobot: obs = cos t1, sin t1, cos t2, sin t2, dt1, dt2; t1 = 0 hangs straight down,
// t2 is the second link's angle relative to the first. Goal: the tip above y = 1.
func drawAcrobot(o []float64) *image.Paletted {
	c := centredCanvas(4.4)
	c.line(-2.2, 1, 2.2, 1, 1, black) // the goal height
	t1 := math.Atan2(o[1], o[0])
	t2 := math.Atan2(o[3], o[2])
	x1, y1 := math.Sin(t1), -math.Cos(t1)
	x2, y2 := x1+math.Sin(t1+t2), y1-math.Cos(t1+t2)
	c.line(0, 0, x1, y1, 8, blue)
	c.line(x1, y1, x2, y2, 8, blue)
	c.disc(0, 0, 4, yellow)
	c.disc(x1, y1, 4, yellow)
	return c.img
}

// drawMountainCar: obs = position in [-1.2, 0.6], velocity; the hill is
// 0.45 sin(3x) + 0.55 and the flag stands at 0.5.
func drawMountainCar(o []float64) *image.Paletted {
	const w, h = 300, 230 // tall enough for the flag on the right-hand peak
	const minX, maxX = -1.2, 0.6
	c := newCanvas(w, h, palette, white)
	c.scale = w / (maxX - minX)
	c.ox, c.oy = -minX*c.scale, h-10
	height := func(x float64) float64 { return 0.45*math.Sin(3*x) + 0.55 }
	hill := [][2]float64{{minX, -0.1}}
	for i := 0; i <= 100; i++ {
		x := minX + (maxX-minX)*float64(i)/100
		hill = append(hill, [2]float64{x, height(x)})
	}
	hill = append(hill, [2]float64{maxX, -0.1})
	c.fillPolygon(hill, lightGray)
	for i := 0; i < 100; i++ {
		a, b := hill[i+1], hill[i+2]
		c.line(a[0], a[1], b[0], b[1], 2, black)
	}
	// The flag at the goal.
	fx, fy := 0.5, height(0.5)
	c.line(fx, fy, fx, fy+0.2, 2, black)
	c.fillPolygon([][2]float64{{fx, fy + 0.2}, {fx, fy + 0.14}, {fx + 0.1, fy + 0.17}}, yellow)
	// The car: a box tilted with the slope, wheels below.
	pos := math.Max(minX, math.Min(maxX, o[0]))
	ang := math.Atan(1.35 * math.Cos(3*pos))
	cs, sn := math.Cos(ang), math.Sin(ang)
	const cw, ch, lift = 0.16, 0.07, 0.03
	rot := func(dx, dy float64) [2]float64 {
		return [2]float64{pos + dx*cs - dy*sn, height(pos) + dx*sn + dy*cs}
	}
	c.fillPolygon([][2]float64{rot(-cw/2, lift), rot(cw/2, lift), rot(cw/2, lift+ch), rot(-cw/2, lift+ch)}, black)
	for _, dx := range []float64{-cw / 3, cw / 3} {
		p := rot(dx, lift)
		c.disc(p[0], p[1], 4, gray)
	}
	return c.img
}

// drawPendulum: obs = cos theta, sin theta, theta_dot with theta = 0 upright.
func drawPendulum(o []float64) *image.Paletted {
	c := centredCanvas(2.4)
	th := math.Atan2(o[1], o[0])
	c.line(0, 0, -math.Sin(th), math.Cos(th), 16, red)
	c.disc(0, 0, 4, black)
	return c.img
}
