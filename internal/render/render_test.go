package render

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

// twoColours is the palette of the test pictures: background 0, a bar 1.
var twoColours = color.Palette{color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}}

// bar returns a 300 x 200 paletted picture with a 20-pixel-wide bar at column x.
func bar(x int) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, 300, 200), twoColours)
	for y := range 200 {
		for dx := range 20 {
			img.SetColorIndex(x+dx, y, 1)
		}
	}
	return img
}

func TestRecorderWritesAnimatedGIF(t *testing.T) {
	r := NewRecorder(2, 3)
	for i := range 5 {
		r.Add(bar(40 * i))
	}
	if r.Len() != 3 || r.Dropped != 2 {
		t.Fatalf("kept %d dropped %d, want 3 and 2", r.Len(), r.Dropped)
	}
	var buf bytes.Buffer
	if err := r.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 || g.Delay[0] != 2 || g.Image[0].Bounds().Dx() != 300 {
		t.Fatalf("decoded %d frames, delay %v, width %d", len(g.Image), g.Delay, g.Image[0].Bounds().Dx())
	}
	if bytes.Equal(g.Image[0].Pix, g.Image[2].Pix) {
		t.Error("frames of a moving bar are identical")
	}
	if !bytes.Equal(g.Image[1].Pix, bar(40).Pix) {
		t.Error("the second frame does not decode to the picture recorded")
	}
	if err := NewRecorder(2, 0).Encode(&buf); err == nil {
		t.Error("encoding no frames succeeded")
	}
}

// TestFramesPaletted checks that a paletted picture is kept exactly, in a copy the
// env may overwrite, and that true-colour pictures share the palette chosen from the
// first one, whatever their image type.
func TestFramesPaletted(t *testing.T) {
	var f Frames
	pic := bar(10)
	got := f.Paletted(pic)
	if !bytes.Equal(got.Pix, pic.Pix) || got.Rect != pic.Rect || len(got.Palette) != 2 {
		t.Fatalf("a paletted picture changed: %v, %d colours", got.Rect, len(got.Palette))
	}
	pic.Pix[0] = 1 // the env draws its next picture into the same image
	if got.Pix[0] != 0 {
		t.Error("the frame shares its pixels with the env's picture")
	}

	first := scene()
	want := NewQuantizer(first)
	if p := f.Paletted(first); !bytes.Equal(p.Pix, want.Paletted(first).Pix) {
		t.Error("the first true-colour picture is not reduced to its own median-cut palette")
	}
	// A later picture, here as an NRGBA image, is mapped to the same palette.
	later := image.NewNRGBA(first.Rect)
	for i := range later.Pix {
		later.Pix[i] = first.Pix[len(first.Pix)-1-i]
	}
	for i := 3; i < len(later.Pix); i += 4 {
		later.Pix[i] = 255
	}
	asRGBA := image.NewRGBA(first.Rect)
	copy(asRGBA.Pix, later.Pix)
	p := f.Paletted(later)
	if !bytes.Equal(p.Pix, want.Paletted(asRGBA).Pix) || len(p.Palette) != len(want.Palette) {
		t.Error("a later picture is not mapped to the first picture's palette")
	}
}
