package nn

import (
	"fmt"
	"math"
)

// convGeom is the geometry of one convolution layer: square kernel, equal strides, no
// padding, NCHW tensors, weights (Cout, Cin, K, K) as in gorgonia.Conv2d.
//
// When the kernel size is a multiple of the stride (every Nature CNN layer), the input is
// first rearranged by space-to-depth with block S: a K x K stride-S convolution on Cin
// channels becomes a (K/S) x (K/S) stride-1 convolution on Cin*S*S channels, and every
// im2col row segment becomes one contiguous copy. The weights are permuted to match.
type convGeom struct {
	B, Cin, H, W, Cout, K, S int
	OH, OW, P                int // output height, width, positions per image

	s2d            bool
	Cp, Hp, Wp, Kp int // prepared source: channels, height, width, kernel (stride 1 if s2d)
	Sp             int // stride in the prepared source
	KK             int // patch length Cin*K*K = Cp*Kp*Kp
}

func newConvGeom(b, cin, h, w, cout, k, s int) (convGeom, error) {
	if b < 1 || cin < 1 || cout < 1 || k < 1 || s < 1 || h < k || w < k {
		return convGeom{}, fmt.Errorf("nn: bad convolution geometry batch %d, %dx%dx%d input, %d filters %dx%d stride %d", b, cin, h, w, cout, k, k, s)
	}
	g := convGeom{B: b, Cin: cin, H: h, W: w, Cout: cout, K: k, S: s}
	g.OH, g.OW = (h-k)/s+1, (w-k)/s+1
	g.P = g.OH * g.OW
	g.KK = cin * k * k
	if s > 1 && k%s == 0 {
		g.s2d = true
		g.Kp, g.Sp = k/s, 1
		g.Cp = cin * s * s
		g.Hp, g.Wp = g.OH-1+g.Kp, g.OW-1+g.Kp
	} else {
		g.Cp, g.Hp, g.Wp, g.Kp, g.Sp = cin, h, w, k, s
	}
	return g, nil
}

// permuteW copies weights from (Cout, Cin, K, K) into the prepared layout
// (Cout, Cp, Kp, Kp) (the identity when there is no space-to-depth).
func permuteW[T Float](g *convGeom, w, wp []T) { moveW(g, w, wp, false) }

// unpermuteW is the inverse of permuteW.
func unpermuteW[T Float](g *convGeom, wp, w []T) { moveW(g, w, wp, true) }

// moveW copies weights between the layout (Cout, Cin, K, K) of w and the prepared
// layout (Cout, Cp, Kp, Kp) of wp: from w into wp, or from wp back into w when back.
func moveW[T Float](g *convGeom, w, wp []T, back bool) {
	if !g.s2d {
		if back {
			copy(w, wp)
		} else {
			copy(wp, w)
		}
		return
	}
	s, kp := g.S, g.Kp
	for o := 0; o < g.Cout; o++ {
		ws := w[o*g.KK : (o+1)*g.KK]
		wps := wp[o*g.KK : (o+1)*g.KK]
		for c := 0; c < g.Cin; c++ {
			for ky := 0; ky < g.K; ky++ {
				for kx := 0; kx < g.K; kx++ {
					cp := (c*s+ky%s)*s + kx%s
					i, j := (c*g.K+ky)*g.K+kx, (cp*kp+ky/s)*kp+kx/s
					if back {
						ws[i] = wps[j]
					} else {
						wps[j] = ws[i]
					}
				}
			}
		}
	}
}

// spaceToDepth fills dst (n, Cp, Hp, Wp) from n images src (n, Cin, H, W), converting
// the element type: dst[c*S*S+dy*S+dx][i][j] = src[c][i*S+dy][j*S+dx].
func spaceToDepth[T Float, S uint8 | float32 | float64](g *convGeom, n int, src []S, dst []T) {
	s := g.S
	inImg, outImg := g.Cin*g.H*g.W, g.Cp*g.Hp*g.Wp
	plane := g.Hp * g.Wp
	for img := 0; img < n; img++ {
		for c := 0; c < g.Cin; c++ {
			for i := 0; i < g.Hp; i++ {
				for dy := 0; dy < s; dy++ {
					row := src[img*inImg+(c*g.H+i*s+dy)*g.W:]
					row = row[:g.Wp*s]
					for dx := 0; dx < s; dx++ {
						out := dst[img*outImg+((c*s+dy)*s+dx)*plane+i*g.Wp:]
						out = out[:g.Wp]
						for j := range out {
							out[j] = T(row[j*s+dx])
						}
					}
				}
			}
		}
	}
}

