package dnnl

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// ConvConfig describes a 2-D convolution layer without padding, in float32.
type ConvConfig struct {
	// Batch, Cin, H and W are the input's shape (Batch, Cin, H, W), NCHW.
	Batch, Cin, H, W int
	// SeparateReLU runs the forward pass's ReLU as its own in-place eltwise primitive
	// instead of fusing it into the convolution as a post-op. Both give identical
	// results; fused (the default) measured slightly faster on the Nature CNN.
	SeparateReLU bool
	// Cout is the number of filters, each K x K, applied with stride Stride.
	Cout, K, Stride int
	// ReLU applies max(0, .) after the bias.
	ReLU bool
	// NeedDX makes Backward compute the gradient with respect to the input.
	NeedDX bool
	// SpaceToDepth runs the convolution on the input rearranged so that each Stride x
	// Stride block of pixels becomes Stride^2 channels, with a (K/Stride)^2 filter at
	// stride 1: the same arithmetic, but oneDNN has fast kernels for it where the
	// original (an 8x8 stride-4 filter on 4 channels, the Nature CNN's first layer)
	// falls to slow ones. It needs K, H and W to be multiples of Stride. Inputs,
	// outputs, weights and gradients stay in the plain layouts either way.
	SpaceToDepth bool
	// InferenceOnly creates only the forward primitive, tuned for inference
	// (forward_inference); Backward then fails.
	InferenceOnly bool
	// Threads is the size of the OpenMP team the layer's primitives run on; 0 means
	// SetNumThreads's count. An acting pass at a small batch runs beside env workers
	// that want the other cores: one thread serves it better than a team whose members
	// wait for each other at every primitive.
	Threads int
	// BF16 runs the convolution on bfloat16 operands: the forward pass on bfloat16
	// input and weights, the backward passes on those and a bfloat16 output gradient
	// (each converted while it is reordered into oneDNN's layout), all accumulating in
	// float32. Outputs and gradients (y, dw, db, dx) stay float32, and so do the
	// caller's weights, the master copy an optimiser updates. It needs a CPU with
	// native bf16 dot products (avx512_bf16 or AMX); NewConv refuses it where oneDNN
	// would fall back to its reference kernels. Whether it is faster than float32
	// depends on the CPU: measure (BenchmarkNatureCNN in agent/nn).
	BF16 bool

	// NativeOut makes Forward write y, and Backward read dy, in the layout oneDNN
	// chose for the output (OutLayout) instead of plain NCHW. Pass OutLayout to the
	// next layer's InLayout so that the activation and its gradient cross the boundary
	// without any conversion. A BF16 InferenceOnly layer then writes y in bfloat16
	// (two values per float32 of the buffer, OutLen() of them), the operand type of
	// the next bf16 layer, which reads it as it is.
	NativeOut bool
	// InLayout, when not nil, is the layout of x in Forward and Backward (float32
	// only, no SpaceToDepth), and Backward writes dx in it too. Normally the previous
	// layer's OutLayout; if this layer's convolution prefers another layout the
	// conversion happens inside, still correct but slower (Impls lists it as
	// "reorder_x").
	InLayout *Layout
}

// OutH is the output's height, (H-K)/Stride+1.
func (c ConvConfig) OutH() int { return (c.H-c.K)/c.Stride + 1 }

// OutW is the output's width, (W-K)/Stride+1.
func (c ConvConfig) OutW() int { return (c.W-c.K)/c.Stride + 1 }

// check validates the configuration.
func (c ConvConfig) check() error {
	if c.Batch < 1 || c.Cin < 1 || c.H < 1 || c.W < 1 || c.Cout < 1 || c.K < 1 || c.Stride < 1 {
		return fmt.Errorf("dnnl: conv config %+v: every size must be at least 1", c)
	}
	if c.K > c.H || c.K > c.W {
		return fmt.Errorf("dnnl: conv config %+v: filter %d larger than input %dx%d (no padding)", c, c.K, c.H, c.W)
	}
	if c.SpaceToDepth && (c.K%c.Stride != 0 || c.H%c.Stride != 0 || c.W%c.Stride != 0) {
		return fmt.Errorf("dnnl: conv config %+v: SpaceToDepth needs K, H and W to be multiples of Stride; turn it off for this layer", c)
	}
	if c.InLayout != nil {
		if c.SpaceToDepth {
			return fmt.Errorf("dnnl: conv config %+v: SpaceToDepth needs plain input (InLayout nil)", c)
		}
		if want := [4]int{c.Batch, c.Cin, c.H, c.W}; c.InLayout.shape != want {
			return errLayoutShape(c.InLayout.shape, want)
		}
	}
	return nil
}

