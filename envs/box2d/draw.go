package box2d

import (
	"image"
	"image/color"
	"math"
	"sort"
)

// The envs draw themselves with one small rasteriser instead of pygame or OpenCV:
// convex and concave polygons filled by scanline at pixel centres (no antialiasing),
// which is all Gymnasium's Box2D pictures are made of. CarRacing's observation is such
// a picture at 96 x 96.

// point is a position in pixels, x to the right and y down.
type point struct{ x, y float64 }

// canvas is an RGB picture with a view: world (x, y), y up, maps to pixel
// (ox + (x*cos - y*sin)*zx, oy - (x*sin + y*cos)*zy), a rotation followed by a scale
// that may differ across and down (CarRacing squeezes its 1000 x 800 view into 96 x 96).
type canvas struct {
	img           *image.RGBA
	ox, oy        float64
	zx, zy        float64
	cosA, sinA    float64
	xs            []float64 // scratch for the crossings of one scanline
	pts           []point   // scratch for a transformed polygon
	width, height int
}

// newCanvas returns a w x h canvas with the identity view scaled by zoom and the world
// origin at the bottom left.
func newCanvas(w, h int, zoom float64) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h)), oy: float64(h), zx: zoom, zy: zoom, cosA: 1, width: w, height: h}
}

// scene returns a w x h canvas at zoom pixels per unit, filled with bg.
func scene(w, h int, zoom float64, bg color.RGBA) *canvas {
	c := newCanvas(w, h, zoom)
	c.fill(bg)
	return c
}

// flag draws Gymnasium's flag at world (x, y): a 50-pixel pole and a 25 x 10 pennant
// at its top (sizes in the picture's pixels).
func (c *canvas) flag(x, y float64, pole, cloth color.RGBA) {
	top := y + 50/c.zy
	c.line(pole, 1, x, y, x, top)
	c.poly(cloth, x, top, x, top-10/c.zy, x+25/c.zx, top-5/c.zy)
}

// fill paints the whole picture.
func (c *canvas) fill(col color.RGBA) {
	p := c.img.Pix
	for i := 0; i < len(p); i += 4 {
		p[i], p[i+1], p[i+2], p[i+3] = col.R, col.G, col.B, 255
	}
}

// toPixel maps a world position through the view.
func (c *canvas) toPixel(x, y float64) point {
	return point{c.ox + (x*c.cosA-y*c.sinA)*c.zx, c.oy - (x*c.sinA+y*c.cosA)*c.zy}
}

// poly fills a polygon given in world coordinates as x0, y0, x1, y1, ...
func (c *canvas) poly(col color.RGBA, xy ...float64) {
	c.pts = c.pts[:0]
	for i := 0; i+1 < len(xy); i += 2 {
		c.pts = append(c.pts, c.toPixel(xy[i], xy[i+1]))
	}
	c.pixelPoly(col, c.pts)
}

// outlined fills a world polygon with fill and, unless outline is fully transparent,
// draws its edges one pixel wide in outline.
func (c *canvas) outlined(fill, outline color.RGBA, xy []float64) {
	c.poly(fill, xy...)
	if outline.A == 0 {
		return
	}
	for i := 0; i < len(xy); i += 2 {
		j := (i + 2) % len(xy)
		c.line(outline, 1, xy[i], xy[i+1], xy[j], xy[j+1])
	}
}

// pixelPoly fills a polygon given in pixels: a pixel is painted when its centre is
// inside (even-odd rule).
func (c *canvas) pixelPoly(col color.RGBA, pts []point) {
	if len(pts) < 3 {
		return
	}
	minX, maxX, minY, maxY := pts[0].x, pts[0].x, pts[0].y, pts[0].y
	for _, p := range pts[1:] {
		minX, maxX = min(minX, p.x), max(maxX, p.x)
		minY, maxY = min(minY, p.y), max(maxY, p.y)
	}
	if maxX < 0 || minX > float64(c.width) { // off the picture (most of a track's tiles)
		return
	}
	y0 := max(int(math.Ceil(minY-0.5)), 0)
	y1 := min(int(math.Floor(maxY-0.5)), c.height-1)
	for py := y0; py <= y1; py++ {
		yc := float64(py) + 0.5
		c.xs = c.xs[:0]
		for i := range pts {
			a, b := pts[i], pts[(i+1)%len(pts)]
			if (a.y <= yc) == (b.y <= yc) {
				continue
			}
			c.xs = append(c.xs, a.x+(yc-a.y)*(b.x-a.x)/(b.y-a.y))
		}
		sort.Float64s(c.xs)
		row := c.img.Pix[py*c.img.Stride:]
		for i := 0; i+1 < len(c.xs); i += 2 {
			x0 := max(int(math.Ceil(c.xs[i]-0.5)), 0)
			x1 := min(int(math.Floor(c.xs[i+1]-0.5)), c.width-1)
			for px := x0; px <= x1; px++ {
				q := row[4*px : 4*px+4 : 4*px+4]
				q[0], q[1], q[2], q[3] = col.R, col.G, col.B, 255
			}
		}
	}
}

// rect fills an axis-aligned rectangle given in pixels, [x0, x1) x [y0, y1).
func (c *canvas) rect(col color.RGBA, x0, y0, x1, y1 float64) {
	c.pixelPoly(col, []point{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})
}

// line draws a segment between two world points, width pixels wide.
func (c *canvas) line(col color.RGBA, width float64, x0, y0, x1, y1 float64) {
	a, b := c.toPixel(x0, y0), c.toPixel(x1, y1)
	dx, dy := b.x-a.x, b.y-a.y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	nx, ny := -dy/n*width/2, dx/n*width/2
	c.pixelPoly(col, []point{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}})
}

// rgb is an opaque colour.
func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }
