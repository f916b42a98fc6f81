package dnnl

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/rlpool/rlpool/clib"
)

// LibName is the shared library Load opens by default. Debian's package libdnnl2
// (oneDNN 2.6.3) installs it.
const LibName = "libdnnl.so.2"

// EnvLib names the environment variable that, when set, replaces LibName as the library
// Load opens (a file name the dynamic loader searches for, or a path). A path that does
// not exist makes Load fail, which tests use to exercise the error path.
const EnvLib = "RLPOOL_DNNL"

// wantMajor is the only oneDNN major version this package accepts: the C structures
// mirrored in types.go and the op-descriptor API (removed in 3.x) are those of 2.x.
const wantMajor = 2

// library is an opened libdnnl with its entry points, engine and stream. Hot-path
// functions (execute, set handle, wait) are raw symbol addresses called with
// purego.SyscallN, which does not allocate; set-up functions are typed Go functions
// built by purego.RegisterFunc, which passes float arguments in the right registers and
// keeps pointer arguments alive for the call.
type library struct {
	path    string
	version string
	engine  uintptr
	stream  uintptr

	// Raw symbols for purego.SyscallN.
	symExecute, symStreamWait, symSetHandle uintptr

	// Set-up functions.
	memoryDescInitByTag     func(md *memDesc, ndims int32, dims *dims, dt int32, tag int32) int32
	memoryDescInitByStrides func(md *memDesc, ndims int32, dims *dims, dt int32, strides *dims) int32
	memoryDescEqual         func(a, b *memDesc) int32
	memoryDescGetSize       func(md *memDesc) uintptr
	memoryCreate            func(mem *uintptr, md *memDesc, engine uintptr, handle unsafe.Pointer) int32
	memoryDestroy           func(mem uintptr) int32

	convFwdInit  func(d *convDesc, prop, alg int32, src, wei, bias, dst *memDesc, strides, padL, padR *dims) int32
	convBwdDInit func(d *convDesc, alg int32, diffSrc, wei, diffDst *memDesc, strides, padL, padR *dims) int32
	convBwdWInit func(d *convDesc, alg int32, src, diffWei, diffBias, diffDst *memDesc, strides, padL, padR *dims) int32
	ipFwdInit    func(d *ipDesc, prop int32, src, wei, bias, dst *memDesc) int32
	ipBwdDInit   func(d *ipDesc, diffSrc, wei, diffDst *memDesc) int32
	ipBwdWInit   func(d *ipDesc, src, diffWei, diffBias, diffDst *memDesc) int32
	eltFwdInit   func(d *eltDesc, prop, alg int32, data *memDesc, alpha, beta float32) int32
	eltBwdInit   func(d *eltDesc, alg int32, diffData, data *memDesc, alpha, beta float32) int32

	pdCreate      func(pd *uintptr, opDesc unsafe.Pointer, attr, engine, hint uintptr) int32
	reorderCreate func(pd *uintptr, src *memDesc, srcEngine uintptr, dst *memDesc, dstEngine, attr uintptr) int32
	pdDestroy     func(pd uintptr) int32
	pdQueryMD     func(pd uintptr, what int32, index int32) *memDesc
	pdQuery       func(pd uintptr, what int32, index int32, result unsafe.Pointer) int32
	primCreate    func(p *uintptr, pd uintptr) int32
	primDestroy   func(p uintptr) int32

	attrCreate          func(attr *uintptr) int32
	attrDestroy         func(attr uintptr) int32
	attrSetScratchpad   func(attr uintptr, mode int32) int32
	attrSetOutputScales func(attr uintptr, count int64, mask int32, scales *float32) int32
	attrSetPostOps      func(attr uintptr, ops uintptr) int32
	postOpsCreate       func(ops *uintptr) int32
	postOpsAppendElt    func(ops uintptr, scale float32, alg int32, alpha, beta float32) int32
	postOpsDestroy      func(ops uintptr) int32

	engineCreate func(engine *uintptr, kind int32, index uintptr) int32
	streamCreate func(stream *uintptr, engine uintptr, flags uint32) int32
	versionFn    func() *versionInfo
}

// versionInfo mirrors dnnl_version_t.
type versionInfo struct {
	Major, Minor, Patch int32
	_                   int32
	Hash                *byte
	CPURuntime          uint32
	GPURuntime          uint32
}

var (
	loadOnce sync.Once
	loaded   *library
	loadErr  error

	// lib is the library Load opened; nil until Load succeeds. Layers use it.
	lib *library

	// ompSetNumThreads and ompGetMaxThreads are libgomp's omp_set_num_threads and
	// omp_get_max_threads, 0 when not found.
	ompSetNumThreads, ompGetMaxThreads uintptr
	// ompDefaultThreads is omp_get_max_threads() at load time: OpenMP's default
	// (OMP_NUM_THREADS, else the number of CPUs).
	ompDefaultThreads int64
	// numThreads is the thread count SetNumThreads asked for; 0 means the default.
	numThreads atomic.Int64
)

