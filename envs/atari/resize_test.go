package atari

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAreaSpans checks INTER_AREA's per-axis weights against values worked out by
// hand from the area rule: 5 -> 2 has scale 2.5, so destination 0 covers source
// pixels 0 and 1 fully and half of pixel 2 (weights 1/2.5, 1/2.5, 0.5/2.5), and
// destination 1 the other half of 2 and pixels 3 and 4; 160 -> 84 has scale 1/0.525,
// so destination 0 covers pixel 0 fully (0.525) and 0.9047619 of pixel 1 (0.475).
func TestAreaSpans(t *testing.T) {
	check := func(name string, got areaSpan, start int, want []float64) {
		t.Helper()
		if got.start != start || len(got.w) != len(want) {
			t.Fatalf("%s: span start %d weights %v, want start %d weights %v", name, got.start, got.w, start, want)
		}
		for i, w := range want {
			if math.Abs(float64(got.w[i])-w) > 1e-6 {
				t.Errorf("%s: weight %d = %v, want %v", name, i, got.w[i], w)
			}
		}
	}
	s := areaSpans(5, 2, 1/(2.0/5.0))
	check("5->2 d0", s[0], 0, []float64{0.4, 0.4, 0.2})
	check("5->2 d1", s[1], 2, []float64{0.2, 0.4, 0.4})
	s = areaSpans(160, 84, 1/(84.0/160.0))
	check("160->84 d0", s[0], 0, []float64{0.525, 0.475})
	check("160->84 d83", s[83], 158, []float64{0.475, 0.525})
	s = areaSpans(210, 84, 1/(84.0/210.0))
	check("210->84 d0", s[0], 0, []float64{0.4, 0.4, 0.2})
	check("210->84 d1", s[1], 2, []float64{0.2, 0.4, 0.4})
}

// TestInterAreaSynthetic resizes small synthetic frames whose results were computed by
// hand.
func TestInterAreaSynthetic(t *testing.T) {
	// 5x5 -> 2x2 of the ramp v(y, x) = 40y + 10x: each output is 40*E[y] + 10*E[x]
	// with E the weighted mean source index of its cell: 0.8 for cell 0
	// (0*0.4 + 1*0.4 + 2*0.2) and 3.2 for cell 1 (2*0.2 + 3*0.4 + 4*0.4).
	src := make([]uint8, 25)
	for y := range 5 {
		for x := range 5 {
			src[y*5+x] = uint8(40*y + 10*x)
		}
	}
	dst := make([]uint8, 4)
	newResizer(5, 5, 2, 2, true).resize(src, dst)
	if want := []uint8{40, 64, 136, 160}; string(dst) != string(want) {
		t.Errorf("5x5 ramp -> 2x2 = %v, want %v", dst, want)
	}

	// 160x210 -> 84x84 spot checks. Rows: output row 0 weighs source rows 0, 1, 2
	// by 0.4, 0.4, 0.2. Columns: output column 0 weighs source columns 0, 1 by 0.525,
	// 0.475.
	frame := make([]uint8, 160*210)
	frame[1*160+1] = 200 // 200 * 0.4 * 0.475 = 38 at (0, 0)
	frame[2*160+0] = 255 // + 255 * 0.2 * 0.525 = 26.775 at (0, 0): 64.775 -> 65
	frame[209*160+159] = 100
	out := make([]uint8, 84*84)
	newResizer(160, 210, 84, 84, true).resize(frame, out)
	if out[0] != 65 {
		t.Errorf("84x84 (0,0) = %d, want 65 (38 + 26.775)", out[0])
	}
	// Source (209, 159) lies only in output (83, 83): weight 0.4 * 0.525 = 0.21, so 21.
	if out[83*84+83] != 21 {
		t.Errorf("84x84 (83,83) = %d, want 21 (100 * 0.4 * 0.525)", out[83*84+83])
	}
	// Source row 2 is shared by output rows 0 and 1 (0.2 each): (1, 0) = 255 * 0.2 *
	// 0.525 = 26.775 -> 27.
	if out[84] != 27 {
		t.Errorf("84x84 (1,0) = %d, want 27", out[84])
	}
	// Output column 1 starts 0.0952381 into source column 1, so it takes a sliver of
	// it: 200 * 0.4 * (0.0952381/1.9047619 = 0.05) = 4 at (0, 1).
	if out[1] != 4 {
		t.Errorf("84x84 (0,1) = %d, want 4", out[1])
	}
	for i, v := range out {
		if v != 0 && i != 0 && i != 1 && i != 84 && i != 83*84+83 {
			t.Errorf("84x84 pixel (%d,%d) = %d, want 0", i/84, i%84, v)
		}
	}
}

// areaReference is INTER_AREA from its definition, in float64: the mean of the source
// image over each destination cell (pixels weighted by the area they share with it).
func areaReference(src []uint8, sw, sh, dw, dh int) []float64 {
	sx, sy := float64(sw)/float64(dw), float64(sh)/float64(dh)
	overlap := func(a0, a1 float64, p int) float64 {
		return math.Max(0, math.Min(a1, float64(p+1))-math.Max(a0, float64(p)))
	}
	out := make([]float64, dw*dh)
	for dy := range dh {
		y0, y1 := float64(dy)*sy, float64(dy+1)*sy
		for dx := range dw {
			x0, x1 := float64(dx)*sx, float64(dx+1)*sx
			sum := 0.0
			for y := int(y0); y < sh && float64(y) < y1; y++ {
				wy := overlap(y0, y1, y)
				for x := int(x0); x < sw && float64(x) < x1; x++ {
					sum += wy * overlap(x0, x1, x) * float64(src[y*sw+x])
				}
			}
			out[dy*dw+dx] = sum / (sx * sy)
		}
	}
	return out
}