// depthToSpace is the adjoint of spaceToDepth: it writes the gradient of n prepared
// images dsrc (n, Cp, Hp, Wp) into dx (n, Cin, H, W), zero where the convolution did not
// read the input.
func depthToSpace[T Float](g *convGeom, n int, dsrc, dx []T) {
	s := g.S
	inImg, outImg := g.Cin*g.H*g.W, g.Cp*g.Hp*g.Wp
	plane := g.Hp * g.Wp
	clear(dx[:n*inImg])
	for img := 0; img < n; img++ {
		for c := 0; c < g.Cin; c++ {
			for i := 0; i < g.Hp; i++ {
				for dy := 0; dy < s; dy++ {
					row := dx[img*inImg+(c*g.H+i*s+dy)*g.W:]
					row = row[:g.Wp*s]
					for dx2 := 0; dx2 < s; dx2++ {
						in := dsrc[img*outImg+((c*s+dy)*s+dx2)*plane+i*g.Wp:]
						in = in[:g.Wp]
						for j, v := range in {
							row[j*s+dx2] = v
						}
					}
				}
			}
		}
	}
}

// im2col fills col (KK rows, ld columns) at column offset img*P for each of n images of
// the prepared source src (n, Cp, Hp, Wp): row (c, ky, kx), column (img, oy, ox) holds
// src[img][c][oy*Sp+ky][ox*Sp+kx].
func im2col[T Float](g *convGeom, n int, src, col []T, ld int) {
	imgLen := g.Cp * g.Hp * g.Wp
	ow, sp := g.OW, g.Sp
	for img := 0; img < n; img++ {
		for c := 0; c < g.Cp; c++ {
			plane := src[img*imgLen+c*g.Hp*g.Wp:]
			for ky := 0; ky < g.Kp; ky++ {
				for kx := 0; kx < g.Kp; kx++ {
					r := (c*g.Kp+ky)*g.Kp + kx
					dst := col[r*ld+img*g.P:]
					dst = dst[:g.P]
					for oy := 0; oy < g.OH; oy++ {
						srow := plane[(oy*sp+ky)*g.Wp+kx:]
						d := dst[oy*ow : (oy+1)*ow]
						if sp == 1 {
							copy(d, srow[:ow])
							continue
						}
						srow = srow[:(ow-1)*sp+1]
						for ox := range d {
							d[ox] = srow[ox*sp]
						}
					}
				}
			}
		}
	}
}

// col2im is the adjoint of im2col: it adds the columns of dcol into dsrc (n, Cp, Hp, Wp),
// which the caller zeroes first.
func col2im[T Float](g *convGeom, n int, dcol []T, ld int, dsrc []T) {
	imgLen := g.Cp * g.Hp * g.Wp
	ow, sp := g.OW, g.Sp
	for img := 0; img < n; img++ {
		for c := 0; c < g.Cp; c++ {
			plane := dsrc[img*imgLen+c*g.Hp*g.Wp:]
			for ky := 0; ky < g.Kp; ky++ {
				for kx := 0; kx < g.Kp; kx++ {
					r := (c*g.Kp+ky)*g.Kp + kx
					src := dcol[r*ld+img*g.P:]
					src = src[:g.P]
					for oy := 0; oy < g.OH; oy++ {
						s := src[oy*ow : (oy+1)*ow]
						drow := plane[(oy*sp+ky)*g.Wp+kx:]
						drow = drow[:(ow-1)*sp+1]
						if sp == 1 {
							drow = drow[:len(s)]
							for ox, v := range s {
								drow[ox] += v
							}
							continue
						}
						for ox, v := range s {
							drow[ox*sp] += v
						}
					}
				}
			}
		}
	}
}

// biasReLU writes out[p] = act(in[p] + b) for one output plane.
func biasReLU[T Float](out, in []T, b T, relu bool) {
	in = in[:len(out)]
	if relu {
		for p, v := range in {
			out[p] = max(v+b, 0)
		}
		return
	}
	for p, v := range in {
		out[p] = v + b
	}
}

// maskGrad writes g[p] = gy[p] where y[p] > 0, else 0 (the ReLU derivative; y is a
// ReLU output, so y >= 0), and returns the sum of g. It uses a branch-free bit mask:
// the signs of a gradient are random and a branch mispredicts half the time.
func maskGrad[T Float](g, gy, y []T) T {
	switch g := any(g).(type) {
	case []float32:
		return T(maskGrad32(g, any(gy).([]float32), any(y).([]float32)))
	case []float64:
		return T(maskGrad64(g, any(gy).([]float64), any(y).([]float64)))
	}
	return 0
}

func maskGrad32(g, gy, y []float32) float32 {
	gy, y = gy[:len(g)], y[:len(g)]
	var s float32
	for p := range g {
		b := math.Float32bits(y[p])
		m := uint32(int32(-b) >> 31) // all ones when b != 0 (y > 0)
		v := math.Float32frombits(math.Float32bits(gy[p]) & m)
		g[p] = v
		s += v
	}
	return s
}

func maskGrad64(g, gy, y []float64) float64 {
	gy, y = gy[:len(g)], y[:len(g)]
	var s float64
	for p := range g {
		b := math.Float64bits(y[p])
		m := uint64(int64(-b) >> 63)
		v := math.Float64frombits(math.Float64bits(gy[p]) & m)
		g[p] = v
		s += v
	}
	return s
}

// copySum copies gy into g and returns its sum (the backward of a layer without ReLU).
func copySum[T Float](g, gy []T) T {
	copy(g, gy)
	var s T
	for _, v := range g {
		s += v
	}
	return s
}
