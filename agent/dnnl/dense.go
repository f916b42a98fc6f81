package dnnl

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// DenseConfig describes a fully connected layer y = x W + b in float32.
type DenseConfig struct {
	// Batch rows of In inputs map to Out outputs.
	Batch, In, Out int
	// SeparateReLU runs the ReLU as its own eltwise primitive instead of a post-op.
	SeparateReLU bool
	// WeightsAny lets oneDNN choose the weights' layout (then reordering the (In, Out)
	// weights every Forward, or once with FixWeights, and the gradient every Backward)
	// instead of using the Go layout directly. The default keeps the plain layout:
	// oneDNN's inner product then runs on its gemm kernels with no reorder at all
	// (measured faster for training, see the package comment). An inference layer
	// whose weights are fixed gains from the blocked layout's brgemm kernels, in bf16
	// especially.
	WeightsAny bool
	// ReLU applies max(0, .) after the bias.
	ReLU bool
	// NeedDX makes Backward compute the gradient with respect to the input.
	NeedDX bool
	// InferenceOnly creates only the forward primitive (forward_inference); Backward
	// then fails.
	InferenceOnly bool
	// Threads is the layer's OpenMP team size, as ConvConfig.Threads.
	Threads int
	// BF16 runs the inner products on bfloat16 operands (x, the weights and, backward,
	// the output gradient, converted on the way in), accumulating in float32; y, dw,
	// db and dx stay float32, as do the caller's weights. Like ConvConfig.BF16 it is
	// refused where oneDNN has only reference kernels for it.
	BF16 bool
	// InLayout, when not nil, is the layout of x: the output of a convolution created
	// with NativeOut (its OutLayout, of shape (Batch, C, H, W) with C*H*W = In), read
	// as it is instead of reordered into plain rows. It must be channels-last
	// ("acdb", what oneDNN's brgemm convolutions write), so that each row of x is one
	// image in (h, w, c) order and the inner product keeps its fast 2-D kernels. The
	// weights stay (In, Out) with In in (c, h, w) order, as for plain input; the
	// layer permutes them into x's order (once, with FixWeights). Only for
	// InferenceOnly layers, whose weights oneDNN may lay out as it likes (WeightsAny
	// is implied); its data type must be the layer's (bfloat16 with BF16).
	InLayout *Layout
}

// Dense is a fully connected layer (oneDNN inner product) with bias and optional
// ReLU. Weights are (In, Out) row-major, the project's layout, which is oneDNN's
// weights (OC, IC) in format "ba". Its methods must not be called concurrently.
type Dense struct {
	layer
	cfg      DenseConfig
	postReLU bool

	fwd, reluFwd, reluBwd, bwdW, bwdD *prim
	wIn, weiD                         *prim // plain weights -> forward / backward-data layouts (nil: plain)
	wPerm                             *prim // with InLayout: the weights' rows into x's (h, w, c) order, into permBuf
	dwOut                             *prim // chosen diff-weights layout -> plain (nil: plain)
	xIn, dyIn                         *prim // float32 x, dy -> their bf16 layouts (nil: float32)
	weiBuf, weiDBuf, dwBuf, dyMask    []float32
	permBuf                           []float32
	xBuf, dyBuf                       []float32 // x and dy in bf16

	lastW, lastX   unsafe.Pointer
	weiPtr, srcPtr unsafe.Pointer

	keepF [7][]float32 // the caller's slices of the current call (kept on the heap)
}

// NewDense creates the layer's primitives (forward, and unless InferenceOnly backward
// weights with bias and, when NeedDX, backward data). It calls Load and returns its
// error when the library is unavailable.
func NewDense(cfg DenseConfig) (*Dense, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	if cfg.Batch < 1 || cfg.In < 1 || cfg.Out < 1 {
		return nil, fmt.Errorf("dnnl: dense config %+v: every size must be at least 1", cfg)
	}
	if err := cfg.checkInLayout(); err != nil {
		return nil, err
	}
	d := &Dense{cfg: cfg}
	defer d.lock()()
	if err := d.build(); err != nil {
		d.Close()
		return nil, fmt.Errorf("%w (dense %+v)", err, cfg)
	}
	return d, nil
}

