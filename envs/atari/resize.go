package atari

import (
	"math"
)

// This file resizes one 8-bit image plane the way OpenCV's cv::resize does, so that
// observations match EnvPool's bit for bit. EnvPool resizes the max-pooled frame with
// INTER_AREA by default and with INTER_LINEAR when use_inter_area_resize is false.
//
// INTER_AREA when shrinking (OpenCV's resizeArea path, used whenever neither axis is
// enlarged and the scales are not both integers): each destination pixel is the
// area-weighted mean of the source pixels its cell covers. Per axis, destination cell d
// spans [d*scale, (d+1)*scale) in source coordinates (scale = 1/(dst/src), computed in
// float64 as OpenCV does); a source pixel covered fully weighs 1/cellWidth and a
// partly covered one its covered fraction over cellWidth, where cellWidth is
// min(scale, src-d*scale). Fractions of 1e-3 or less are dropped. The weights are
// float32. OpenCV accumulates in float32: first each source row horizontally
// (row[d] += src[s]*alpha, in source order), then the rows vertically
// (sum = beta0*row0; sum += beta_j*row_j), and rounds the sum half to even with
// saturation to 0..255. Every product and sum here is rounded to float32 explicitly
// (the conversions also stop the compiler from fusing a multiply and an add).
//
// INTER_AREA with two integer scales averages each scale_x x scale_y block
// (resizeAreaFast); INTER_AREA that enlarges an axis and INTER_LINEAR use OpenCV's
// fixed-point bilinear path (11-bit coefficients), as its scalar code computes it.

// resizer resizes planes of one fixed source size to one fixed destination size. Its
// tables are computed once; it also keeps the previous call's intermediate rows and
// output, so that a caller that knows which source rows changed (most of an Atari
// screen does not, from one step to the next) pays only for those. Not safe for
// concurrent use; one per env and plane.
type resizer struct {
	sw, sh, dw, dh int
	kind           resizeKind

	// area: per destination column and row, the first source index and the weights
	// of the consecutive source pixels it covers.
	xs, ys       []areaSpan
	rowF         [][]float32 // per source row: the horizontal pass (dw values)
	rowChanged   []bool      // per source row: recomputed in this call
	prevOut      []uint8     // the previous output, reused for unchanged rows
	acc          []float32   // a row of sums (vertical spans of more than 3 rows)
	primed       bool        // rowF and prevOut hold a previous call's data
	fastX, fastY int         // integer scales of the block-average path

	// linear: OpenCV's fixed-point tables.
	xofs, yofs    []int
	ialpha, ibeta []int32 // 2 per column / row
	xmax          int     // columns from xmax on use the left pixel alone
	hbuf0, hbuf1  []int32
	u8tof32       [256]float32
}

// resizeKind selects the algorithm a resizer runs.
type resizeKind int

const (
	resizeCopy     resizeKind = iota // same size: a copy, as cv::resize does
	resizeArea                       // INTER_AREA shrink, fractional weights
	resizeAreaFast                   // INTER_AREA with integer scales on both axes
	resizeLinear                     // fixed-point bilinear (INTER_LINEAR, or INTER_AREA enlarging)
)

// areaSpan is the source pixels one destination pixel of INTER_AREA covers along an
// axis: start, start+1, ... with these weights.
type areaSpan struct {
	start int
	w     []float32
}

// newResizer builds a resizer from sw x sh to dw x dh; area selects INTER_AREA, else
// INTER_LINEAR.
func newResizer(sw, sh, dw, dh int, area bool) *resizer {
	r := &resizer{sw: sw, sh: sh, dw: dw, dh: dh}
	for i := range r.u8tof32 {
		r.u8tof32[i] = float32(i)
	}
	invX, invY := float64(dw)/float64(sw), float64(dh)/float64(sh)
	scaleX, scaleY := 1/invX, 1/invY
	ix, iy := int(math.RoundToEven(scaleX)), int(math.RoundToEven(scaleY))
	areaFast := math.Abs(scaleX-float64(ix)) < 2.220446049250313e-16 && math.Abs(scaleY-float64(iy)) < 2.220446049250313e-16
	switch {
	case sw == dw && sh == dh:
		r.kind = resizeCopy
	case !area && areaFast && ix == 2 && iy == 2:
		// OpenCV answers INTER_LINEAR at exactly half size with the area average.
		r.kind, r.fastX, r.fastY = resizeAreaFast, 2, 2
	case area && scaleX >= 1 && scaleY >= 1 && areaFast:
		r.kind, r.fastX, r.fastY = resizeAreaFast, ix, iy
	case area && scaleX >= 1 && scaleY >= 1:
		r.kind = resizeArea
		r.xs = areaSpans(sw, dw, scaleX)
		r.ys = areaSpans(sh, dh, scaleY)
		r.rowF = make([][]float32, sh)
		for i := range r.rowF {
			r.rowF[i] = make([]float32, dw)
		}
		r.rowChanged = make([]bool, sh)
		r.prevOut = make([]uint8, dw*dh)
		r.acc = make([]float32, dw)
	default:
		r.kind = resizeLinear
		r.linearTables(invX, invY, scaleX, scaleY, area)
	}
	return r
}