// TestInterAreaMatchesDefinition compares the OpenCV-exact resize with the definition
// on random frames: they must agree to the integer wherever the exact mean is not
// within float32 noise of a rounding boundary. It then changes a few rows and resizes
// again telling the resizer which rows changed, to check the unchanged-row reuse.
func TestInterAreaMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][4]int{{160, 210, 84, 84}, {160, 210, 64, 48}, {7, 9, 3, 4}} {
		sw, sh, dw, dh := sz[0], sz[1], sz[2], sz[3]
		r := newResizer(sw, sh, dw, dh, true)
		src := make([]uint8, sw*sh)
		for i := range src {
			src[i] = uint8(rng.IntN(256))
		}
		// Some rows repeat the row above, as Atari kernels draw them.
		for _, y := range []int{1, 2, sh - 1} {
			copy(src[y*sw:(y+1)*sw], src[(y-1)*sw:y*sw])
		}
		for round := range 3 {
			changed := make([]bool, sh)
			if round > 0 {
				for range 5 {
					y := rng.IntN(sh)
					changed[y] = true
					for x := range sw {
						src[y*sw+x] = uint8(rng.IntN(256))
					}
				}
			}
			got := make([]uint8, dw*dh)
			if round == 0 {
				r.resize(src, got)
			} else {
				r.resizeRows(src, got, changed) // only the changed rows are recomputed
			}
			want := areaReference(src, sw, sh, dw, dh)
			for i, w := range want {
				if frac := w - math.Floor(w); math.Abs(frac-0.5) < 1e-3 {
					continue
				}
				if int(got[i]) != int(math.Round(w)) {
					t.Fatalf("%dx%d -> %dx%d round %d: pixel %d = %d, definition gives %.4f", sw, sh, dw, dh, round, i, got[i], w)
				}
			}
		}
	}
}

// TestAreaFast checks the integer-scale path: 2x2 blocks round half up as OpenCV's
// (sum+2)>>2 does, so a block summing to 2 gives 1 (not 0, as rounding 0.5 to even
// would).
func TestAreaFast(t *testing.T) {
	src := []uint8{
		1, 1, 10, 20,
		0, 0, 30, 40,
		255, 255, 3, 3,
		255, 255, 3, 2,
	}
	dst := make([]uint8, 4)
	newResizer(4, 4, 2, 2, true).resize(src, dst)
	if want := []uint8{1, 25, 255, 3}; string(dst) != string(want) {
		t.Errorf("4x4 -> 2x2 area = %v, want %v", dst, want)
	}
	// 3x3 blocks: mean in float32, rounded half to even.
	src9 := []uint8{0, 0, 0, 0, 0, 0, 0, 0, 9 * 5}
	d := make([]uint8, 1)
	newResizer(3, 3, 1, 1, true).resize(src9, d)
	if d[0] != 5 {
		t.Errorf("3x3 -> 1x1 = %d, want 5", d[0])
	}
}

// TestBilinear checks OpenCV's fixed-point INTER_LINEAR on a horizontal ramp, where
// bilinear interpolation is exact: destination x samples source (x+0.5)*2 - 0.5.
func TestBilinear(t *testing.T) {
	const sw, sh, dw, dh = 8, 2, 4, 2
	src := make([]uint8, sw*sh)
	for y := range sh {
		for x := range sw {
			src[y*sw+x] = uint8(20 * x)
		}
	}
	dst := make([]uint8, dw*dh)
	r := newResizer(sw, sh, dw, dh, false)
	if r.kind != resizeLinear {
		t.Fatalf("kind %d, want bilinear", r.kind)
	}
	r.resize(src, dst)
	// Samples at 0.5, 2.5, 4.5, 6.5: 10, 50, 90, 130.
	for y := range dh {
		for x, want := range []uint8{10, 50, 90, 130} {
			if got := dst[y*dw+x]; got != want {
				t.Errorf("(%d,%d) = %d, want %d", y, x, got, want)
			}
		}
	}
	// Same size is a copy.
	same := make([]uint8, len(src))
	newResizer(sw, sh, sw, sh, true).resize(src, same)
	if string(same) != string(src) {
		t.Error("same-size resize is not a copy")
	}
}

// BenchmarkInterArea measures the 210x160 -> 84x84 resize of a frame that changes
// completely each time (the worst case; unchanged rows are cheaper).
func BenchmarkInterArea(b *testing.B) {
	r := newResizer(160, 210, 84, 84, true)
	frames := make([][]uint8, 2)
	for i := range frames {
		frames[i] = make([]uint8, 160*210)
		for j := range frames[i] {
			frames[i][j] = uint8(j*7 + i)
		}
	}
	out := make([]uint8, 84*84)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.resize(frames[i&1], out)
	}
}
