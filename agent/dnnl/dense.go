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
	// weights every Forward and the gradient every Backward) instead of using the Go
	// layout directly. The default keeps the plain layout: oneDNN's inner product then
	// runs on its gemm kernels with no reorder at all (measured, see the package
	// comment).
	WeightsAny bool
	// ReLU applies max(0, .) after the bias.
	ReLU bool
	// NeedDX makes Backward compute the gradient with respect to the input.
	NeedDX bool
	// InferenceOnly creates only the forward primitive (forward_inference); Backward
	// then fails.
	InferenceOnly bool
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
	dwOut                             *prim // chosen diff-weights layout -> plain (nil: plain)
	weiBuf, weiDBuf, dwBuf, dyMask    []float32

	lastW  unsafe.Pointer
	weiPtr unsafe.Pointer

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
	defer lockThread()()
	d := &Dense{cfg: cfg}
	if err := d.build(); err != nil {
		d.Close()
		return nil, fmt.Errorf("%w (dense %+v)", err, cfg)
	}
	return d, nil
}

// build creates the primitives and buffers.
func (d *Dense) build() error {
	cfg := d.cfg
	src, err := lib.newMD([]int{cfg.Batch, cfg.In}, dtF32, tagAB)
	if err != nil {
		return err
	}
	dst, err := lib.newMD([]int{cfg.Batch, cfg.Out}, dtF32, tagAB)
	if err != nil {
		return err
	}
	bias, err := lib.newMD([]int{cfg.Out}, dtF32, tagA)
	if err != nil {
		return err
	}
	plainW, err := lib.newMD([]int{cfg.Out, cfg.In}, dtF32, tagBA)
	if err != nil {
		return err
	}
	wei := plainW
	if cfg.WeightsAny {
		if wei, err = lib.newMD([]int{cfg.Out, cfg.In}, dtF32, tagAny); err != nil {
			return err
		}
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
	if d.fwd, err = d.create("forward", unsafe.Pointer(fd), attr, nil); err != nil {
		return err
	}
	weiMD := lib.queryMD(d.fwd.pd, queryWeightsMD)
	for _, a := range []struct {
		arg int32
		md  *memDesc
	}{{argSrc, src}, {argWeights, weiMD}, {argBias, bias}, {argDst, dst}} {
		if err := d.fwd.bind(a.arg, a.md); err != nil {
			return err
		}
	}
	if !lib.mdEqual(weiMD, plainW) {
		if d.wIn, err = d.reorder("reorder_w", plainW, weiMD, 1); err != nil {
			return err
		}
		d.weiBuf = alignedF32(lib.mdBytes(weiMD) / 4)
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
	wd := new(ipDesc)
	if r := lib.ipBwdWInit(wd, src, wei, bias, dst); r != 0 {
		return statusErr("dnnl_inner_product_backward_weights_desc_init", r)
	}
	if d.bwdW, err = d.create("backward_weights", unsafe.Pointer(wd), nil, d.fwd); err != nil {
		return err
	}
	dwMD := lib.queryMD(d.bwdW.pd, queryDiffWeightsM)
	for _, a := range []struct {
		arg int32
		md  *memDesc
	}{{argSrc, src}, {argDiffDst, dst}, {argDiffWeights, dwMD}, {argDiffBias, bias}} {
		if err := d.bwdW.bind(a.arg, a.md); err != nil {
			return err
		}
	}
	if !lib.mdEqual(dwMD, plainW) {
		if d.dwOut, err = d.reorder("reorder_dw", dwMD, plainW, 1); err != nil {
			return err
		}
		d.dwBuf = alignedF32(lib.mdBytes(dwMD) / 4)
	}
	if !cfg.NeedDX {
		return nil
	}
	dd := new(ipDesc)
	if r := lib.ipBwdDInit(dd, src, wei, dst); r != 0 {
		return statusErr("dnnl_inner_product_backward_data_desc_init", r)
	}
	if d.bwdD, err = d.create("backward_data", unsafe.Pointer(dd), nil, d.fwd); err != nil {
		return err
	}
	weiD := lib.queryMD(d.bwdD.pd, queryWeightsMD)
	for _, a := range []struct {
		arg int32
		md  *memDesc
	}{{argDiffDst, dst}, {argWeights, weiD}, {argDiffSrc, src}} {
		if err := d.bwdD.bind(a.arg, a.md); err != nil {
			return err
		}
	}
	if !lib.mdEqual(weiD, weiMD) {
		if d.weiD, err = d.reorder("reorder_w_bwd_data", weiMD, weiD, 1); err != nil {
			return err
		}
		d.weiDBuf = alignedF32(lib.mdBytes(weiD) / 4)
	}
	return nil
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
	d.weiPtr = ptr
	if d.wIn != nil {
		d.weiPtr = unsafe.Pointer(&d.weiBuf[0])
		if err := d.wIn.run(ptr, d.weiPtr); err != nil {
			return err
		}
	}
	d.lastW = ptr
	return nil
}

// Forward computes y = x w + b (then ReLU if configured): x (Batch, In), w (In, Out),
// b (Out), y (Batch, Out), row-major.
func (d *Dense) Forward(x, w, b, y []float32) error {
	if d.closed {
		return errClosed
	}
	cfg := d.cfg
	if err := firstErr(checkLen("dense input x", len(x), cfg.Batch*cfg.In), checkLen("dense weights w", len(w), cfg.In*cfg.Out),
		checkLen("dense bias b", len(b), cfg.Out), checkLen("dense output y", len(y), cfg.Batch*cfg.Out)); err != nil {
		return err
	}
	d.keepF = [7][]float32{x, w, b, y}
	defer d.release()
	defer lockThread()()
	if err := d.setWeights(w); err != nil {
		return err
	}
	yp := unsafe.Pointer(&y[0])
	if err := d.fwd.run(unsafe.Pointer(&x[0]), d.weiPtr, unsafe.Pointer(&b[0]), yp); err != nil {
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
	defer lockThread()()
	g := unsafe.Pointer(&dy[0])
	if d.reluBwd != nil {
		m := unsafe.Pointer(&d.dyMask[0])
		if err := d.reluBwd.run(unsafe.Pointer(&y[0]), g, m); err != nil {
			return err
		}
		g = m
	}
	dwp := unsafe.Pointer(&dw[0])
	if d.dwOut != nil {
		dwp = unsafe.Pointer(&d.dwBuf[0])
	}
	if err := d.bwdW.run(unsafe.Pointer(&x[0]), g, dwp, unsafe.Pointer(&db[0])); err != nil {
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
	wp := d.weiPtr
	if d.weiD != nil {
		wp = unsafe.Pointer(&d.weiDBuf[0])
		if err := d.weiD.run(d.weiPtr, wp); err != nil {
			return err
		}
	}
	return d.bwdD.run(g, wp, unsafe.Pointer(&dx[0]))
}

// release drops the references to the caller's slices at the end of a call.
func (d *Dense) release() {
	runtime.KeepAlive(d.keepF)
	d.keepF = [7][]float32{}
}