// Conv is a convolution layer (with bias and optional ReLU) built from oneDNN
// primitives created once for its configuration. Its methods must not be called
// concurrently; different layers may run concurrently.
type Conv struct {
	layer
	cfg      ConvConfig
	s        int    // space-to-depth factor, 1 when off
	xShape   [4]int // plain input
	wShape   [4]int // plain weights
	yLen     int
	xLen     int
	wLen     int
	postReLU bool // ReLU fused as a post-op

	srcMD, weiMD, dstMD *memDesc // layouts the forward primitive chose

	fwd, reluFwd *prim
	xF32         *pipe // float32 input (plain or InLayout) -> srcMD
	xU8          *pipe // plain uint8 input -> srcMD, built for xU8Scale
	xU8Scale     float32
	wIn          *pipe // plain weights -> weiMD
	yOut         *pipe // dstMD -> plain output (identity when NativeOut)

	srcBuf, weiBuf, dstBuf []float32 // nil where the plain Go slice is used directly

	// Backward.
	bwdW, bwdD, reluBwd *prim
	ddW, ddD            *pipe // plain masked dy -> the diff_dst layouts of bwdW, bwdD
	ddDShare            bool  // bwdD reads bwdW's diff_dst buffer
	srcW                *prim // srcMD -> bwdW's src layout, nil when equal
	weiD                *prim // weiMD -> bwdD's weights layout, nil when equal
	dwOut, dxOut        *pipe // chosen diff layouts -> plain dw, dx
	dyMask              []float32
	ddWBuf, ddDBuf      []float32
	srcWBuf, weiDBuf    []float32
	dwBuf, dxBuf        []float32

	// What the buffers hold: the Go slices the last Forward converted.
	lastX     unsafe.Pointer
	lastScale float32
	lastW     unsafe.Pointer
	srcPtr    unsafe.Pointer // forward's src buffer (srcBuf, or x itself)
	weiPtr    unsafe.Pointer // forward's weights buffer (weiBuf, or w itself)

	// The caller's slices of the current call, stored so that the compiler puts them
	// on the heap, where they do not move while oneDNN reads them.
	keepX any
	keepF [7][]float32
}

// NewConv creates the layer's primitives (forward; backward data when NeedDX and
// backward weights with bias, unless InferenceOnly) with oneDNN choosing the layouts,
// plus the reorders between them and the plain Go layouts. It calls Load and returns
// its error when the library is unavailable.
func NewConv(cfg ConvConfig) (*Conv, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	c := &Conv{cfg: cfg, s: 1}
	defer c.lock()()
	if cfg.SpaceToDepth {
		c.s = cfg.Stride
	}
	c.xShape = [4]int{cfg.Batch, cfg.Cin, cfg.H, cfg.W}
	c.wShape = [4]int{cfg.Cout, cfg.Cin, cfg.K, cfg.K}
	oh, ow := cfg.OutH(), cfg.OutW()
	c.xLen = cfg.Batch * cfg.Cin * cfg.H * cfg.W
	c.wLen = cfg.Cout * cfg.Cin * cfg.K * cfg.K
	c.yLen = cfg.Batch * cfg.Cout * oh * ow
	if err := c.build(); err != nil {
		c.Close()
		return nil, fmt.Errorf("%w (conv %+v)", err, cfg)
	}
	return c, nil
}

