package dnnl

import (
	"unsafe"
)

// pipe converts a tensor between the Go side's plain layout (NCHW or OIHW, float32 or
// uint8, optionally rearranged space-to-depth) and a layout a primitive chose. It is
// zero, one or two reorders: zero when the chosen layout is the plain one (the
// primitive then reads or writes the Go slice directly), two when the space-to-depth
// view does not nest with the chosen blocking and a plain intermediate is needed.
type pipe struct {
	steps []*prim
	mid   []float32 // intermediate buffer of a two-step pipe
}

// identity reports whether the pipe does nothing: the plain buffer is used as is.
func (p *pipe) identity() bool { return len(p.steps) == 0 }

// run converts src into dst.
func (p *pipe) run(src, dst unsafe.Pointer) error {
	switch len(p.steps) {
	case 1:
		return p.steps[0].run(src, dst)
	case 2:
		if err := p.steps[0].run(src, unsafe.Pointer(&p.mid[0])); err != nil {
			return err
		}
		return p.steps[1].run(unsafe.Pointer(&p.mid[0]), dst)
	}
	return nil
}

// into converts src into buf and returns buf's data, or returns src itself when the
// pipe is the identity (the primitive reads the plain buffer as it is).
func (p *pipe) into(src unsafe.Pointer, buf []float32) (unsafe.Pointer, error) {
	if p.identity() {
		return src, nil
	}
	dst := unsafe.Pointer(&buf[0])
	return dst, p.run(src, dst)
}

// writeTo has write, a primitive's run that writes its result at the pointer it is
// given, deliver that result to the plain dst: written there directly when the pipe is
// the identity, else written to buf and converted into dst.
func (p *pipe) writeTo(dst, buf []float32, write func(unsafe.Pointer) error) error {
	if p.identity() {
		return write(unsafe.Pointer(&dst[0]))
	}
	tmp := unsafe.Pointer(&buf[0])
	if err := write(tmp); err != nil {
		return err
	}
	return p.run(tmp, unsafe.Pointer(&dst[0]))
}

// convertInto runs the reorder r from src into buf and returns buf's data, or returns
// src itself when there is no reorder (r nil: the primitive reads src as it is).
func convertInto(r *prim, src unsafe.Pointer, buf []float32) (unsafe.Pointer, error) {
	if r == nil {
		return src, nil
	}
	dst := unsafe.Pointer(&buf[0])
	return dst, r.run(src, dst)
}

// toLayout builds the pipe from a plain tensor of shape plain (element type dt) to
// layout target, which describes its space-to-depth form with factor s (1: none),
// multiplying by scale.
func (ly *layer) toLayout(name string, plain [4]int, s int, dt int32, scale float32, target *memDesc) (*pipe, error) {
	return ly.makePipe(name, plain, s, dt, scale, target, true)
}

// fromLayout builds the pipe from layout src to a plain float32 tensor of shape plain
// (src being its space-to-depth form with factor s).
func (ly *layer) fromLayout(name string, src *memDesc, plain [4]int, s int) (*pipe, error) {
	return ly.makePipe(name, plain, s, dtF32, 1, src, false)
}

// makePipe builds a pipe in either direction; see toLayout and fromLayout.
func (ly *layer) makePipe(name string, plain [4]int, s int, dt int32, scale float32, chosen *memDesc, toChosen bool) (*pipe, error) {
	p := &pipe{}
	add := func(from, to *memDesc) error {
		if !toChosen {
			from, to = to, from
		}
		pr, err := ly.reorder(name, from, to, scale)
		if err != nil {
			return err
		}
		p.steps = append(p.steps, pr)
		return nil
	}
	if s == 1 {
		pm, err := lib.newMD(plain[:], dt, tagABCD)
		if err != nil {
			return nil, err
		}
		if dt == dtF32 && scale == 1 && lib.mdEqual(pm, chosen) {
			return p, nil
		}
		return p, add(pm, chosen)
	}
	ev, pv, ok, err := s2dViews(chosen, plain, s, dt)
	if err != nil {
		return nil, err
	}
	if ok {
		return p, add(pv, ev)
	}
	// Two steps through the plain space-to-depth layout, for which the views always
	// exist.
	mid, err := plainS2DMD(plain, s)
	if err != nil {
		return nil, err
	}
	ev, pv, ok, err = s2dViews(mid, plain, s, dt)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errInternal("plain space-to-depth view")
	}
	p.mid = alignedF32(lib.mdBytes(mid) / 4)
	if toChosen {
		if err := add(pv, ev); err != nil {
			return nil, err
		}
		scale = 1
		if err := add(mid, chosen); err != nil {
			return nil, err
		}
	} else {
		if err := add(mid, chosen); err != nil {
			return nil, err
		}
		if err := add(pv, ev); err != nil {
			return nil, err
		}
	}
	return p, nil
}