// areaSpans is OpenCV's computeResizeAreaTab for one axis, grouped by destination
// index (the entries of one destination index are consecutive source pixels).
func areaSpans(ssize, dsize int, scale float64) []areaSpan {
	spans := make([]areaSpan, dsize)
	for d := range dsize {
		fs1 := float64(d) * scale
		fs2 := fs1 + scale
		cell := math.Min(scale, float64(ssize)-fs1)
		s1, s2 := int(math.Ceil(fs1)), int(math.Floor(fs2))
		s2 = min(s2, ssize-1)
		s1 = min(s1, s2)
		sp := &spans[d]
		sp.start = s1
		if float64(s1)-fs1 > 1e-3 {
			sp.start = s1 - 1
			sp.w = append(sp.w, float32((float64(s1)-fs1)/cell))
		}
		for range s2 - s1 {
			sp.w = append(sp.w, float32(1.0/cell))
		}
		if fs2-float64(s2) > 1e-3 {
			sp.w = append(sp.w, float32(math.Min(math.Min(fs2-float64(s2), 1), cell)/cell))
		}
	}
	return spans
}

// Fixed-point bilinear coefficients: OpenCV's INTER_RESIZE_COEF_BITS.
const (
	resizeCoefBits  = 11
	resizeCoefScale = 1 << resizeCoefBits
)

// linearTables computes OpenCV's offsets and 11-bit coefficients for the bilinear path
// (areaMode: INTER_AREA emulated when enlarging, which uses other coefficients).
func (r *resizer) linearTables(invX, invY, scaleX, scaleY float64, areaMode bool) {
	r.xofs, r.ialpha = make([]int, r.dw), make([]int32, 2*r.dw)
	r.yofs, r.ibeta = make([]int, r.dh), make([]int32, 2*r.dh)
	r.xmax = r.dw
	coef := func(d int, scale, inv float64, ssize int, isX bool) (int, float32) {
		var s int
		var f float32
		if !areaMode {
			f = float32((float64(d)+0.5)*scale - 0.5)
			s = int(math.Floor(float64(f)))
			f -= float32(s)
		} else {
			s = int(math.Floor(float64(d) * scale))
			f = float32(float64(d+1) - float64(s+1)*inv)
			if f <= 0 {
				f = 0
			} else {
				f -= float32(math.Floor(float64(f)))
			}
		}
		if s < 0 {
			f, s = 0, 0
		}
		if s+1 >= ssize {
			if isX {
				r.xmax = min(r.xmax, d)
			}
			if s >= ssize-1 {
				f, s = 0, ssize-1
			}
		}
		return s, f
	}
	for d := range r.dw {
		s, f := coef(d, scaleX, invX, r.sw, true)
		r.xofs[d] = s
		r.ialpha[2*d] = saturateShort((1 - f) * resizeCoefScale)
		r.ialpha[2*d+1] = saturateShort(f * resizeCoefScale)
	}
	for d := range r.dh {
		s, f := coef(d, scaleY, invY, r.sh, false)
		r.yofs[d] = s
		r.ibeta[2*d] = saturateShort((1 - f) * resizeCoefScale)
		r.ibeta[2*d+1] = saturateShort(f * resizeCoefScale)
	}
	r.hbuf0, r.hbuf1 = make([]int32, r.dw), make([]int32, r.dw)
}