// build creates the primitives and buffers.
func (c *Conv) build() error {
	cfg, s := c.cfg, c.s
	oh, ow := cfg.OutH(), cfg.OutW()
	ce, he, we, ke, st := cfg.Cin*s*s, cfg.H/s, cfg.W/s, cfg.K/s, cfg.Stride/s
	if s == 1 {
		he, we, ke, st = cfg.H, cfg.W, cfg.K, cfg.Stride
	}
	in := int32(dtF32) // the data type of src and weights
	if cfg.BF16 {
		in = dtBF16
	}
	src, err := lib.newMD([]int{cfg.Batch, ce, he, we}, in, tagAny)
	if err != nil {
		return err
	}
	wei, err := lib.newMD([]int{cfg.Cout, ce, ke, ke}, in, tagAny)
	if err != nil {
		return err
	}
	out := int32(dtF32) // the data type of y
	if cfg.BF16 && cfg.InferenceOnly && cfg.NativeOut {
		out = dtBF16
	}
	dst, err := lib.newMD([]int{cfg.Batch, cfg.Cout, oh, ow}, out, tagAny)
	if err != nil {
		return err
	}
	bias, err := lib.newMD([]int{cfg.Cout}, dtF32, tagA)
	if err != nil {
		return err
	}
	strides, zero := toDims([]int{st, st}), new(dims)

	prop := int32(propForwardTraining)
	if cfg.InferenceOnly {
		prop = propForwardInference
	}
	fd := new(convDesc)
	if r := lib.convFwdInit(fd, prop, algConvDirect, src, wei, bias, dst, strides, zero, zero); r != 0 {
		return statusErr("dnnl_convolution_forward_desc_init", r)
	}
	var attr attrFn
	c.postReLU = cfg.ReLU && !cfg.SeparateReLU
	if c.postReLU {
		attr = reluPostOp
	}
	if c.fwd, err = c.createPass(cfg.BF16, "forward", unsafe.Pointer(fd), attr, nil); err != nil {
		return err
	}
	c.srcMD = lib.queryMD(c.fwd.pd, querySrcMD)
	c.weiMD = lib.queryMD(c.fwd.pd, queryWeightsMD)
	c.dstMD = lib.queryMD(c.fwd.pd, queryDstMD)
	if err := c.fwd.bindAll([]argMD{{argSrc, c.srcMD}, {argWeights, c.weiMD}, {argBias, bias}, {argDst, c.dstMD}}); err != nil {
		return err
	}
	if cfg.ReLU && !c.postReLU {
		if c.reluFwd, err = c.eltwiseFwd("relu_forward", c.dstMD, prop); err != nil {
			return err
		}
	}

	// Conversions between the Go layouts and the chosen ones.
	if cfg.InLayout != nil {
		c.xF32, err = c.direct("reorder_x", &cfg.InLayout.md, c.srcMD)
		c.xLen = cfg.InLayout.Len()
	} else {
		c.xF32, err = c.toLayout("reorder_x", c.xShape, s, dtF32, 1, c.srcMD)
	}
	if err != nil {
		return err
	}
	if c.wIn, err = c.toLayout("reorder_w", c.wShape, s, dtF32, 1, c.weiMD); err != nil {
		return err
	}
	yShape := [4]int{cfg.Batch, cfg.Cout, oh, ow}
	if cfg.NativeOut {
		c.yOut = &pipe{}
		c.yLen = f32Len(c.dstMD)
	} else if c.yOut, err = c.fromLayout("reorder_y", c.dstMD, yShape, 1); err != nil {
		return err
	}
	if !c.xF32.identity() {
		c.srcBuf = alignedF32(f32Len(c.srcMD))
	}
	if !c.wIn.identity() {
		c.weiBuf = alignedF32(f32Len(c.weiMD))
	}
	if !c.yOut.identity() {
		c.dstBuf = alignedF32(lib.mdBytes(c.dstMD) / 4)
	}
	if cfg.InferenceOnly {
		return nil
	}
	return c.buildBackward(src, wei, bias, dst, strides, zero, yShape)
}

// eltwiseFwd creates an in-place ReLU over a tensor of layout md.
func (ly *layer) eltwiseFwd(name string, md *memDesc, prop int32) (*prim, error) {
	ed := new(eltDesc)
	if r := lib.eltFwdInit(ed, prop, algEltReLU, md, 0, 0); r != 0 {
		return nil, statusErr("dnnl_eltwise_forward_desc_init", r)
	}
	p, err := ly.create(name, unsafe.Pointer(ed), nil, nil)
	if err != nil {
		return nil, err
	}
	if err := p.bind(argSrc, md); err != nil {
		return nil, err
	}
	return p, p.bind(argDst, md)
}

