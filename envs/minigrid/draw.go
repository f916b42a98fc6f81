package minigrid

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
)

// rgb are minigrid's COLORS, by colour index.
var rgb = [numColors]color.RGBA{
	{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {112, 39, 195, 255}, {255, 255, 0, 255}, {100, 100, 100, 255},
}

var (
	black    = color.RGBA{0, 0, 0, 255}
	lineGrey = color.RGBA{100, 100, 100, 255}
	orange   = color.RGBA{255, 128, 0, 255}
)

// scale returns c with its channels multiplied by f.
func scale(c color.RGBA, f float64) color.RGBA {
	return color.RGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), 255}
}

// shape is a region of a tile in unit coordinates (x right, y down, both in [0, 1]).
type shape func(x, y float64) bool

func rect(x0, x1, y0, y1 float64) shape {
	return func(x, y float64) bool { return x >= x0 && x <= x1 && y >= y0 && y <= y1 }
}

func circle(cx, cy, r float64) shape {
	return func(x, y float64) bool { return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r }
}

// segment is the points within r of the segment from (x0, y0) to (x1, y1).
func segment(x0, y0, x1, y1, r float64) shape {
	dx, dy := x1-x0, y1-y0
	return func(x, y float64) bool {
		t := math.Max(0, math.Min(1, ((x-x0)*dx+(y-y0)*dy)/(dx*dx+dy*dy)))
		px, py := x0+t*dx-x, y0+t*dy-y
		return px*px+py*py <= r*r
	}
}

// triangle is the inside of the triangle abc.
func triangle(ax, ay, bx, by, cx, cy float64) shape {
	return func(x, y float64) bool {
		d1 := (x-bx)*(ay-by) - (ax-bx)*(y-by)
		d2 := (x-cx)*(by-cy) - (bx-cx)*(y-cy)
		d3 := (x-ax)*(cy-ay) - (cx-ax)*(y-ay)
		neg, pos := d1 < 0 || d2 < 0 || d3 < 0, d1 > 0 || d2 > 0 || d3 > 0
		return !(neg && pos)
	}
}

// rotated is s turned by theta radians about the tile's centre.
func rotated(s shape, theta float64) shape {
	sin, cos := math.Sin(-theta), math.Cos(-theta)
	return func(x, y float64) bool {
		x, y = x-0.5, y-0.5
		return s(0.5+x*cos-y*sin, 0.5+x*sin+y*cos)
	}
}

// tile draws into one square of the picture.
type tile struct {
	img  *image.RGBA
	x, y int // the tile's top-left pixel
	size int
}

// fill paints the pixels whose centres lie in s.
func (t tile) fill(s shape, c color.RGBA) {
	for py := range t.size {
		for px := range t.size {
			if s((float64(px)+0.5)/float64(t.size), (float64(py)+0.5)/float64(t.size)) {
				t.img.SetRGBA(t.x+px, t.y+py, c)
			}
		}
	}
}

// highlight lightens the tile towards white, as minigrid marks the agent's view.
func (t tile) highlight() {
	for py := range t.size {
		for px := range t.size {
			c := t.img.RGBAAt(t.x+px, t.y+py)
			lift := func(v uint8) uint8 { return uint8(math.Min(255, float64(v)+(255-float64(v))*0.3)) }
			t.img.SetRGBA(t.x+px, t.y+py, color.RGBA{lift(c.R), lift(c.G), lift(c.B), 255})
		}
	}
}

// drawCell draws an object as minigrid's WorldObj.render does.
func (t tile) drawCell(c cell) {
	col := rgb[c.color%numColors]
	switch c.kind {
	case objWall, objGoal:
		t.fill(rect(0, 1, 0, 1), col)
	case objFloor:
		t.fill(rect(0.031, 1, 0.031, 1), scale(col, 0.5))
	case objLava:
		t.fill(rect(0, 1, 0, 1), orange)
		for i := range 3 {
			lo, hi := 0.3+0.2*float64(i), 0.4+0.2*float64(i)
			t.fill(segment(0.1, lo, 0.3, hi, 0.03), black)
			t.fill(segment(0.3, hi, 0.5, lo, 0.03), black)
			t.fill(segment(0.5, lo, 0.7, hi, 0.03), black)
			t.fill(segment(0.7, hi, 0.9, lo, 0.03), black)
		}
	case objDoor:
		switch {
		case c.open:
			t.fill(rect(0.88, 1, 0, 1), col)
			t.fill(rect(0.92, 0.96, 0.04, 0.96), black)
		case c.locked:
			t.fill(rect(0, 1, 0, 1), col)
			t.fill(rect(0.06, 0.94, 0.06, 0.94), scale(col, 0.45))
			t.fill(rect(0.52, 0.75, 0.50, 0.56), col)
		default:
			t.fill(rect(0, 1, 0, 1), col)
			t.fill(rect(0.04, 0.96, 0.04, 0.96), black)
			t.fill(rect(0.08, 0.92, 0.08, 0.92), col)
			t.fill(rect(0.12, 0.88, 0.12, 0.88), black)
			t.fill(circle(0.75, 0.5, 0.08), col)
		}
	case objKey:
		t.fill(rect(0.50, 0.63, 0.31, 0.88), col)
		t.fill(rect(0.38, 0.50, 0.59, 0.66), col)
		t.fill(rect(0.38, 0.50, 0.81, 0.88), col)
		t.fill(circle(0.56, 0.28, 0.190), col)
		t.fill(circle(0.56, 0.28, 0.064), black)
	case objBall:
		t.fill(circle(0.5, 0.5, 0.31), col)
	case objBox:
		t.fill(rect(0.12, 0.88, 0.12, 0.88), col)
		t.fill(rect(0.18, 0.82, 0.18, 0.82), black)
		t.fill(rect(0.16, 0.84, 0.47, 0.53), col)
	}
}