// saturateShort is OpenCV's saturate_cast<short>(float): round half to even, clamp.
func saturateShort(v float32) int32 {
	x := math.RoundToEven(float64(v))
	return int32(min(max(x, -32768), 32767))
}

// saturateU8 is OpenCV's saturate_cast<uchar>(float): round half to even, clamp.
func saturateU8(v float32) uint8 {
	x := math.RoundToEven(float64(v))
	if x <= 0 {
		return 0
	}
	if x >= 255 {
		return 255
	}
	return uint8(x)
}

// resize writes the resized src (sw x sh, row-major) into dst (dw x dh).
func (r *resizer) resize(src, dst []uint8) { r.resizeRows(src, dst, nil) }

// resizeRows is resize when the caller knows which source rows changed since its
// previous call on this resizer (changed[y] false: row y is as it was); nil means any
// may have. Only INTER_AREA shrinking uses the knowledge.
func (r *resizer) resizeRows(src, dst []uint8, changed []bool) {
	switch r.kind {
	case resizeCopy:
		copy(dst[:r.dw*r.dh], src[:r.sw*r.sh])
	case resizeArea:
		r.area(src, dst, changed)
	case resizeAreaFast:
		r.areaFast(src, dst)
	default:
		r.linear(src, dst)
	}
}

// area is OpenCV's ResizeArea_Invoker for one channel. Source rows that changed is
// false for (a nil changed means all) are taken to equal the previous call's, so their
// first pass and the output rows depending only on them are reused.
func (r *resizer) area(src, dst []uint8, changed []bool) {
	sw, dw := r.sw, r.dw
	all := changed == nil || !r.primed
	for y := range r.sh {
		if !all && !changed[y] {
			r.rowChanged[y] = false
			continue
		}
		r.rowChanged[y] = true
		row := src[y*sw : (y+1)*sw]
		if y > 0 && string(row) == string(src[(y-1)*sw:y*sw]) {
			// Atari kernels often draw a line twice: the first pass of the row above
			// (current, whether just computed or kept) is this row's too.
			copy(r.rowF[y][:dw], r.rowF[y-1][:dw])
			continue
		}
		r.horizontal(row, r.rowF[y][:dw])
	}
	for dy := range r.dh {
		sp := &r.ys[dy]
		o := r.prevOut[dy*dw : (dy+1)*dw]
		redo := all
		for k := range sp.w {
			redo = redo || r.rowChanged[sp.start+k]
		}
		if redo {
			r.vertical(sp, o)
		}
		copy(dst[dy*dw:(dy+1)*dw], o)
	}
	r.primed = true
}

// horizontal is the first pass of INTER_AREA over one source row: out[dx] is the sum,
// in source order and in float32, of the covered pixels times their weights.
func (r *resizer) horizontal(row []uint8, out []float32) {
	for dx := range out {
		sp := &r.xs[dx]
		w := sp.w
		s := row[sp.start:]
		switch len(w) {
		case 2:
			s = s[:2]
			out[dx] = float32(float32(float32(s[0])*w[0]) + float32(float32(s[1])*w[1]))
		case 3:
			s = s[:3]
			a := float32(float32(float32(s[0])*w[0]) + float32(float32(s[1])*w[1]))
			out[dx] = float32(a + float32(float32(s[2])*w[2]))
		default:
			s = s[:len(w)]
			var acc float32
			for k, wk := range w {
				acc = float32(acc + float32(float32(s[k])*wk))
			}
			out[dx] = acc
		}
	}
}

// vertical is the second pass for one output row: the weighted sum of the covered
// rows' first-pass values (the first product, then the others added in order),
// rounded half to even and saturated.
func (r *resizer) vertical(sp *areaSpan, o []uint8) {
	dw := len(o)
	r0 := r.rowF[sp.start][:dw]
	b0 := sp.w[0]
	switch len(sp.w) {
	case 2:
		r1 := r.rowF[sp.start+1][:dw]
		b1 := sp.w[1]
		for dx := range o {
			o[dx] = roundU8(float32(float32(b0*r0[dx]) + float32(b1*r1[dx])))
		}
	case 3:
		r1 := r.rowF[sp.start+1][:dw]
		r2 := r.rowF[sp.start+2][:dw]
		b1, b2 := sp.w[1], sp.w[2]
		for dx := range o {
			a := float32(float32(b0*r0[dx]) + float32(b1*r1[dx]))
			o[dx] = roundU8(float32(a + float32(b2*r2[dx])))
		}
	default:
		acc := r.acc[:dw]
		for dx := range acc {
			acc[dx] = float32(b0 * r0[dx])
		}
		for k := 1; k < len(sp.w); k++ {
			b := sp.w[k]
			rf := r.rowF[sp.start+k][:dw]
			for dx := range acc {
				acc[dx] = float32(acc[dx] + float32(b*rf[dx]))
			}
		}
		for dx := range o {
			o[dx] = roundU8(acc[dx])
		}
	}
}

