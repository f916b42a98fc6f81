package render

import (
	"bytes"
	"image"
	"image/color"
	"testing"
)

func TestPictureRGBPalettedHalvesWidth(t *testing.T) {
	pal := color.Palette{color.RGBA{0, 0, 0, 255}, color.RGBA{10, 20, 30, 255}, color.RGBA{200, 100, 50, 255}}
	img := image.NewPaletted(image.Rect(0, 0, 4, 2), pal)
	copy(img.Pix, []byte{0, 1, 0, 2, 2, 2, 1, 1})
	dst := make([]byte, 2*2*3)
	if err := RGBFrame(dst, img, 2, 2); err != nil {
		t.Fatal(err)
	}
	// Output column x samples source column 2x+1.
	want := []byte{10, 20, 30, 200, 100, 50, 200, 100, 50, 10, 20, 30}
	if !bytes.Equal(dst, want) {
		t.Fatalf("got %v, want %v", dst, want)
	}
}

func TestPictureRGBSameSizeCopiesRGBA(t *testing.T) {
	img := image.NewRGBA(image.Rect(5, 5, 7, 6)) // bounds need not start at 0
	copy(img.Pix, []byte{1, 2, 3, 255, 4, 5, 6, 255})
	dst := make([]byte, 6)
	if err := RGBFrame(dst, img, 2, 1); err != nil {
		t.Fatal(err)
	}
	if want := []byte{1, 2, 3, 4, 5, 6}; !bytes.Equal(dst, want) {
		t.Fatalf("got %v, want %v", dst, want)
	}
}

func TestPictureRGBEnlargesAnyImage(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 1, 2))
	img.Pix[0], img.Pix[1] = 7, 9
	dst := make([]byte, 2*4*3)
	if err := RGBFrame(dst, img, 2, 4); err != nil {
		t.Fatal(err)
	}
	for y := range 4 {
		g := byte(7)
		if y >= 2 {
			g = 9
		}
		for i := range 6 {
			if dst[y*6+i] != g {
				t.Fatalf("row %d: %v; want grey %d", y, dst[y*6:y*6+6], g)
			}
		}
	}
}

func TestPictureRGBRefusesBadSizes(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 2, 2))
	if err := RGBFrame(make([]byte, 11), img, 2, 2); err == nil {
		t.Fatal("a buffer too small for 2 x 2 RGB was accepted")
	}
	if err := RGBFrame(make([]byte, 12), image.NewGray(image.Rect(0, 0, 0, 0)), 2, 2); err == nil {
		t.Fatal("an empty picture was accepted")
	}
}
