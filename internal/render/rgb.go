package render

import (
	"image"
	"image/color"
	"slices"
)

// Quantizer reduces the true-colour frames of one recording to a single 256-colour
// palette: up to 229 colours chosen from the first frame by median cut, which keeps a
// scene's own tints (a bluish sky, a pale green floor) that any general-purpose
// palette turns grey, and the 27 colours of a 3x3x3 cube for what the first frame
// lacks. One palette for the whole recording keeps colours steady from frame to frame;
// a table of 32768 entries (5 bits a channel) maps each pixel without a search.
type Quantizer struct {
	Palette color.Palette
	table   []uint8
}

// cubeColours is how many palette entries the fixed cube takes.
const cubeColours = 27

// NewQuantizer chooses the palette from a recording's first frame.
func NewQuantizer(first *image.RGBA) *Quantizer {
	hist := map[uint16]int{}
	b := first.Rect
	for y := range b.Dy() {
		row := first.Pix[y*first.Stride:]
		for x := range b.Dx() {
			hist[key15(row[4*x], row[4*x+1], row[4*x+2])]++
		}
	}
	pal := medianCut(hist, 256-cubeColours)
	for _, r := range []uint8{0, 128, 255} {
		for _, g := range []uint8{0, 128, 255} {
			for _, bl := range []uint8{0, 128, 255} {
				pal = append(pal, color.RGBA{r, g, bl, 255})
			}
		}
	}
	q := &Quantizer{Palette: pal, table: make([]uint8, 1<<15)}
	for i := range q.table {
		r, g, bl := expand5(i>>10), expand5(i>>5&31), expand5(i&31)
		best, bestD := 0, 1<<30
		for j, c := range pal {
			pc := c.(color.RGBA)
			dr, dg, db := r-int(pc.R), g-int(pc.G), bl-int(pc.B)
			// Weighted like the eye: green counts most, blue least.
			if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
				best, bestD = j, d
			}
		}
		q.table[i] = uint8(best)
	}
	return q
}

// Paletted converts a frame (of any size) to a new paletted image; the frame can be
// reused afterwards.
func (q *Quantizer) Paletted(img *image.RGBA) *image.Paletted {
	b := img.Rect
	out := image.NewPaletted(image.Rect(0, 0, b.Dx(), b.Dy()), q.Palette)
	for y := range b.Dy() {
		src := img.Pix[y*img.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := range b.Dx() {
			dst[x] = q.table[key15(src[4*x], src[4*x+1], src[4*x+2])]
		}
	}
	return out
}

// key15 packs the top 5 bits of each channel: r<<10 | g<<5 | b.
func key15(r, g, b uint8) uint16 { return uint16(r>>3)<<10 | uint16(g>>3)<<5 | uint16(b>>3) }

// expand5 is the 8-bit value at the middle of a 5-bit bucket.
func expand5(v int) int { return v<<3 | 4 }

// colourBox is a set of histogram cells (15-bit colours with their pixel counts).
type colourBox struct {
	cells []uint16
	count int
}

// medianCut splits the histogram's colours into at most n boxes, each time cutting the
// box with the most pixels (among those with more than one colour) across its widest
// channel at the pixel median, and returns each box's pixel-weighted mean colour.
func medianCut(hist map[uint16]int, n int) color.Palette {
	all := colourBox{}
	for k, c := range hist {
		all.cells = append(all.cells, k)
		all.count += c
	}
	slices.Sort(all.cells) // map order is random; the palette must not be
	boxes := []colourBox{all}
	for len(boxes) < n {
		pick := -1
		for i, bx := range boxes {
			if len(bx.cells) > 1 && (pick < 0 || bx.count > boxes[pick].count) {
				pick = i
			}
		}
		if pick < 0 {
			break // every box is one colour
		}
		bx := boxes[pick]
		shift := widestChannel(bx.cells)
		slices.SortStableFunc(bx.cells, func(a, b uint16) int { return int(a>>shift&31) - int(b>>shift&31) })
		half, acc, cut := bx.count/2, 0, 1
		for i, k := range bx.cells[:len(bx.cells)-1] {
			acc += hist[k]
			cut = i + 1
			if acc >= half {
				break
			}
		}
		lo, hi := colourBox{cells: bx.cells[:cut]}, colourBox{cells: bx.cells[cut:]}
		for _, k := range lo.cells {
			lo.count += hist[k]
		}
		hi.count = bx.count - lo.count
		boxes[pick] = lo
		boxes = append(boxes, hi)
	}
	pal := make(color.Palette, 0, len(boxes))
	for _, bx := range boxes {
		var r, g, b, w int
		for _, k := range bx.cells {
			c := hist[k]
			r += expand5(int(k>>10)) * c
			g += expand5(int(k>>5&31)) * c
			b += expand5(int(k&31)) * c
			w += c
		}
		if w > 0 {
			pal = append(pal, color.RGBA{uint8(r / w), uint8(g / w), uint8(b / w), 255})
		}
	}
	return pal
}

// widestChannel returns the bit shift (10 red, 5 green, 0 blue) of the channel whose
// values spread most among the cells.
func widestChannel(cells []uint16) uint {
	best, bestSpan := uint(10), -1
	for _, shift := range []uint{10, 5, 0} {
		lo, hi := 31, 0
		for _, k := range cells {
			v := int(k >> shift & 31)
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi-lo > bestSpan {
			best, bestSpan = shift, hi-lo
		}
	}
	return best
}