// roundMagic is 1.5 * 2^23: adding it to a float32 in [0, 2^22) leaves the value
// rounded to an integer, half to even (the FPU's rounding), in the low mantissa bits.
const roundMagic = 12582912

// roundU8 is saturate_cast<uchar>(float) for the non-negative sums of INTER_AREA:
// round half to even, saturate at 255.
func roundU8(v float32) uint8 {
	if v >= 255 {
		return 255
	}
	if !(v > 0) {
		return 0
	}
	return uint8(int32(float32(v+roundMagic)) - roundMagic)
}

// areaFast is OpenCV's resizeAreaFast for one channel: the mean of each integer
// block; 2x2 blocks round half up with (sum+2)>>2 as OpenCV's 8-bit code does, other
// sizes multiply by 1/area in float32 and round half to even. Blocks cut by the
// bottom or right edge average the pixels that exist.
func (r *resizer) areaFast(src, dst []uint8) {
	sx, sy := r.fastX, r.fastY
	scale := float32(1) / float32(sx*sy)
	full := r.sw / sx
	for dy := range r.dh {
		y0 := dy * sy
		out := dst[dy*r.dw : (dy+1)*r.dw]
		if y0 >= r.sh {
			clear(out)
			continue
		}
		w := 0
		if y0+sy <= r.sh {
			w = full
		}
		for dx := range w {
			x0 := dx * sx
			sum := 0
			for j := range sy {
				for _, v := range src[(y0+j)*r.sw+x0 : (y0+j)*r.sw+x0+sx] {
					sum += int(v)
				}
			}
			if sx == 2 && sy == 2 {
				out[dx] = uint8((sum + 2) >> 2)
			} else {
				out[dx] = saturateU8(float32(float32(sum) * scale))
			}
		}
		for dx := w; dx < r.dw; dx++ {
			x0 := dx * sx
			sum, count := 0, 0
			for j := 0; j < sy && y0+j < r.sh; j++ {
				for i := 0; i < sx && x0+i < r.sw; i++ {
					sum += int(src[(y0+j)*r.sw+x0+i])
					count++
				}
			}
			if count == 0 {
				out[dx] = 0
				continue
			}
			out[dx] = saturateU8(float32(sum) / float32(count))
		}
	}
}

// linear is OpenCV's fixed-point bilinear resize of 8-bit images (resizeGeneric_ with
// HResizeLinear and VResizeLinear): a horizontal pass to integers scaled by 2^11, a
// vertical pass, then (v + 2^21) >> 22.
func (r *resizer) linear(src, dst []uint8) {
	hrow := func(y int, out []int32) {
		row := src[y*r.sw : (y+1)*r.sw]
		for dx := range r.dw {
			s := r.xofs[dx]
			if dx < r.xmax {
				out[dx] = int32(row[s])*r.ialpha[2*dx] + int32(row[s+1])*r.ialpha[2*dx+1]
			} else {
				out[dx] = int32(row[s]) * resizeCoefScale
			}
		}
	}
	for dy := range r.dh {
		y0 := r.yofs[dy]
		y1 := min(y0+1, r.sh-1)
		hrow(y0, r.hbuf0)
		hrow(y1, r.hbuf1)
		b0, b1 := r.ibeta[2*dy], r.ibeta[2*dy+1]
		out := dst[dy*r.dw : (dy+1)*r.dw]
		for dx := range r.dw {
			v := (r.hbuf0[dx]*b0 + r.hbuf1[dx]*b1 + 1<<(2*resizeCoefBits-1)) >> (2 * resizeCoefBits)
			out[dx] = uint8(min(max(v, 0), 255))
		}
	}
}