// Load opens oneDNN (LibName, or the library named by $RLPOOL_DNNL) once per process,
// checks that it is version 2.x, and creates the CPU engine and stream every layer
// uses. Before opening it, unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is already set, it
// sets OMP_WAIT_POLICY=ACTIVE and GOMP_SPINCOUNT=ompSpinCount in the C environment, so
// that libgomp's idle worker threads spin briefly between one primitive and the next
// and then sleep, leaving the cores to the rest of the program (see the package
// comment). Later calls return the first result.
func Load() error {
	loadOnce.Do(func() {
		loaded, loadErr = open(libPath())
		if loadErr == nil {
			lib = loaded
			findOMP()
		}
	})
	return loadErr
}

// Available reports whether Load has succeeded (it calls Load).
func Available() bool { return Load() == nil }

// Version returns the loaded library's version, e.g. "2.6.3", or "" when Load fails.
func Version() string {
	if Load() != nil {
		return ""
	}
	return lib.version
}

// SetNumThreads sets how many OpenMP threads oneDNN's primitives use (n < 1 restores
// OpenMP's default). OpenMP keeps the thread count per OS thread, and Go moves
// goroutines between OS threads, so the package applies the setting on the calling OS
// thread before every layer call rather than once here. Set it before creating layers:
// oneDNN sizes some kernels and scratch buffers by the thread count at creation time.
func SetNumThreads(n int) {
	if n < 1 {
		n = 0
	}
	numThreads.Store(int64(n))
}

// ompSpinCount is how many times an idle OpenMP worker polls for new work before it
// sleeps, as set through GOMP_SPINCOUNT (with OMP_WAIT_POLICY=ACTIVE, which also raises
// libgomp's limit for a process with more OpenMP threads than CPUs from 100 to 1000
// polls, and this value keeps that limit). 1000 polls take some tens of microseconds:
// longer than the gap between one layer's primitive and the next, far shorter than
// the env steps between two network calls.
const ompSpinCount = "1000"

// ompEnv returns the OpenMP variables Load sets, as name-value pairs, given the
// process's environment (lookup): OMP_WAIT_POLICY=ACTIVE and GOMP_SPINCOUNT, or nothing
// when the user set either, since the two decide together how long workers poll.
func ompEnv(lookup func(string) (string, bool)) [][2]string {
	for _, name := range []string{"OMP_WAIT_POLICY", "GOMP_SPINCOUNT"} {
		if _, ok := lookup(name); ok {
			return nil
		}
	}
	return [][2]string{{"OMP_WAIT_POLICY", "ACTIVE"}, {"GOMP_SPINCOUNT", ompSpinCount}}
}

// onednn is how the package finds oneDNN.
var onednn = clib.Library{What: "oneDNN", Env: EnvLib, Names: []string{LibName}, Package: "libdnnl2", Global: true}

// libPath is the library Load opens: $RLPOOL_DNNL or LibName.
func libPath() string { return onednn.Candidates()[0] }

// open loads the oneDNN library at path and prepares it for use. It is the testable
// part of Load: it has no process-wide state besides the C environment variable it may
// set and the library it opens.
func open(path string) (*library, error) {
	for _, kv := range ompEnv(os.LookupEnv) {
		clib.SetEnvDefault(kv[0], kv[1])
	}
	h, err := onednn.OpenPath(path)
	if err != nil {
		return nil, fmt.Errorf("dnnl: %w", err)
	}
	l := &library{path: path}
	if err := h.Bind(l.symbols()); err != nil {
		return nil, fmt.Errorf("dnnl: %w (is it oneDNN 3.x, or not oneDNN?)", err)
	}
	v := l.versionFn()
	if v == nil {
		return nil, fmt.Errorf("dnnl: %s: dnnl_version() returned nothing; %s", path, onednn.Hint())
	}
	l.version = fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	if v.Major != wantMajor {
		return nil, fmt.Errorf("dnnl: %s is oneDNN %s, but this package supports only oneDNN %d.x (its C API changed in 3.0); %s (a 2.x libdnnl.so.2)", path, l.version, wantMajor, onednn.Hint())
	}
	if st := l.engineCreate(&l.engine, engineCPU, 0); st != 0 {
		return nil, statusErr("dnnl_engine_create(cpu)", st)
	}
	if st := l.streamCreate(&l.stream, l.engine, streamDefaultFlags); st != 0 {
		return nil, statusErr("dnnl_stream_create", st)
	}
	return l, nil
}

