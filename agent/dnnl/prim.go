package dnnl

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
	"golang.org/x/sys/unix"
)

// This file holds the machinery every layer shares: memory descriptors, memory
// objects whose data pointer is set at each execution, primitives with their
// execution-argument arrays, and one user-managed scratchpad buffer per layer.

// newMD returns a heap-allocated memory descriptor of the given dimensions, data type
// and format tag (tagAny lets the primitive choose the layout).
func (l *library) newMD(d []int, dt, tag int32) (*memDesc, error) {
	md := new(memDesc)
	dd := toDims(d)
	if st := l.memoryDescInitByTag(md, int32(len(d)), dd, dt, tag); st != 0 {
		return nil, statusErr(fmt.Sprintf("dnnl_memory_desc_init_by_tag(dims %v, tag %d)", d, tag), st)
	}
	return md, nil
}

// likeMD returns a descriptor of md's dimensions in data type dt with the layout left
// to the primitive (format "any").
func (l *library) likeMD(md *memDesc, dt int32) (*memDesc, error) {
	d := make([]int, md.ndims)
	for i := range d {
		d[i] = int(md.dims[i])
	}
	return l.newMD(d, dt, tagAny)
}

// newStridedMD returns a heap-allocated memory descriptor of the given dimensions and
// element strides.
func (l *library) newStridedMD(d, strides []int, dt int32) (*memDesc, error) {
	md := new(memDesc)
	dd, ss := toDims(d), toDims(strides)
	if st := l.memoryDescInitByStrides(md, int32(len(d)), dd, dt, ss); st != 0 {
		return nil, statusErr(fmt.Sprintf("dnnl_memory_desc_init_by_strides(dims %v, strides %v)", d, strides), st)
	}
	return md, nil
}

// toDims copies d into a heap-allocated dnnl_dims_t.
func toDims(d []int) *dims {
	out := new(dims)
	for i, v := range d {
		out[i] = int64(v)
	}
	return out
}

// mdEqual reports whether two memory descriptors describe the same layout.
func (l *library) mdEqual(a, b *memDesc) bool { return l.memoryDescEqual(a, b) != 0 }

// mdBytes is the size in bytes of a buffer holding md, padding included.
func (l *library) mdBytes(md *memDesc) int { return int(l.memoryDescGetSize(md)) }

// queryMD copies the memory descriptor a primitive descriptor reports for what.
func (l *library) queryMD(pd uintptr, what int32) *memDesc {
	p := l.pdQueryMD(pd, what, 0)
	md := new(memDesc)
	if p != nil {
		*md = *p
	}
	return md
}

// implString is the implementation name of a primitive descriptor (e.g.
// "jit:avx2", "brgconv:avx512_core", "ref:any").
func (l *library) implString(pd uintptr) string {
	var s *byte
	if st := l.pdQuery(pd, queryImplInfoStr, 0, unsafe.Pointer(&s)); st != 0 || s == nil {
		return ""
	}
	var b strings.Builder
	for p := unsafe.Pointer(s); *(*byte)(p) != 0 && b.Len() < 256; p = unsafe.Add(p, 1) {
		b.WriteByte(*(*byte)(p))
	}
	return b.String()
}

// memObj is a dnnl_memory_t created without a buffer; its data pointer is set before
// each execution.
type memObj struct {
	md *memDesc
	h  uintptr
}

// prim is one oneDNN primitive with the memory objects of its execution arguments.
type prim struct {
	name    string
	pd, p   uintptr
	impl    string
	scratch int // scratchpad bytes it needs

	args []execArg // heap array handed to dnnl_primitive_execute
	mems []*memObj // mems[i] is bound to args[i]
}

// layer is what Conv and Dense share: their primitives and one scratchpad buffer large
// enough for any of them (a layer runs its primitives one after another).
type layer struct {
	prims      []*prim
	scratchBuf []float32
	scratchMem []*memObj // one per primitive needing scratch, all on scratchBuf
	closed     bool

	// Weights fixed by FixWeights: heldW is the caller's slice whose conversion the
	// layer's weight buffer holds (nil: none yet).
	fixW  bool
	heldW unsafe.Pointer
}

