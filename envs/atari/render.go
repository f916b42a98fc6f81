package atari

import (
	"fmt"
	"image"
	"image/color"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// FrameRate is the NTSC console's rate of emulated frames per second: an env step of
// frame_skip frames lasts frame_skip/FrameRate seconds of game time, so the task's
// pictures, one a step, play at FrameRate/frame_skip frames per second (15 at
// EnvPool's default skip of 4).
const FrameRate = 60

// Palette is the Atari 2600's NTSC colours (ALE's table) as an image palette: entry i
// is the colour of screen byte 2i. Its 128 entries fit a GIF frame exactly, so the
// pictures Env.Render draws are recorded without any colour loss.
var Palette = func() color.Palette {
	p := make(color.Palette, len(vcs.NTSCPalette))
	for i, c := range vcs.NTSCPalette {
		p[i] = color.RGBA{c[0], c[1], c[2], 255}
	}
	return p
}()

// ScreenImage turns an emulator screen (width x height TIA colour bytes, row-major, as
// ALE.Screen returns it) into a paletted image in Palette, each pixel scaled to
// sx x sy pixels (2 x 1 gives the screen roughly its television aspect).
func ScreenImage(screen []byte, width, height, sx, sy int) (*image.Paletted, error) {
	if width <= 0 || height <= 0 || len(screen) < width*height {
		return nil, fmt.Errorf("atari: screen of %d bytes is smaller than %d x %d", len(screen), width, height)
	}
	sx, sy = max(sx, 1), max(sy, 1)
	img := image.NewPaletted(image.Rect(0, 0, width*sx, height*sy), Palette)
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

var _ envpool.Renderer = (*Env)(nil)

// Render returns the emulator's last frame in the console's NTSC colours, each pixel
// two wide so that the picture has roughly its television aspect (envpool.Renderer):
// 320 x 210 for most games. The full-colour screen is drawn whatever the observation's
// size and colour settings; the image is new at each call.
func (e *Env) Render() (image.Image, error) {
	return ScreenImage(e.ale.Screen(), ScreenWidth, e.ale.ScreenHeight(), 2, 1)
}