// symbols is the package's table of oneDNN 2.x entry points: the hot-path ones as
// raw addresses, the set-up ones as typed Go functions.
func (l *library) symbols() []clib.Symbol {
	return []clib.Symbol{
		{Name: "dnnl_primitive_execute", Addr: &l.symExecute},
		{Name: "dnnl_stream_wait", Addr: &l.symStreamWait},
		{Name: "dnnl_memory_set_data_handle", Addr: &l.symSetHandle},
		{Name: "dnnl_memory_desc_init_by_tag", Func: &l.memoryDescInitByTag},
		{Name: "dnnl_memory_desc_init_by_strides", Func: &l.memoryDescInitByStrides},
		{Name: "dnnl_memory_desc_equal", Func: &l.memoryDescEqual},
		{Name: "dnnl_memory_desc_get_size", Func: &l.memoryDescGetSize},
		{Name: "dnnl_memory_create", Func: &l.memoryCreate},
		{Name: "dnnl_memory_destroy", Func: &l.memoryDestroy},
		{Name: "dnnl_convolution_forward_desc_init", Func: &l.convFwdInit},
		{Name: "dnnl_convolution_backward_data_desc_init", Func: &l.convBwdDInit},
		{Name: "dnnl_convolution_backward_weights_desc_init", Func: &l.convBwdWInit},
		{Name: "dnnl_inner_product_forward_desc_init", Func: &l.ipFwdInit},
		{Name: "dnnl_inner_product_backward_data_desc_init", Func: &l.ipBwdDInit},
		{Name: "dnnl_inner_product_backward_weights_desc_init", Func: &l.ipBwdWInit},
		{Name: "dnnl_eltwise_forward_desc_init", Func: &l.eltFwdInit},
		{Name: "dnnl_eltwise_backward_desc_init", Func: &l.eltBwdInit},
		{Name: "dnnl_primitive_desc_create", Func: &l.pdCreate},
		{Name: "dnnl_reorder_primitive_desc_create", Func: &l.reorderCreate},
		{Name: "dnnl_primitive_desc_destroy", Func: &l.pdDestroy},
		{Name: "dnnl_primitive_desc_query_md", Func: &l.pdQueryMD},
		{Name: "dnnl_primitive_desc_query", Func: &l.pdQuery},
		{Name: "dnnl_primitive_create", Func: &l.primCreate},
		{Name: "dnnl_primitive_destroy", Func: &l.primDestroy},
		{Name: "dnnl_primitive_attr_create", Func: &l.attrCreate},
		{Name: "dnnl_primitive_attr_destroy", Func: &l.attrDestroy},
		{Name: "dnnl_primitive_attr_set_scratchpad_mode", Func: &l.attrSetScratchpad},
		{Name: "dnnl_primitive_attr_set_output_scales", Func: &l.attrSetOutputScales},
		{Name: "dnnl_primitive_attr_set_post_ops", Func: &l.attrSetPostOps},
		{Name: "dnnl_post_ops_create", Func: &l.postOpsCreate},
		{Name: "dnnl_post_ops_append_eltwise", Func: &l.postOpsAppendElt},
		{Name: "dnnl_post_ops_destroy", Func: &l.postOpsDestroy},
		{Name: "dnnl_engine_create", Func: &l.engineCreate},
		{Name: "dnnl_stream_create", Func: &l.streamCreate},
		{Name: "dnnl_version", Func: &l.versionFn},
	}
}

// libgomp is OpenMP's run time, which libdnnl pulls in; findOMP opens it itself only
// when no loaded library has its functions.
var libgomp = clib.Library{What: "OpenMP", Names: []string{"libgomp.so.1"}, Package: "libgomp1", Global: true}

// findOMP looks up omp_set_num_threads and omp_get_max_threads among the loaded
// libraries (libdnnl pulls in libgomp), else in libgomp.so.1, and records OpenMP's
// default thread count.
func findOMP() {
	var set, get uintptr
	omp := []clib.Symbol{{Name: "omp_set_num_threads", Addr: &set}, {Name: "omp_get_max_threads", Addr: &get}}
	if clib.Process().Bind(omp) != nil {
		h, err := libgomp.Open()
		if err != nil || h.Bind(omp) != nil {
			return
		}
	}
	r, _, _ := purego.SyscallN(get)
	ompDefaultThreads = int64(int32(r))
	ompSetNumThreads, ompGetMaxThreads = set, get
}

// applyThreads sets an OpenMP team of n threads on the calling OS thread, or when n is
// 0 the count chosen with SetNumThreads (or OpenMP's default). Callers hold the
// goroutine on its OS thread (runtime.LockOSThread) until their oneDNN calls are done.
func applyThreads(threads int) {
	n := int64(threads)
	if n <= 0 {
		n = numThreads.Load()
	}
	if n == 0 {
		n = ompDefaultThreads
	}
	if n > 0 && ompSetNumThreads != 0 {
		purego.SyscallN(ompSetNumThreads, uintptr(n))
	}
}

// statusNames are dnnl_status_t's values.
var statusNames = map[int32]string{
	1: "out of memory",
	2: "invalid arguments",
	3: "unimplemented (no implementation for this shape/layout/attribute combination)",
	4: "iterator ends",
	5: "runtime error",
	6: "not required",
}

// statusErr turns a non-zero dnnl_status_t from the call named what into an error.
func statusErr(what string, st int32) error {
	name, ok := statusNames[st]
	if !ok {
		name = fmt.Sprintf("status %d", st)
	}
	return fmt.Errorf("dnnl: %s failed: %s", what, name)
}