// checkInLayout refuses an InLayout the layer cannot read.
func (cfg DenseConfig) checkInLayout() error {
	l := cfg.InLayout
	if l == nil {
		return nil
	}
	if !cfg.InferenceOnly {
		return errors.New("dnnl: dense InLayout needs InferenceOnly (training layers take plain rows)")
	}
	if sh := l.shape; sh[0] != cfg.Batch || sh[1]*sh[2]*sh[3] != cfg.In {
		return fmt.Errorf("dnnl: dense InLayout has shape %v but the layer takes %d rows of %d", sh, cfg.Batch, cfg.In)
	}
	want := int32(dtF32)
	if cfg.BF16 {
		want = dtBF16
	}
	if l.md.dataType != want {
		return fmt.Errorf("dnnl: dense InLayout's data type does not match the layer's (BF16 %v)", cfg.BF16)
	}
	if !l.ChannelsLast() {
		return fmt.Errorf("dnnl: dense InLayout %v is not channels-last (acdb); give the layer plain input", l)
	}
	return nil
}

// build creates the primitives and buffers.
func (d *Dense) build() error {
	cfg := d.cfg
	in := int32(dtF32) // the data type of x, the weights and dy
	if cfg.BF16 {
		in = dtBF16
	}
	plainX, err := lib.newMD([]int{cfg.Batch, cfg.In}, dtF32, tagAB)
	if err != nil {
		return err
	}
	plainY, err := lib.newMD([]int{cfg.Batch, cfg.Out}, dtF32, tagAB)
	if err != nil {
		return err
	}
	src, dst, diffDst, diffSrc := plainX, plainY, plainY, plainX
	if l := cfg.InLayout; l != nil {
		// x as the convolution wrote it, channels last: rows of (h, w, c). The Go
		// weights' rows are in (c, h, w) order; wPerm puts them in x's order.
		if src, err = lib.newMD([]int{cfg.Batch, cfg.In}, in, tagAB); err != nil {
			return err
		}
		c, h, w, o := l.shape[1], l.shape[2], l.shape[3], cfg.Out
		from, err := lib.newStridedMD([]int{o, c, h, w}, []int{1, h * w * o, w * o, o}, dtF32)
		if err != nil {
			return err
		}
		to, err := lib.newStridedMD([]int{o, c, h, w}, []int{1, o, w * c * o, c * o}, dtF32)
		if err != nil {
			return err
		}
		if d.wPerm, err = d.reorder("permute_w", from, to, 1); err != nil {
			return err
		}
		d.permBuf = alignedF32(cfg.In * o)
	} else if cfg.BF16 {
		if src, err = lib.newMD([]int{cfg.Batch, cfg.In}, dtBF16, tagAB); err != nil {
			return err
		}
		if diffDst, err = lib.newMD([]int{cfg.Batch, cfg.Out}, dtBF16, tagAB); err != nil {
			return err
		}
		if d.xIn, err = d.reorder("reorder_x", plainX, src, 1); err != nil {
			return err
		}
		d.xBuf = alignedF32(f32Len(src))
	}
	bias, err := lib.newMD([]int{cfg.Out}, dtF32, tagA)
	if err != nil {
		return err
	}
	plainW, err := lib.newMD([]int{cfg.Out, cfg.In}, dtF32, tagBA)
	if err != nil {
		return err
	}
	wei, diffWei := plainW, plainW
	if cfg.WeightsAny || cfg.BF16 || cfg.InLayout != nil {
		if wei, err = lib.newMD([]int{cfg.Out, cfg.In}, in, tagAny); err != nil {
			return err
		}
	}
	if cfg.WeightsAny {
		diffWei = wei
	}
	prop := int32(propForwardTraining)
	if cfg.InferenceOnly {
		prop = propForwardInference
	}
	fd := new(ipDesc)
	if r := lib.ipFwdInit(fd, prop, src, wei, bias, dst); r != 0 {
		return statusErr("dnnl_inner_product_forward_desc_init", r)
	}
	d.postReLU = cfg.ReLU && !cfg.SeparateReLU
	var attr attrFn
	if d.postReLU {
		attr = reluPostOp
	}
	if d.fwd, err = d.createPass(cfg.BF16, "forward", unsafe.Pointer(fd), attr, nil); err != nil {
		return err
	}
	weiMD := lib.queryMD(d.fwd.pd, queryWeightsMD)
	if err := d.fwd.bindAll([]argMD{{argSrc, src}, {argWeights, weiMD}, {argBias, bias}, {argDst, dst}}); err != nil {
		return err
	}
	if !lib.mdEqual(weiMD, plainW) {
		if d.wIn, err = d.reorder("reorder_w", plainW, weiMD, 1); err != nil {
			return err
		}
		d.weiBuf = alignedF32(f32Len(weiMD))
	}
	if cfg.ReLU && !d.postReLU {
		if d.reluFwd, err = d.eltwiseFwd("relu_forward", dst, prop); err != nil {
			return err
		}
	}
	if cfg.InferenceOnly {
		return nil
	}

	n := cfg.Batch * cfg.Out
	if cfg.ReLU {
		if d.reluBwd, err = d.reluBackward(n); err != nil {
			return err
		}
		d.dyMask = alignedF32(n)
	}
	if cfg.BF16 {
		if d.dyIn, err = d.reorder("reorder_dy", plainY, diffDst, 1); err != nil {
			return err
		}
		d.dyBuf = alignedF32(f32Len(diffDst))
	}
	wd := new(ipDesc)
	if r := lib.ipBwdWInit(wd, src, diffWei, bias, diffDst); r != 0 {
		return statusErr("dnnl_inner_product_backward_weights_desc_init", r)
	}
	if d.bwdW, err = d.createPass(cfg.BF16, "backward_weights", unsafe.Pointer(wd), nil, d.fwd); err != nil {
		return err
	}
	dwMD := lib.queryMD(d.bwdW.pd, queryDiffWeightsM)
	if err := d.bwdW.bindAll([]argMD{{argSrc, src}, {argDiffDst, diffDst}, {argDiffWeights, dwMD}, {argDiffBias, bias}}); err != nil {
		return err
	}
	if !lib.mdEqual(dwMD, plainW) {
		if d.dwOut, err = d.reorder("reorder_dw", dwMD, plainW, 1); err != nil {
			return err
		}
		d.dwBuf = alignedF32(f32Len(dwMD))
	}
	if !cfg.NeedDX {
		return nil
	}
	dd := new(ipDesc)
	if r := lib.ipBwdDInit(dd, diffSrc, wei, diffDst); r != 0 {
		return statusErr("dnnl_inner_product_backward_data_desc_init", r)
	}
	if d.bwdD, err = d.createPass(cfg.BF16, "backward_data", unsafe.Pointer(dd), nil, d.fwd); err != nil {
		return err
	}
	weiD := lib.queryMD(d.bwdD.pd, queryWeightsMD)
	if err := d.bwdD.bindAll([]argMD{{argDiffDst, diffDst}, {argWeights, weiD}, {argDiffSrc, diffSrc}}); err != nil {
		return err
	}
	if !lib.mdEqual(weiD, weiMD) {
		if d.weiD, err = d.reorder("reorder_w_bwd_data", weiMD, weiD, 1); err != nil {
			return err
		}
		d.weiDBuf = alignedF32(f32Len(weiD))
	}
	return nil
}

