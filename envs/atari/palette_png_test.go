package atari

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// ntscPalette maps a palette index (screen byte >> 1) to its colour.
type ntscPalette [128]color.RGBA

// readPalette parses testdata/atari/palette.tsv (index, r, g, b, gray, with a header).
func readPalette(path string) (*ntscPalette, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var p ntscPalette
	seen := 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || fields[0] == "index" {
			continue
		}
		if len(fields) < 4 {
			return nil, fmt.Errorf("%s:%d: want index, r, g, b, gray", path, line)
		}
		var v [4]int
		for i := range v {
			v[i], err = strconv.Atoi(fields[i])
			if err != nil || v[i] < 0 || v[i] > 255 {
				return nil, fmt.Errorf("%s:%d: bad number %q", path, line, fields[i])
			}
		}
		if v[0] >= len(p) {
			return nil, fmt.Errorf("%s:%d: index %d out of range", path, line, v[0])
		}
		p[v[0]] = color.RGBA{uint8(v[1]), uint8(v[2]), uint8(v[3]), 255}
		seen++
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if seen != len(p) {
		return nil, fmt.Errorf("%s: %d colours, want %d", path, seen, len(p))
	}
	return &p, nil
}

// vcsPalette is the console's palette table in the form the PNG writers use.
func vcsPalette() *ntscPalette {
	var p ntscPalette
	for i, c := range vcs.NTSCPalette {
		p[i] = color.RGBA{c[0], c[1], c[2], 255}
	}
	return &p
}

// screenImage renders a screen of colour bytes with the palette, each Atari pixel two
// image pixels wide so the picture has the console's proportions.
func screenImage(screen []byte, w, h int, pal *ntscPalette) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 2*w, h))
	for y := range h {
		for x := range w {
			c := pal[screen[y*w+x]>>1&0x7f]
			img.SetRGBA(2*x, y, c)
			img.SetRGBA(2*x+1, y, c)
		}
	}
	return img
}

// diffImage shows where two screens differ: differing pixels in magenta, the rest in
// a dimmed grey of the wanted screen.
func diffImage(got, want []byte, w, h int, pal *ntscPalette) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 2*w, h))
	for y := range h {
		for x := range w {
			i := y*w + x
			var c color.RGBA
			if got[i] != want[i] {
				c = color.RGBA{255, 0, 255, 255}
			} else {
				wc := pal[want[i]>>1&0x7f]
				g := uint8((int(wc.R) + int(wc.G) + int(wc.B)) / 9)
				c = color.RGBA{g, g, g, 255}
			}
			img.SetRGBA(2*x, y, c)
			img.SetRGBA(2*x+1, y, c)
		}
	}
	return img
}

// writePNG writes an image to path.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// TestPaletteMatchesReference checks the console's palette and gray table against
// ALE's palette in testdata/atari/palette.tsv.
func TestPaletteMatchesReference(t *testing.T) {
	dir := os.Getenv(testdataEnv)
	if dir == "" {
		t.Skipf("set %s to check the palette against ALE's", testdataEnv)
	}
	path := dir + "/atari/palette.tsv"
	ref, err := readPalette(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := vcsPalette(); *got != *ref {
		t.Errorf("vcs.NTSCPalette differs from %s", path)
	}
	grays, err := readGrays(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range grays {
		if vcs.NTSCGray[i] != g {
			t.Errorf("vcs.NTSCGray[%d] = %d, want %d", i, vcs.NTSCGray[i], g)
		}
	}
}

// readGrays reads the gray column of palette.tsv.
func readGrays(path string) ([128]uint8, error) {
	var g [128]uint8
	data, err := os.ReadFile(path)
	if err != nil {
		return g, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 5 || f[0] == "index" {
			continue
		}
		i, err1 := strconv.Atoi(f[0])
		v, err2 := strconv.Atoi(f[4])
		if err1 != nil || err2 != nil || i < 0 || i >= len(g) {
			return g, fmt.Errorf("%s: bad line %q", path, line)
		}
		g[i] = uint8(v)
	}
	return g, nil
}
