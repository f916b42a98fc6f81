package dnnl

// Constants and structure layouts of oneDNN 2.x's C API (oneapi/dnnl/dnnl_types.h of
// 2.6). sizes_test.go compiles a C program against the installed header and checks
// every value and size here.

// maxDims is DNNL_MAX_NDIMS: every dims array the API takes has this many entries.
const maxDims = 12

// dims mirrors dnnl_dims_t.
type dims [maxDims]int64

// dnnl_data_type_t.
const (
	dtBF16 = 2
	dtF32  = 3
	dtU8   = 6
)

// dnnl_format_kind_t.
const (
	formatKindBlocked = 2
)

// dnnl_format_tag_t values used here.
const (
	tagAny  = 1
	tagA    = 2  // plain 1-D
	tagAB   = 3  // plain 2-D, row-major
	tagABCD = 5  // plain 4-D: nchw / oihw
	tagACDB = 20 // 4-D channels last: nhwc
	tagBA   = 22 // 2-D, column-major: inner-product weights (OC, IC) stored as (IC, OC)
)

// dnnl_prop_kind_t.
const (
	propForwardTraining  = 64
	propForwardInference = 96
)

// dnnl_alg_kind_t.
const (
	algConvDirect        = 0x1
	algEltReLU           = 0x1f
	algEltReLUUseDstBack = 0x100
)

// dnnl_query_t.
const (
	queryImplInfoStr  = 8
	querySrcMD        = 129
	queryDiffSrcMD    = 130
	queryWeightsMD    = 131
	queryDiffWeightsM = 132
	queryDstMD        = 133
	queryDiffDstMD    = 134
	queryScratchpadMD = 136
)

// Miscellaneous enums.
const (
	engineCPU          = 1 // dnnl_cpu
	streamDefaultFlags = 1 // dnnl_stream_default_flags (in order)
	scratchpadUser     = 1 // dnnl_scratchpad_mode_user
)

// DNNL_ARG_* execution argument indices.
const (
	argSrc         = 1
	argDst         = 17
	argWeights     = 33
	argBias        = 41
	argScratchpad  = 80
	argDiffSrc     = 129
	argDiffDst     = 145
	argDiffWeights = 161
	argDiffBias    = 169
	argFrom        = argSrc
	argTo          = argDst
)

// memDesc mirrors dnnl_memory_desc_t (696 bytes in 2.6). Only the blocked variant of
// the format_desc union is spelled out; the union's other members are no larger.
type memDesc struct {
	ndims         int32
	_             int32
	dims          dims
	dataType      int32
	_             int32
	paddedDims    dims
	paddedOffsets dims
	offset0       int64
	formatKind    int32
	_             int32
	// format_desc.blocking (dnnl_blocking_desc_t, 296 bytes).
	strides    dims
	innerNblks int32
	_          int32
	innerBlks  dims
	innerIdxs  dims
	// extra (dnnl_memory_extra_desc_t, 80 bytes), never touched here.
	extra [80]byte
}

// Op descriptors are filled in by the *_desc_init functions and only read back by
// dnnl_primitive_desc_create, so they are opaque 8-byte-aligned buffers of the
// header's size.
type (
	convDesc [5976 / 8]uint64 // dnnl_convolution_desc_t
	ipDesc   [5584 / 8]uint64 // dnnl_inner_product_desc_t
	eltDesc  [1416 / 8]uint64 // dnnl_eltwise_desc_t
)

// execArg mirrors dnnl_exec_arg_t.
type execArg struct {
	arg int32
	_   int32
	mem uintptr
}
