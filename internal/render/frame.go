package render

import (
	"fmt"
	"image"
	"image/color"
)

// RGBFrame writes img into dst as width x height RGB pixels, row-major, 3 bytes each
// (the frames of EnvPool's render), resampled by nearest neighbour when the sizes differ:
// output pixel x takes the source pixel whose span holds the output pixel's centre, so
// the resampling is exact for whole-number ratios (a 320-wide Atari picture sampled to
// 160 takes every second column) and the same on every machine. Alpha is dropped.
func RGBFrame(dst []byte, img image.Image, width, height int) error {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw <= 0 || sh <= 0 {
		return fmt.Errorf("the env drew an empty %d x %d picture", sw, sh)
	}
	if width <= 0 || height <= 0 || len(dst) < width*height*3 {
		return fmt.Errorf("a %d x %d frame does not fit a buffer of %d bytes", width, height, len(dst))
	}
	xs := make([]int, width) // the source column of each output column
	for x := range xs {
		xs[x] = b.Min.X + (2*x+1)*sw/(2*width)
	}
	pal, _ := img.(*image.Paletted)
	var lut [256][3]byte
	if pal != nil {
		for i, c := range pal.Palette {
			lut[i] = rgb8(c)
		}
	}
	rgba, _ := img.(*image.RGBA)
	for y := range height {
		sy := b.Min.Y + (2*y+1)*sh/(2*height)
		out := dst[y*width*3 : (y+1)*width*3]
		for x, sx := range xs {
			var c [3]byte
			switch {
			case pal != nil:
				c = lut[pal.ColorIndexAt(sx, sy)]
			case rgba != nil:
				o := rgba.PixOffset(sx, sy)
				c = [3]byte{rgba.Pix[o], rgba.Pix[o+1], rgba.Pix[o+2]}
			default:
				c = rgb8(img.At(sx, sy))
			}
			copy(out[3*x:], c[:])
		}
	}
	return nil
}

// rgb8 is a colour's 8-bit red, green and blue (alpha-premultiplied, as image.RGBA
// stores them).
func rgb8(c color.Color) [3]byte {
	r, g, b, _ := c.RGBA()
	return [3]byte{byte(r >> 8), byte(g >> 8), byte(b >> 8)}
}