// FixWeights promises that the weights passed to the following calls keep their
// values until FixWeights is called again: the layer then converts them into its
// layout (and precision) on the first call only, and reuses that copy while it is
// handed the same slice, instead of converting on every call. An actor's inference
// layer calls it after each change of the weights (an optimiser step, a copy), so
// the conversion happens once per update rather than once per batch of actions.
// Without it every call converts, which is always correct.
func (ly *layer) FixWeights() { ly.fixW, ly.heldW = true, nil }

// weightsHeld reports whether the weight buffer already holds the conversion of the
// slice at w (FixWeights), and otherwise records that it is about to.
func (ly *layer) weightsHeld(w unsafe.Pointer) bool {
	if !ly.fixW {
		return false
	}
	if ly.heldW == w {
		return true
	}
	ly.heldW = w
	return false
}

// attrFn configures a primitive attribute before its primitive descriptor is made.
type attrFn func(attr uintptr) error

// newAttr creates an attribute in user-scratchpad mode (the layer owns the scratch
// buffer, so executions do not allocate) and applies fn.
func (l *library) newAttr(fn attrFn) (uintptr, error) {
	var attr uintptr
	if st := l.attrCreate(&attr); st != 0 {
		return 0, statusErr("dnnl_primitive_attr_create", st)
	}
	if st := l.attrSetScratchpad(attr, scratchpadUser); st != 0 {
		l.attrDestroy(attr)
		return 0, statusErr("dnnl_primitive_attr_set_scratchpad_mode", st)
	}
	if fn != nil {
		if err := fn(attr); err != nil {
			l.attrDestroy(attr)
			return 0, err
		}
	}
	return attr, nil
}

// reluPostOp makes an attribute apply ReLU to the primitive's output.
func reluPostOp(attr uintptr) error {
	var ops uintptr
	if st := lib.postOpsCreate(&ops); st != 0 {
		return statusErr("dnnl_post_ops_create", st)
	}
	defer lib.postOpsDestroy(ops)
	if st := lib.postOpsAppendElt(ops, 1, algEltReLU, 0, 0); st != 0 {
		return statusErr("dnnl_post_ops_append_eltwise(relu)", st)
	}
	if st := lib.attrSetPostOps(attr, ops); st != 0 {
		return statusErr("dnnl_primitive_attr_set_post_ops", st)
	}
	return nil
}

// outputScale makes an attribute multiply the output by s (used by reorders).
func outputScale(s float32) attrFn {
	return func(attr uintptr) error {
		sc := new(float32)
		*sc = s
		if st := lib.attrSetOutputScales(attr, 1, 0, sc); st != 0 {
			return statusErr("dnnl_primitive_attr_set_output_scales", st)
		}
		return nil
	}
}