// InLen is the number of float32 elements x has: Batch*In, or InLayout.Len() (a
// bfloat16 layout packs two values into each).
func (d *Dense) InLen() int {
	if d.cfg.InLayout != nil {
		return d.cfg.InLayout.Len()
	}
	return d.cfg.Batch * d.cfg.In
}

// Impls maps each primitive's name ("forward", "backward_data", "backward_weights",
// "relu_forward", "relu_backward", reorders) to oneDNN's implementation for it, e.g.
// "gemm:jit". An implementation starting with "ref" is oneDNN's slow reference code.
func (d *Dense) Impls() map[string]string { return d.impls() }

// Close destroys the layer's primitives. The layer is unusable afterwards.
func (d *Dense) Close() { d.close() }

// setWeights converts w to the forward layout when that is not the plain one.
func (d *Dense) setWeights(w []float32) error {
	ptr := unsafe.Pointer(&w[0])
	d.weiPtr, d.lastW = ptr, ptr
	if d.wIn == nil && d.wPerm == nil {
		return nil
	}
	held := d.weightsHeld(ptr)
	for _, step := range []struct {
		p   *prim
		buf []float32
	}{{d.wPerm, d.permBuf}, {d.wIn, d.weiBuf}} {
		if step.p == nil {
			continue
		}
		out := unsafe.Pointer(&step.buf[0])
		if !held {
			if err := step.p.run(d.weiPtr, out); err != nil {
				d.heldW = nil
				return err
			}
		}
		d.weiPtr = out
	}
	return nil
}