// agentShape is minigrid's agent: a triangle pointing east, turned to the direction.
var agentShape = triangle(0.12, 0.19, 0.87, 0.50, 0.12, 0.81)

// Render draws the whole grid as minigrid's rgb_array mode does (envpool.Renderer):
// tile_size pixels a cell, grid lines, the objects in their colours, the agent a red
// triangle pointing its way, and the cells the agent sees lightened.
func (e *Env) Render() (image.Image, error) {
	s := e.tileSize
	img := image.NewRGBA(image.Rect(0, 0, e.w*s, e.h*s))
	seen := e.visibleCells()
	for y := range e.h {
		for x := range e.w {
			k := tileKey{c: e.grid.get(x, y), dir: -1, lit: seen[y*e.w+x]}
			k.c.innerKind, k.c.innerColor = 0, 0 // a box looks the same whatever it holds
			if (point{x, y}) == e.agent {
				k.dir = e.dir
			}
			t := e.tiles[k]
			if t == nil {
				t = drawTile(k, s)
				if e.tiles == nil {
					e.tiles = map[tileKey]*image.RGBA{}
				}
				e.tiles[k] = t
			}
			draw.Draw(img, image.Rect(x*s, y*s, (x+1)*s, (y+1)*s), t, image.Point{}, draw.Src)
		}
	}
	return img, nil
}

// tileKey is what a tile's picture depends on: the cell, the agent's direction when
// it stands there (-1 when not), and whether the agent sees it.
type tileKey struct {
	c   cell
	dir int
	lit bool
}

// subdivs is how many samples a pixel of a tile averages in each direction, as
// minigrid draws its tiles at three times their size and scales them down.
const subdivs = 3

// drawTile draws a size x size tile as minigrid's Grid.render_tile does.
func drawTile(k tileKey, size int) *image.RGBA {
	big := tile{img: image.NewRGBA(image.Rect(0, 0, size*subdivs, size*subdivs)), size: size * subdivs}
	big.fill(rect(0, 1, 0, 1), black)
	big.fill(rect(0, 0.031, 0, 1), lineGrey)
	big.fill(rect(0, 1, 0, 0.031), lineGrey)
	big.drawCell(k.c)
	if k.dir >= 0 {
		big.fill(rotated(agentShape, 0.5*math.Pi*float64(k.dir)), rgb[red])
	}
	if k.lit {
		big.highlight()
	}
	out := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			var r, g, b int
			for j := range subdivs {
				for i := range subdivs {
					c := big.img.RGBAAt(x*subdivs+i, y*subdivs+j)
					r, g, b = r+int(c.R), g+int(c.G), b+int(c.B)
				}
			}
			n := subdivs * subdivs
			out.SetRGBA(x, y, color.RGBA{uint8(r / n), uint8(g / n), uint8(b / n), 255})
		}
	}
	return out
}

// visibleCells marks the world squares the agent sees.
func (e *Env) visibleCells() []bool {
	seen := make([]bool, e.w*e.h)
	e.computeView()
	v := e.viewSize
	for j := range v {
		for i := range v {
			if p := e.viewCell(i, j); e.vis[j*v+i] && e.grid.in(p.x, p.y) {
				seen[p.y*e.w+p.x] = true
			}
		}
	}
	return seen
}

// textNames are the two-letter names minigrid's text frame gives objects (the second
// letter the colour's initial).
var textNames = map[uint8]string{objWall: "W", objFloor: "F", objDoor: "D", objKey: "K", objBall: "A", objBox: "B", objGoal: "G", objLava: "V"}

// RenderText draws the grid as minigrid's pretty-printed str(env) (envpool.
// TextRenderer): two characters a cell, the agent as >>, VV, << or ^^, an open door
// __, a locked one L and its colour's initial.
func (e *Env) RenderText() (string, error) {
	var b strings.Builder
	for y := range e.h {
		for x := range e.w {
			if (point{x, y}) == e.agent {
				a := string(">V<^"[e.dir])
				b.WriteString(a + a)
				continue
			}
			c := e.grid.get(x, y)
			initial := strings.ToUpper(colorNames[c.color][:1])
			switch {
			case c.isEmpty():
				b.WriteString("  ")
			case c.kind == objDoor && c.open:
				b.WriteString("__")
			case c.kind == objDoor && c.locked:
				b.WriteString("L" + initial)
			default:
				b.WriteString(textNames[c.kind] + initial)
			}
		}
		if y < e.h-1 {
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
	return b.String(), nil
}
