package dnnl

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

// Layout is the memory layout oneDNN chose for an activation tensor (B, C, H, W), for
// example "aBcd8b": channels in blocks of 8 innermost. Neighbouring convolution layers
// can exchange activations in such a layout instead of plain NCHW, which saves a
// reorder of the activation and one of its gradient at every boundary (see
// ConvConfig.NativeOut and ConvConfig.InLayout). A Layout is immutable.
type Layout struct {
	md    memDesc
	shape [4]int
}

// Shape is the tensor's logical shape (B, C, H, W).
func (l *Layout) Shape() [4]int { return l.shape }

// Len is the number of float32 elements a buffer in this layout takes, padding
// included (blocked layouts round the channels up to the block size; the padding must
// stay zero, which the layers keep it). A bfloat16 layout packs two values into each.
func (l *Layout) Len() int { return f32Len(&l.md) }

// Plain reports whether the layout is plain NCHW.
func (l *Layout) Plain() bool {
	p, err := lib.newMD(l.shape[:], dtF32, tagABCD)
	return err == nil && lib.mdEqual(p, &l.md)
}

// ChannelsLast reports whether the layout is dense NHWC ("acdb"): no blocking, no
// padding, channels innermost. Only such a layout can feed a dense layer directly
// (DenseConfig.InLayout).
func (l *Layout) ChannelsLast() bool {
	p, err := lib.newMD(l.shape[:], l.md.dataType, tagACDB)
	return err == nil && lib.mdEqual(p, &l.md)
}

// String describes the layout in oneDNN's notation: dimensions a, b, c, d (B, C, H, W)
// from outermost to innermost, capitals for blocked dimensions, followed by the inner
// blocks, e.g. "aBcd8b".
func (l *Layout) String() string {
	md := &l.md
	if md.formatKind != formatKindBlocked {
		return fmt.Sprintf("format_kind %d", md.formatKind)
	}
	n := int(md.ndims)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Outer dimensions sorted by decreasing stride (stable on ties).
	for i := 1; i < n; i++ {
		for j := i; j > 0 && md.strides[order[j]] > md.strides[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	blocked := map[int]bool{}
	for k := 0; k < int(md.innerNblks); k++ {
		blocked[int(md.innerIdxs[k])] = true
	}
	var b strings.Builder
	for _, d := range order {
		ch := byte('a' + d)
		if blocked[d] {
			ch = byte('A' + d)
		}
		b.WriteByte(ch)
	}
	for k := 0; k < int(md.innerNblks); k++ {
		fmt.Fprintf(&b, "%d%c", md.innerBlks[k], 'a'+byte(md.innerIdxs[k]))
	}
	return b.String()
}

// ToPlain converts src, a tensor in this layout (Len elements), into dst, plain NCHW.
// It creates a reorder for each call: meant for tests and inspection, not for a
// training loop.
func (l *Layout) ToPlain(src, dst []float32) error { return l.convert(src, dst, true) }

// FromPlain converts src, plain NCHW, into dst in this layout (Len elements). Like
// ToPlain it is meant for tests and inspection.
func (l *Layout) FromPlain(src, dst []float32) error { return l.convert(src, dst, false) }

// convert runs a one-off reorder between this layout and plain NCHW.
func (l *Layout) convert(src, dst []float32, toPlain bool) error {
	if err := Load(); err != nil {
		return err
	}
	plainLen := l.shape[0] * l.shape[1] * l.shape[2] * l.shape[3]
	sl, dl := l.Len(), plainLen
	if !toPlain {
		sl, dl = plainLen, l.Len()
	}
	if err := firstErr(checkLen("layout conversion source", len(src), sl), checkLen("layout conversion destination", len(dst), dl)); err != nil {
		return err
	}
	defer lockThread()()
	var ly layer
	defer ly.close()
	plain, err := lib.newMD(l.shape[:], dtF32, tagABCD)
	if err != nil {
		return err
	}
	md := new(memDesc)
	*md = l.md
	from, to := md, plain
	if !toPlain {
		from, to = plain, md
	}
	p, err := ly.reorder("layout", from, to, 1)
	if err != nil {
		return err
	}
	if !toPlain {
		clear(dst) // padding must be zero
	}
	return p.run(unsafe.Pointer(&src[0]), unsafe.Pointer(&dst[0]))
}

// newLayout wraps a 4-D memory descriptor.
func newLayout(md *memDesc) *Layout {
	l := &Layout{md: *md}
	for i := range l.shape {
		l.shape[i] = int(md.dims[i])
	}
	return l
}

// errLayoutShape reports an InLayout whose shape is not the layer's input shape.
func errLayoutShape(got, want [4]int) error {
	return fmt.Errorf("dnnl: InLayout has shape %v but the layer's input is %v", got, want)
}

// errNativeU8 is returned for uint8 input to a layer whose input is in a oneDNN layout.
var errNativeU8 = errors.New("dnnl: uint8 input needs a plain-layout layer (InLayout must be nil)")

// direct builds the pipe between two layouts of the same tensor: nothing when they are
// equal, else one reorder.
func (ly *layer) direct(name string, from, to *memDesc) (*pipe, error) {
	p := &pipe{}
	if lib.mdEqual(from, to) {
		return p, nil
	}
	r, err := ly.reorder(name, from, to, 1)
	if err != nil {
		return nil, err
	}
	p.steps = append(p.steps, r)
	return p, nil
}
