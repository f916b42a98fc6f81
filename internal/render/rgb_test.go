package render

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

// scene is a 120x80 stand-in for a rendered frame: a bluish-grey sky gradient over a
// pale green floor, with an orange body in the middle.
func scene() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 120, 80))
	for y := range 80 {
		for x := range 120 {
			c := color.RGBA{70 + uint8(y), 85 + uint8(y), 105 + uint8(y), 255} // sky
			if y >= 40 {
				c = color.RGBA{200, 230, 200, 255} // floor
			}
			if dx, dy := x-60, y-40; dx*dx+dy*dy < 200 {
				c = color.RGBA{210, 140, 80, 255} // body
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// TestQuantizer checks that a recording's palette keeps the first frame's colours
// and tints closely, maps a colour the first frame lacked to a near one, is the same
// for the same frame, and that its frames encode as a GIF.
func TestQuantizer(t *testing.T) {
	img := scene()
	q := NewQuantizer(img)
	if n := len(q.Palette); n > 256 || n < cubeColours+3 {
		t.Fatalf("%d colours", n)
	}
	p := q.Paletted(img)
	if p.Rect != image.Rect(0, 0, 120, 80) {
		t.Fatalf("paletted frame is %v", p.Rect)
	}
	worst, sum := 0, 0
	for y := range 80 {
		for x := range 120 {
			c := q.Palette[p.ColorIndexAt(x, y)].(color.RGBA)
			o := img.RGBAAt(x, y)
			for _, d := range []int{absDiff(c.R, o.R), absDiff(c.G, o.G), absDiff(c.B, o.B)} {
				worst = max(worst, d)
				sum += d
			}
		}
	}
	if mean := float64(sum) / (3 * 120 * 80); worst > 8 || mean > 3 {
		t.Errorf("colours off by %d at worst, %.2f on average; want at most 8 and 3", worst, mean)
	}

	// A red the first frame lacked comes out red.
	later := scene()
	for y := range 10 {
		for x := range 10 {
			later.SetRGBA(x, y+60, color.RGBA{230, 20, 30, 255})
		}
	}
	if c := q.Palette[q.Paletted(later).ColorIndexAt(5, 65)].(color.RGBA); c.R < 200 || c.G > 60 || c.B > 60 {
		t.Errorf("a new red became %v", c)
	}

	again := NewQuantizer(scene())
	if len(again.Palette) != len(q.Palette) {
		t.Fatalf("the same frame gave %d and %d colours", len(q.Palette), len(again.Palette))
	}
	for i := range q.Palette {
		if q.Palette[i] != again.Palette[i] {
			t.Fatalf("the same frame gave different palettes at %d: %v, %v", i, q.Palette[i], again.Palette[i])
		}
	}

	rec := NewRecorder(5, 0)
	rec.Add(p)
	rec.Add(q.Paletted(later))
	var buf bytes.Buffer
	if err := rec.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if g, err := gif.DecodeAll(&buf); err != nil || len(g.Image) != 2 {
		t.Fatalf("GIF does not decode to its 2 frames: %v", err)
	}
}
