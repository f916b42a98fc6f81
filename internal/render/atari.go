package render

import (
	"fmt"
	"image"
	"image/color"

	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// AtariPalette is the Atari 2600's NTSC colours (ALE's table) as a GIF palette: entry
// i is the colour of screen byte 2i. Its 128 entries fit a GIF frame exactly, so Atari
// frames are stored without any colour loss.
var AtariPalette = func() color.Palette {
	p := make(color.Palette, len(vcs.NTSCPalette))
	for i, c := range vcs.NTSCPalette {
		p[i] = color.RGBA{c[0], c[1], c[2], 255}
	}
	return p
}()

// Atari turns an emulator screen (width x height TIA colour bytes, row-major, as
// atari.ALE.Screen returns it) into a paletted image, each pixel scaled to sx x sy
// pixels (2 x 1 gives the screen roughly its television aspect).
func Atari(screen []byte, width, height, sx, sy int) (*image.Paletted, error) {
	if width <= 0 || height <= 0 || len(screen) < width*height {
		return nil, fmt.Errorf("render: Atari screen of %d bytes is smaller than %d x %d", len(screen), width, height)
	}
	sx, sy = max(sx, 1), max(sy, 1)
	img := image.NewPaletted(image.Rect(0, 0, width*sx, height*sy), AtariPalette)
	for y := range height {
		row := screen[y*width : (y+1)*width]
		for dy := range sy {
			out := img.Pix[(y*sy+dy)*img.Stride:]
			for x, b := range row {
				for dx := range sx {
					out[x*sx+dx] = b >> 1
				}
			}
		}
	}
	return img, nil
}

// Framer is what an environment implements to be recorded from its own pixels instead
// of a drawing of its observation: Frame returns the current screen as a new image
// (the recorder keeps it). An Atari env can return Atari(ale.Screen(), 160,
// ale.ScreenHeight(), 2, 1); play does that itself for envs with an ALE() method.
type Framer interface {
	Frame() (*image.Paletted, error)
}