// setInput converts x to bf16 when the layer computes in it.
func (d *Dense) setInput(x []float32) error {
	ptr := unsafe.Pointer(&x[0])
	d.srcPtr, d.lastX = ptr, ptr
	if d.xIn == nil {
		return nil
	}
	d.srcPtr = unsafe.Pointer(&d.xBuf[0])
	return d.xIn.run(ptr, d.srcPtr)
}

// Forward computes y = x w + b (then ReLU if configured): x (Batch, In), or InLen
// elements in InLayout, w (In, Out), b (Out), y (Batch, Out), row-major.
func (d *Dense) Forward(x, w, b, y []float32) error {
	if d.closed {
		return errClosed
	}
	cfg := d.cfg
	if err := firstErr(checkLen("dense input x", len(x), d.InLen()), checkLen("dense weights w", len(w), cfg.In*cfg.Out),
		checkLen("dense bias b", len(b), cfg.Out), checkLen("dense output y", len(y), cfg.Batch*cfg.Out)); err != nil {
		return err
	}
	d.keepF = [7][]float32{x, w, b, y}
	defer d.release()
	defer d.lock()()
	if err := d.setWeights(w); err != nil {
		return err
	}
	if err := d.setInput(x); err != nil {
		return err
	}
	yp := unsafe.Pointer(&y[0])
	if err := d.fwd.run(d.srcPtr, d.weiPtr, unsafe.Pointer(&b[0]), yp); err != nil {
		return err
	}
	if d.reluFwd != nil {
		return d.reluFwd.run(yp, yp)
	}
	return nil
}

// Backward computes, from the same x and w as the last Forward, its output y and dy
// (the gradient with respect to y), the gradients dw (In, Out), db (Out) and, when
// NeedDX, dx (Batch, In; may be nil otherwise). With ReLU, dy is first masked by y > 0.
func (d *Dense) Backward(x, w, y, dy, dw, db, dx []float32) error {
	if d.closed {
		return errClosed
	}
	if d.bwdW == nil {
		return errors.New("dnnl: Backward on a dense layer created with InferenceOnly")
	}
	cfg := d.cfg
	errs := []error{checkLen("dense input x", len(x), cfg.Batch*cfg.In), checkLen("dense weights w", len(w), cfg.In*cfg.Out),
		checkLen("dense output y", len(y), cfg.Batch*cfg.Out), checkLen("dense output gradient dy", len(dy), cfg.Batch*cfg.Out),
		checkLen("dense weight gradient dw", len(dw), cfg.In*cfg.Out), checkLen("dense bias gradient db", len(db), cfg.Out)}
	if cfg.NeedDX {
		errs = append(errs, checkLen("dense input gradient dx", len(dx), cfg.Batch*cfg.In))
	}
	if err := firstErr(errs...); err != nil {
		return err
	}
	d.keepF = [7][]float32{x, w, y, dy, dw, db, dx}
	defer d.release()
	defer d.lock()()
	g := unsafe.Pointer(&dy[0])
	if d.reluBwd != nil {
		m := unsafe.Pointer(&d.dyMask[0])
		if err := d.reluBwd.run(unsafe.Pointer(&y[0]), g, m); err != nil {
			return err
		}
		g = m
	}
	g, err := convertInto(d.dyIn, g, d.dyBuf)
	if err != nil {
		return err
	}
	if unsafe.Pointer(&x[0]) != d.lastX {
		if err := d.setInput(x); err != nil {
			return err
		}
	}
	dwp := unsafe.Pointer(&dw[0])
	if d.dwOut != nil {
		dwp = unsafe.Pointer(&d.dwBuf[0])
	}
	if err := d.bwdW.run(d.srcPtr, g, dwp, unsafe.Pointer(&db[0])); err != nil {
		return err
	}
	if d.dwOut != nil {
		if err := d.dwOut.run(dwp, unsafe.Pointer(&dw[0])); err != nil {
			return err
		}
	}
	if d.bwdD == nil {
		return nil
	}
	if unsafe.Pointer(&w[0]) != d.lastW {
		if err := d.setWeights(w); err != nil {
			return err
		}
	}
	wp, err := convertInto(d.weiD, d.weiPtr, d.weiDBuf)
	if err != nil {
		return err
	}
	return d.bwdD.run(g, wp, unsafe.Pointer(&dx[0]))
}

// release drops the references to the caller's slices at the end of a call.
func (d *Dense) release() {
	runtime.KeepAlive(d.keepF)
	d.keepF = [7][]float32{}
}