// reluBackward creates the primitive that masks a gradient of n elements by the
// layer's output: diff_src = diff_dst where dst > 0, else 0. Masking is elementwise, so
// a flat 1-D layout serves any tensor layout.
func (ly *layer) reluBackward(n int) (*prim, error) {
	md, err := lib.newMD([]int{n}, dtF32, tagA)
	if err != nil {
		return nil, err
	}
	fd := new(eltDesc)
	if r := lib.eltFwdInit(fd, propForwardTraining, algEltReLUUseDstBack, md, 0, 0); r != 0 {
		return nil, statusErr("dnnl_eltwise_forward_desc_init(relu hint)", r)
	}
	hint, err := ly.create("relu_hint", unsafe.Pointer(fd), nil, nil)
	if err != nil {
		return nil, err
	}
	bd := new(eltDesc)
	if r := lib.eltBwdInit(bd, algEltReLUUseDstBack, md, md, 0, 0); r != 0 {
		return nil, statusErr("dnnl_eltwise_backward_desc_init", r)
	}
	p, err := ly.create("relu_backward", unsafe.Pointer(bd), nil, hint)
	if err != nil {
		return nil, err
	}
	ly.dropPrim(hint)
	for _, a := range []int32{argDst, argDiffDst, argDiffSrc} {
		if err := p.bind(a, md); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// buildBackward creates the backward-weights and (with NeedDX) backward-data
// primitives and their conversions.
func (c *Conv) buildBackward(src, wei, bias, dst *memDesc, strides, zero *dims, yShape [4]int) error {
	cfg, s := c.cfg, c.s
	var err error
	if cfg.ReLU {
		if c.reluBwd, err = c.reluBackward(c.yLen); err != nil {
			return err
		}
		c.dyMask = alignedF32(c.yLen)
	}
	// In bf16 the output gradient is bf16 too, and the weight and input gradients
	// float32.
	diffDst, diffWei, diffSrc := dst, wei, src
	if cfg.BF16 {
		if diffDst, err = lib.likeMD(dst, dtBF16); err != nil {
			return err
		}
		if diffWei, err = lib.likeMD(wei, dtF32); err != nil {
			return err
		}
		if diffSrc, err = lib.likeMD(src, dtF32); err != nil {
			return err
		}
	}
	wd := new(convDesc)
	if r := lib.convBwdWInit(wd, algConvDirect, src, diffWei, bias, diffDst, strides, zero, zero); r != 0 {
		return statusErr("dnnl_convolution_backward_weights_desc_init", r)
	}
	if c.bwdW, err = c.createPass(cfg.BF16, "backward_weights", unsafe.Pointer(wd), nil, c.fwd); err != nil {
		return err
	}
	srcW := lib.queryMD(c.bwdW.pd, querySrcMD)
	ddW := lib.queryMD(c.bwdW.pd, queryDiffDstMD)
	dwMD := lib.queryMD(c.bwdW.pd, queryDiffWeightsM)
	if err := c.bwdW.bindAll([]argMD{{argSrc, srcW}, {argDiffDst, ddW}, {argDiffWeights, dwMD}, {argDiffBias, bias}}); err != nil {
		return err
	}
	if !lib.mdEqual(srcW, c.srcMD) {
		if c.srcW, err = c.reorder("reorder_x_bwd_weights", c.srcMD, srcW, 1); err != nil {
			return err
		}
		c.srcWBuf = alignedF32(f32Len(srcW))
	}
	if c.ddW, err = c.dyPipe("reorder_dy", yShape, ddW); err != nil {
		return err
	}
	if !c.ddW.identity() {
		c.ddWBuf = alignedF32(f32Len(ddW))
	}
	if c.dwOut, err = c.fromLayout("reorder_dw", dwMD, c.wShape, s); err != nil {
		return err
	}
	if !c.dwOut.identity() {
		c.dwBuf = alignedF32(lib.mdBytes(dwMD) / 4)
	}
	if !cfg.NeedDX {
		return nil
	}

	dd := new(convDesc)
	if r := lib.convBwdDInit(dd, algConvDirect, diffSrc, wei, diffDst, strides, zero, zero); r != 0 {
		return statusErr("dnnl_convolution_backward_data_desc_init", r)
	}
	if c.bwdD, err = c.createPass(cfg.BF16, "backward_data", unsafe.Pointer(dd), nil, c.fwd); err != nil {
		return err
	}
	dxMD := lib.queryMD(c.bwdD.pd, queryDiffSrcMD)
	weiD := lib.queryMD(c.bwdD.pd, queryWeightsMD)
	ddD := lib.queryMD(c.bwdD.pd, queryDiffDstMD)
	if err := c.bwdD.bindAll([]argMD{{argDiffDst, ddD}, {argWeights, weiD}, {argDiffSrc, dxMD}}); err != nil {
		return err
	}
	if !lib.mdEqual(weiD, c.weiMD) {
		if c.weiD, err = c.reorder("reorder_w_bwd_data", c.weiMD, weiD, 1); err != nil {
			return err
		}
		c.weiDBuf = alignedF32(f32Len(weiD))
	}
	if lib.mdEqual(ddD, ddW) {
		c.ddDShare = true
	} else {
		if c.ddD, err = c.dyPipe("reorder_dy_bwd_data", yShape, ddD); err != nil {
			return err
		}
		if !c.ddD.identity() {
			c.ddDBuf = alignedF32(f32Len(ddD))
		}
	}
	if cfg.InLayout != nil {
		c.dxOut, err = c.direct("reorder_dx", dxMD, &cfg.InLayout.md)
	} else {
		c.dxOut, err = c.fromLayout("reorder_dx", dxMD, c.xShape, s)
	}
	if err != nil {
		return err
	}
	if !c.dxOut.identity() {
		c.dxBuf = alignedF32(lib.mdBytes(dxMD) / 4)
	}
	return nil
}

// dyPipe builds the conversion of the output gradient (plain, or the output's layout
// with NativeOut) to a backward primitive's diff_dst layout.
func (c *Conv) dyPipe(name string, yShape [4]int, to *memDesc) (*pipe, error) {
	if c.cfg.NativeOut {
		return c.direct(name, c.dstMD, to)
	}
	return c.toLayout(name, yShape, 1, dtF32, 1, to)
}

// OutLayout is the layout oneDNN chose for the output. With NativeOut, y and dy are in
// it (OutLayout().Len() elements); pass it as the next layer's InLayout.
func (c *Conv) OutLayout() *Layout { return newLayout(c.dstMD) }

// InLen is the number of elements x and dx have: the plain input's size, or
// InLayout.Len().
func (c *Conv) InLen() int { return c.xLen }

// OutLen is the number of elements y and dy have: the plain output's size, or
// OutLayout().Len() with NativeOut.
func (c *Conv) OutLen() int { return c.yLen }

// Impls maps each primitive's name ("forward", "backward_data", "backward_weights",
// "relu_forward", "relu_backward", "reorder_x", "reorder_w", ...) to the oneDNN
// implementation chosen for it, e.g. "jit:avx2". An implementation starting with "ref"
// is oneDNN's slow reference code.
func (c *Conv) Impls() map[string]string { return c.impls() }

// Close destroys the layer's primitives. The layer is unusable afterwards.
func (c *Conv) Close() { c.close() }

// checkBF16 refuses a bfloat16 primitive for which oneDNN has only its reference
// kernels: bf16 is there to be faster, and on such a CPU it is many times slower.
func checkBF16(bf16 bool, p *prim) error {
	if bf16 && strings.HasPrefix(p.impl, "ref") {
		return fmt.Errorf("dnnl: this CPU has no fast bfloat16 kernels (oneDNN offers only %q for the %s pass); use float32", p.impl, p.name)
	}
	return nil
}

// createPass is create for one of a layer's passes (forward, backward weights or
// data), refused with checkBF16 when bf16 kernels would be slow. The primitive is
// returned with that error too, so that the layer still releases it.
func (ly *layer) createPass(bf16 bool, name string, op unsafe.Pointer, fn attrFn, hint *prim) (*prim, error) {
	p, err := ly.create(name, op, fn, hint)
	if err != nil {
		return nil, err
	}
	return p, checkBF16(bf16, p)
}

// errInternal reports a bug in this package.
func errInternal(what string) error { return fmt.Errorf("dnnl: internal error: %s", what) }

// errClosed is returned by methods of a closed layer.
var errClosed = errors.New("dnnl: layer used after Close")

// checkLen reports a slice whose length differs from want.
func checkLen(name string, got, want int) error {
	if got != want {
		return fmt.Errorf("dnnl: %s has %d elements, want %d", name, got, want)
	}
	return nil
}

// setInput converts x (float32 or uint8) into the forward primitive's src layout and
// records what it converted.
func (c *Conv) setInput(x any, scale float32) error {
	var ptr unsafe.Pointer
	switch v := x.(type) {
	case []float32:
		if err := checkLen("conv input x", len(v), c.xLen); err != nil {
			return err
		}
		ptr = unsafe.Pointer(&v[0])
		if c.xF32.identity() {
			c.srcPtr = ptr
		} else {
			if err := c.xF32.run(ptr, unsafe.Pointer(&c.srcBuf[0])); err != nil {
				return err
			}
			c.srcPtr = unsafe.Pointer(&c.srcBuf[0])
		}
		scale = 1
	case []uint8:
		if c.cfg.InLayout != nil {
			return errNativeU8
		}
		if err := checkLen("conv input x", len(v), c.xLen); err != nil {
			return err
		}
		if scale == 0 {
			return errors.New("dnnl: conv input is uint8 but scale is 0 (use 1/255 for raw pixels)")
		}
		ptr = unsafe.Pointer(&v[0])
		if c.xU8 == nil || c.xU8Scale != scale {
			if c.xU8 != nil {
				for _, p := range c.xU8.steps {
					c.dropPrim(p)
				}
			}
			p, err := c.toLayout("reorder_x_u8", c.xShape, c.s, dtU8, scale, c.srcMD)
			if err != nil {
				c.xU8 = nil
				return err
			}
			c.xU8, c.xU8Scale = p, scale
		}
		if c.srcBuf == nil {
			c.srcBuf = alignedF32(f32Len(c.srcMD))
		}
		if err := c.xU8.run(ptr, unsafe.Pointer(&c.srcBuf[0])); err != nil {
			return err
		}
		c.srcPtr = unsafe.Pointer(&c.srcBuf[0])
	default:
		return fmt.Errorf("dnnl: conv input x is %T, want []float32 or []uint8", x)
	}
	c.lastX, c.lastScale = ptr, scale
	return nil
}

// setWeights converts w into the forward primitive's weights layout.
func (c *Conv) setWeights(w []float32) error {
	ptr := unsafe.Pointer(&w[0])
	if c.wIn.identity() {
		c.weiPtr = ptr
	} else {
		c.weiPtr = unsafe.Pointer(&c.weiBuf[0])
		if !c.weightsHeld(ptr) {
			if err := c.wIn.run(ptr, c.weiPtr); err != nil {
				c.heldW = nil
				return err
			}
		}
	}
	c.lastW = ptr
	return nil
}

// Forward computes y = conv(x, w) + b (then ReLU if configured). x is the input in
// plain NCHW, []float32 or []uint8; uint8 values are multiplied by scale while being
// converted (1/255 for raw pixels); scale is ignored for float32. w is (Cout, Cin, K, K),
// b is (Cout), y is (Batch, Cout, OutH, OutW), all plain row-major. The converted input
// and weights are kept for the following Backward.
func (c *Conv) Forward(x any, scale float32, w, b, y []float32) error {
	if c.closed {
		return errClosed
	}
	if err := firstErr(checkLen("conv weights w", len(w), c.wLen), checkLen("conv bias b", len(b), c.cfg.Cout),
		checkLen("conv output y", len(y), c.yLen)); err != nil {
		return err
	}
	c.keepX, c.keepF = x, [7][]float32{w, b, y}
	defer c.release()
	defer c.lock()()
	if err := c.setInput(x, scale); err != nil {
		return err
	}
	if err := c.setWeights(w); err != nil {
		return err
	}
	dstPtr := ptrF32(c.dstBuf)
	if dstPtr == nil {
		dstPtr = unsafe.Pointer(&y[0])
	}
	if err := c.fwd.run(c.srcPtr, c.weiPtr, unsafe.Pointer(&b[0]), dstPtr); err != nil {
		return err
	}
	if c.reluFwd != nil {
		if err := c.reluFwd.run(dstPtr, dstPtr); err != nil {
			return err
		}
	}
	if dstPtr != unsafe.Pointer(&y[0]) {
		if err := c.yOut.run(dstPtr, unsafe.Pointer(&y[0])); err != nil {
			return err
		}
	}
	return nil
}

// Backward computes the gradients from the same x (and scale) and w as the last
// Forward, that Forward's output y and dy, the gradient with respect to y (all plain).
// It writes dw (Cout, Cin, K, K), db (Cout) and, when NeedDX, dx (the input's shape;
// may be nil otherwise). With ReLU, dy is first masked by y > 0. If x or w are not the
// slices the last Forward saw, they are converted again.
func (c *Conv) Backward(x any, scale float32, w, y, dy, dw, db, dx []float32) error {
	if c.closed {
		return errClosed
	}
	if c.bwdW == nil {
		return errors.New("dnnl: Backward on a conv layer created with InferenceOnly")
	}
	errs := []error{checkLen("conv weights w", len(w), c.wLen), checkLen("conv output y", len(y), c.yLen),
		checkLen("conv output gradient dy", len(dy), c.yLen), checkLen("conv weight gradient dw", len(dw), c.wLen),
		checkLen("conv bias gradient db", len(db), c.cfg.Cout)}
	if c.cfg.NeedDX {
		errs = append(errs, checkLen("conv input gradient dx", len(dx), c.xLen))
	}
	if err := firstErr(errs...); err != nil {
		return err
	}
	c.keepX, c.keepF = x, [7][]float32{w, y, dy, dw, db, dx}
	defer c.release()
	defer c.lock()()

	// Input and weights as the last Forward converted them, unless they changed.
	xPtr, xScale, err := slicePtr(x, scale, c.xLen)
	if err != nil {
		return err
	}
	if xPtr != c.lastX || xScale != c.lastScale {
		if err := c.setInput(x, scale); err != nil {
			return err
		}
	}
	if unsafe.Pointer(&w[0]) != c.lastW {
		if err := c.setWeights(w); err != nil {
			return err
		}
	}

	// dy, masked by ReLU, in the layouts of the two backward primitives.
	g := unsafe.Pointer(&dy[0])
	if c.reluBwd != nil {
		m := unsafe.Pointer(&c.dyMask[0])
		if err := c.reluBwd.run(unsafe.Pointer(&y[0]), g, m); err != nil {
			return err
		}
		g = m
	}
	ddW, err := c.ddW.into(g, c.ddWBuf)
	if err != nil {
		return err
	}

	// Weight and bias gradients.
	srcW, err := convertInto(c.srcW, c.srcPtr, c.srcWBuf)
	if err != nil {
		return err
	}
	if err := c.dwOut.writeTo(dw, c.dwBuf, func(dwPtr unsafe.Pointer) error {
		return c.bwdW.run(srcW, ddW, dwPtr, unsafe.Pointer(&db[0]))
	}); err != nil {
		return err
	}
	if c.bwdD == nil {
		return nil
	}

	// Input gradient.
	ddD := ddW
	if !c.ddDShare {
		if ddD, err = c.ddD.into(g, c.ddDBuf); err != nil {
			return err
		}
	}
	weiD, err := convertInto(c.weiD, c.weiPtr, c.weiDBuf)
	if err != nil {
		return err
	}
	return c.dxOut.writeTo(dx, c.dxBuf, func(dxPtr unsafe.Pointer) error {
		return c.bwdD.run(ddD, weiD, dxPtr)
	})
}

// release drops the references to the caller's slices at the end of a call.
func (c *Conv) release() {
	runtime.KeepAlive(c.keepX)
	runtime.KeepAlive(c.keepF)
	c.keepX, c.keepF = nil, [7][]float32{}
}

// slicePtr returns the data pointer of a conv input of n elements and the scale that
// applies to it.
func slicePtr(x any, scale float32, n int) (unsafe.Pointer, float32, error) {
	switch v := x.(type) {
	case []float32:
		if err := checkLen("conv input x", len(v), n); err != nil {
			return nil, 0, err
		}
		return unsafe.Pointer(&v[0]), 1, nil
	case []uint8:
		if err := checkLen("conv input x", len(v), n); err != nil {
			return nil, 0, err
		}
		return unsafe.Pointer(&v[0]), scale, nil
	}
	return nil, 0, fmt.Errorf("dnnl: conv input x is %T, want []float32 or []uint8", x)
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
