package mujoco

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
)

// Comparing renderings. Pictures from another Mesa (llvmpipe's rounding, another
// rasteriser) differ from a stored reference in a few levels here and there, so tests
// compare with PictureDiff's two figures against these tolerances instead of asking
// for equality. They are loose enough for another Mesa and tight enough that another
// state or camera fails (the reference tests check both sides).
const (
	ReferenceMeanTol = 4.0  // mean absolute difference per colour channel, of 255
	ReferenceFracTol = 0.04 // fraction of pixels with a channel more than 32 levels off
)

// PictureDiff compares two pictures of the same size: the mean absolute difference per
// colour channel (0-255) and the fraction of pixels where some channel differs by more
// than 32 levels. Alpha is ignored.
func PictureDiff(a, b *image.RGBA) (mean, frac float64) {
	var sum, far int
	n := a.Rect.Dx() * a.Rect.Dy()
	for i := 0; i < len(a.Pix) && i < len(b.Pix); i += 4 {
		worst := 0
		for c := range 3 {
			d := int(a.Pix[i+c]) - int(b.Pix[i+c])
			if d < 0 {
				d = -d
			}
			sum += d
			worst = max(worst, d)
		}
		if worst > 32 {
			far++
		}
	}
	return float64(sum) / float64(3*n), float64(far) / float64(n)
}

// ReadPNG reads a PNG file as an RGBA picture, such as a stored reference rendering.
func ReadPNG(path string) (*image.RGBA, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
	return rgba, nil
}

// WritePNG writes a picture as a PNG file.
func WritePNG(path string, img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