// finishPD turns a primitive descriptor into a primitive registered with the layer.
func (ly *layer) finishPD(name string, pd uintptr) (*prim, error) {
	p := &prim{name: name, pd: pd, impl: lib.implString(pd)}
	if st := lib.primCreate(&p.p, pd); st != 0 {
		lib.pdDestroy(pd)
		return nil, statusErr("dnnl_primitive_create("+name+")", st)
	}
	ly.prims = append(ly.prims, p)
	sp := lib.queryMD(pd, queryScratchpadMD)
	if sp.ndims > 0 {
		p.scratch = lib.mdBytes(sp)
		if p.scratch > 0 {
			if err := ly.bindScratch(p, sp); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// create makes a primitive from an op descriptor (a *convDesc, *ipDesc or *eltDesc),
// with the attribute fn configures and an optional forward hint.
func (ly *layer) create(name string, op unsafe.Pointer, fn attrFn, hint *prim) (*prim, error) {
	attr, err := lib.newAttr(fn)
	if err != nil {
		return nil, fmt.Errorf("dnnl: %s: %w", name, err)
	}
	defer lib.attrDestroy(attr)
	var h uintptr
	if hint != nil {
		h = hint.pd
	}
	var pd uintptr
	if st := lib.pdCreate(&pd, op, attr, lib.engine, h); st != 0 {
		return nil, statusErr("dnnl_primitive_desc_create("+name+")", st)
	}
	return ly.finishPD(name, pd)
}

// reorder makes a reorder primitive from src to dst layout, multiplying by scale
// unless it is 1, with its FROM and TO arguments bound.
func (ly *layer) reorder(name string, src, dst *memDesc, scale float32) (*prim, error) {
	var fn attrFn
	if scale != 1 {
		fn = outputScale(scale)
	}
	attr, err := lib.newAttr(fn)
	if err != nil {
		return nil, fmt.Errorf("dnnl: %s: %w", name, err)
	}
	defer lib.attrDestroy(attr)
	var pd uintptr
	if st := lib.reorderCreate(&pd, src, lib.engine, dst, lib.engine, attr); st != 0 {
		return nil, statusErr("dnnl_reorder_primitive_desc_create("+name+")", st)
	}
	p, err := ly.finishPD(name, pd)
	if err != nil {
		return nil, err
	}
	if err := p.bind(argFrom, src); err != nil {
		return nil, err
	}
	if err := p.bind(argTo, dst); err != nil {
		return nil, err
	}
	return p, nil
}

// bind adds an execution argument of layout md; its buffer is given at run time.
func (p *prim) bind(arg int32, md *memDesc) error {
	m := &memObj{md: md}
	if st := lib.memoryCreate(&m.h, md, lib.engine, nil); st != 0 {
		return statusErr(fmt.Sprintf("dnnl_memory_create(%s arg %d)", p.name, arg), st)
	}
	p.args = append(p.args, execArg{arg: arg, mem: m.h})
	p.mems = append(p.mems, m)
	return nil
}

// argMD is one execution argument of a primitive and its layout, for bindAll.
type argMD struct {
	arg int32
	md  *memDesc
}

// bindAll binds the arguments in order, as bind does each.
func (p *prim) bindAll(args []argMD) error {
	for _, a := range args {
		if err := p.bind(a.arg, a.md); err != nil {
			return err
		}
	}
	return nil
}

// bindScratch adds the scratchpad argument, pointing at the layer's scratch buffer
// (grown when needed; existing scratch memory objects are re-pointed).
func (ly *layer) bindScratch(p *prim, md *memDesc) error {
	if err := p.bind(argScratchpad, md); err != nil {
		return err
	}
	m := p.mems[len(p.mems)-1]
	// Scratch memory objects are the last bound at creation; remove from the per-run
	// list so run() does not expect a pointer for them.
	p.mems = p.mems[:len(p.mems)-1]
	ly.scratchMem = append(ly.scratchMem, m)
	need := (p.scratch + 3) / 4
	if need > len(ly.scratchBuf) {
		ly.scratchBuf = alignedF32(need)
		for _, sm := range ly.scratchMem {
			if err := setHandle(sm, unsafe.Pointer(&ly.scratchBuf[0])); err != nil {
				return err
			}
		}
		return nil
	}
	return setHandle(m, unsafe.Pointer(&ly.scratchBuf[0]))
}

// setHandle points a memory object at a buffer.
func setHandle(m *memObj, ptr unsafe.Pointer) error {
	r, _, _ := purego.SyscallN(lib.symSetHandle, m.h, uintptr(ptr))
	if int32(r) != 0 {
		return statusErr("dnnl_memory_set_data_handle", int32(r))
	}
	return nil
}

// run points the primitive's bound arguments at ptrs (in bind order; the scratchpad is
// already bound) and executes it on the shared stream, waiting for completion. The
// caller keeps every buffer alive until run returns and holds its OS thread.
func (p *prim) run(ptrs ...unsafe.Pointer) error {
	if len(ptrs) != len(p.mems) {
		return fmt.Errorf("dnnl: internal error: %s run with %d buffers, want %d", p.name, len(ptrs), len(p.mems))
	}
	for i, m := range p.mems {
		if err := setHandle(m, ptrs[i]); err != nil {
			return err
		}
	}
	r, _, _ := purego.SyscallN(lib.symExecute, p.p, lib.stream, uintptr(len(p.args)), uintptr(unsafe.Pointer(&p.args[0])))
	if int32(r) != 0 {
		return statusErr("dnnl_primitive_execute("+p.name+")", int32(r))
	}
	r, _, _ = purego.SyscallN(lib.symStreamWait, lib.stream)
	if int32(r) != 0 {
		return statusErr("dnnl_stream_wait("+p.name+")", int32(r))
	}
	return nil
}

// impls lists the layer's primitives' implementation names.
func (ly *layer) impls() map[string]string {
	m := make(map[string]string, len(ly.prims))
	for _, p := range ly.prims {
		m[p.name] = p.impl
	}
	return m
}

// close destroys every primitive and memory object of the layer.
func (ly *layer) close() {
	if ly.closed || lib == nil {
		return
	}
	ly.closed = true
	for _, p := range ly.prims {
		for _, m := range p.mems {
			lib.memoryDestroy(m.h)
		}
		lib.primDestroy(p.p)
		lib.pdDestroy(p.pd)
	}
	for _, m := range ly.scratchMem {
		lib.memoryDestroy(m.h)
	}
	ly.prims, ly.scratchMem, ly.scratchBuf = nil, nil, nil
}

// dropPrim destroys one primitive of the layer (used when a reorder is rebuilt for a
// new scale).
func (ly *layer) dropPrim(p *prim) {
	for i, q := range ly.prims {
		if q == p {
			ly.prims = append(ly.prims[:i], ly.prims[i+1:]...)
			break
		}
	}
	for _, m := range p.mems {
		lib.memoryDestroy(m.h)
	}
	lib.primDestroy(p.p)
	lib.pdDestroy(p.pd)
}

// f32Len is the number of float32s a buffer for a tensor of layout md needs (for a
// bfloat16 tensor, half its elements rounded up).
func f32Len(md *memDesc) int { return (lib.mdBytes(md) + 3) / 4 }

// alignedF32 allocates n zeroed float32s starting on a 64-byte boundary (oneDNN's
// kernels prefer cache-line-aligned buffers).
func alignedF32(n int) []float32 {
	if n == 0 {
		n = 1
	}
	buf := make([]float32, n+16)
	off := 0
	if a := uintptr(unsafe.Pointer(&buf[0])) % 64; a != 0 {
		off = int((64 - a) / 4)
	}
	return buf[off : off+n : off+n]
}

// ptrF32 is the address of a float32 slice's first element (nil for an empty slice).
func ptrF32(s []float32) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

// lockThread holds the goroutine on its OS thread for a sequence of oneDNN calls and
// applies the thread count; the returned function releases it. OpenMP keeps its thread
// team and thread-count setting per OS thread.
//
// It also blocks SIGPROF on the thread until the release. The OpenMP worker threads
// libgomp starts inherit the blocked signal: a CPU profile's SIGPROF, which the kernel
// delivers to any thread of the process, would otherwise land on a thread the Go
// runtime did not create, which a program built without cgo cannot handle (train
// -cpuprofile crashed with a segmentation fault). A profile therefore attributes the
// time of oneDNN's calls to the moment they return, not to their code.
func lockThread() func() { return lockThreadN(0) }

// lock is lockThread with the layer's own OpenMP team size (ConvConfig.Threads).
func (c *Conv) lock() func() { return lockThreadN(c.cfg.Threads) }

// lock is lockThread with the layer's own OpenMP team size (DenseConfig.Threads).
func (d *Dense) lock() func() { return lockThreadN(d.cfg.Threads) }

// lockThreadN is lockThread applying an OpenMP team of n threads (0: SetNumThreads's
// count, or OpenMP's default).
func lockThreadN(n int) func() {
	runtime.LockOSThread()
	var prof, old unix.Sigset_t
	prof.Val[(unix.SIGPROF-1)/64] |= 1 << ((unix.SIGPROF - 1) % 64)
	blocked := unix.PthreadSigmask(unix.SIG_BLOCK, &prof, &old) == nil
	applyThreads(n)
	return func() {
		if blocked {
			unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil)
		}
		runtime.UnlockOSThread()
	}
}
