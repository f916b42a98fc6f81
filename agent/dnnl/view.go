package dnnl

import (
	"fmt"
	"slices"
)

// Space-to-depth as a strided view.
//
// A convolution with a K x K filter and stride s, K % s == 0, over an input whose H and W
// are multiples of s is the same arithmetic as a convolution with a (K/s) x (K/s) filter
// and stride 1 over the "space-to-depth" input, in which each s x s block of pixels
// becomes s*s channels:
//
//	xe[n][c*s*s + i*s + j][h][w] = x[n][c][h*s + i][w*s + j]
//	we[o][c*s*s + i*s + j][p][q] = w[o][c][p*s + i][q*s + j]
//
// Both rearrangements are pure index maps, so instead of copying twice (plain ->
// space-to-depth plain -> oneDNN's blocked layout) one reorder can do it, if both sides
// are described as the same multi-dimensional array with different strides. Each
// dimension of the blocked layout is a mixed-radix number (outer index, then inner
// blocks); the space-to-depth channel is another (c, i, j). When the two numberings
// refine each other (their place values form a divisibility chain), every common digit
// has a stride on each side and the pair of strided descriptors is an exact
// description of the rearrangement. oneDNN's reorder then does the conversion (and the
// uint8 -> float32 scaling) in one pass.

// digit is one position of a mixed-radix index: its range and its element stride.
type digit struct{ radix, stride int }

// layoutDigits describes dimension d of a blocked memory descriptor as digits from
// coarse to fine: the outer index (stride strides[d]) and then each inner block on d.
func layoutDigits(md *memDesc, d int) []digit {
	nb := int(md.innerNblks)
	var blocks []digit
	prod := 1
	for k := 0; k < nb; k++ {
		if int(md.innerIdxs[k]) != d {
			continue
		}
		inner := 1
		for k2 := k + 1; k2 < nb; k2++ {
			inner *= int(md.innerBlks[k2])
		}
		blocks = append(blocks, digit{int(md.innerBlks[k]), inner})
		prod *= int(md.innerBlks[k])
	}
	out := []digit{{int(md.paddedDims[d]) / prod, int(md.strides[d])}}
	return append(out, blocks...)
}

// places returns the place value (the index step) of each digit, coarse to fine.
func places(ds []digit) []int {
	p := make([]int, len(ds))
	v := 1
	for i := len(ds) - 1; i >= 0; i-- {
		p[i] = v
		v *= ds[i].radix
	}
	return p
}

// refine splits an index 0 <= x < n that two digit systems a and b describe into their
// common digits. It returns the digits' radices (coarse to fine) and their strides in
// a and in b, or ok == false when the two systems do not nest.
func refine(n int, a, b []digit) (radix, sa, sb []int, ok bool) {
	pa, pb := places(a), places(b)
	cuts := []int{n}
	for _, ps := range [][]int{pa, pb} {
		for _, p := range ps {
			if p < n && !slices.Contains(cuts, p) {
				cuts = append(cuts, p)
			}
		}
	}
	slices.Sort(cuts)
	if cuts[0] != 1 {
		cuts = append([]int{1}, cuts...)
	}
	for k := 0; k+1 < len(cuts); k++ {
		if cuts[k+1]%cuts[k] != 0 {
			return nil, nil, nil, false
		}
	}
	// strideAt is the stride of a step of size c in digit system ds with places ps.
	strideAt := func(ds []digit, ps []int, c int) (int, bool) {
		for i := len(ds) - 1; i >= 0; i-- {
			top := ps[i] * ds[i].radix
			if ds[i].radix > 1 && ps[i] <= c && (c < top || i == 0) {
				if c%ps[i] != 0 {
					return 0, false
				}
				return ds[i].stride * (c / ps[i]), true
			}
		}
		if n == 1 {
			return 0, true
		}
		return 0, false
	}
	for k := len(cuts) - 2; k >= 0; k-- {
		c := cuts[k]
		r := cuts[k+1] / c
		s1, ok1 := strideAt(a, pa, c)
		s2, ok2 := strideAt(b, pb, c)
		if !ok1 || !ok2 {
			return nil, nil, nil, false
		}
		radix = append([]int{r}, radix...)
		sa = append([]int{s1}, sa...)
		sb = append([]int{s2}, sb...)
	}
	if len(radix) == 0 { // n == 1
		radix, sa, sb = []int{1}, []int{0}, []int{0}
	}
	return radix, sa, sb, true
}

// s2dViews describes the space-to-depth map between a plain NCHW (or OIHW) tensor of
// shape plain with element type plainDT and the layout eff of its space-to-depth form
// (factor s; s == 1 is the identity) as two strided descriptors of one logical shape:
// a reorder from one to the other performs the rearrangement. ok is false when eff's
// blocking does not nest with the channel split (the caller then goes through a plain
// intermediate, for which this always succeeds).
func s2dViews(eff *memDesc, plain [4]int, s int, plainDT int32) (effView, plainView *memDesc, ok bool, err error) {
	if eff.formatKind != formatKindBlocked || eff.offset0 != 0 || eff.ndims != 4 {
		return nil, nil, false, nil
	}
	n, c, h, w := plain[0], plain[1], plain[2], plain[3]
	if h%s != 0 || w%s != 0 {
		return nil, nil, false, fmt.Errorf("dnnl: space-to-depth of %dx%d by %d: sizes not divisible", h, w, s)
	}
	// Plain strides and the space-to-depth digits of each effective dimension.
	sn, sc, sh := c*h*w, h*w, w
	want := [4][]digit{
		{{n, sn}},
		{{c, sc}, {s, sh}, {s, 1}},
		{{h / s, s * sh}},
		{{w / s, s}},
	}
	effDims := [4]int{n, c * s * s, h / s, w / s}
	for d := 0; d < 4; d++ {
		if int(eff.dims[d]) != effDims[d] {
			return nil, nil, false, fmt.Errorf("dnnl: internal error: space-to-depth layout has dims %v, want %v", eff.dims[:4], effDims)
		}
	}
	var shape, se, sp []int
	for d := 0; d < 4; d++ {
		r, a, b, ok := refine(effDims[d], layoutDigits(eff, d), want[d])
		if !ok {
			return nil, nil, false, nil
		}
		shape = append(shape, r...)
		se = append(se, a...)
		sp = append(sp, b...)
	}
	// Drop unit digits (they carry no information) but keep at least one dimension.
	var fs, fe, fp []int
	for i := range shape {
		if shape[i] > 1 {
			fs, fe, fp = append(fs, shape[i]), append(fe, se[i]), append(fp, sp[i])
		}
	}
	if len(fs) == 0 {
		fs, fe, fp = []int{1}, []int{1}, []int{1}
	}
	if len(fs) > maxDims {
		return nil, nil, false, nil
	}
	effView, err = lib.newStridedMD(fs, fe, eff.dataType)
	if err != nil {
		return nil, nil, false, err
	}
	plainView, err = lib.newStridedMD(fs, fp, plainDT)
	if err != nil {
		return nil, nil, false, err
	}
	return effView, plainView, true, nil
}

// plainS2DMD is the plain (nchw) descriptor of the space-to-depth form of a tensor of
// shape plain.
func plainS2DMD(plain [4]int, s int) (*memDesc, error) {
	return lib.newMD([]int{plain[0], plain[1] * s * s, plain[2] / s, plain[3] / s}, dtF32, tagABCD)
}
