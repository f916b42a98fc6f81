// Package dnnl runs the convolution and fully connected layers of a CNN, forward and
// backward in float32, on Intel's oneDNN 2.x (Debian's libdnnl2, libdnnl.so.2), which
// it loads at run time with purego: no cgo, the program still builds with
// CGO_ENABLED=0 and runs (without this backend) where the library is missing.
//
// Why: oneDNN's JIT kernels run the Nature CNN's training step several times faster
// than Go loops, and it is the library PyTorch and TensorFlow use on x86 CPUs.
//
// # Use
//
// Call Load (or Available) once; it fails with a message naming the Debian package
// when the library is missing or is not version 2.x. Create each layer once per shape
// (NewConv, NewDense: creating primitives costs milliseconds) and call Forward and
// Backward every step. Layers take and return plain row-major Go slices: NCHW
// activations, (Cout, Cin, K, K) convolution weights, (In, Out) dense weights. Inside,
// oneDNN picks its own layouts (format_tag_any) and the layer converts with reorders
// created once; Impls reports the implementation oneDNN chose for every primitive
// ("ref:..." would be its slow reference code; the tests check none is).
//
// Every buffer a layer needs is allocated when it is created. Forward converts the
// weights once and keeps the converted copy (and the converted input) for the
// following Backward, which is expected to receive the same x and w slices (it checks
// the slices' addresses, not their contents, and converts again when they differ).
// A layer's methods must not run concurrently; different layers may. Close frees the
// C-side objects; a layer that is dropped without Close leaks them.
//
// # Activations in oneDNN's layout
//
// Converting activations to plain NCHW at every layer boundary, and their gradients
// back, costs reorders: on the Nature CNN at batch 256 about 20 ms of a ~190 ms
// training step on the 2-core AVX2 machine this was measured on (four reorders of each
// of the conv1->conv2 and conv2->conv3 activations per step). ConvConfig.NativeOut and
// ConvConfig.InLayout remove them: a layer created with NativeOut writes y (and reads
// dy) in the layout oneDNN chose for its output, OutLayout(); the next layer created
// with InLayout set to that layout reads x (and writes dx) in it. When both layers'
// primitives prefer the same layout (they do on the Nature CNN: "aBcd8b" with AVX2,
// channels in blocks of 8), nothing is converted. Such buffers hold OutLen() elements
// (more than the plain size when the channel count is not a multiple of the block)
// and are meaningless to anything else: Layout.ToPlain converts one for inspection.
// Pairing a NativeOut layer with a layer without InLayout is not detected when the
// sizes agree and gives wrong results. A training dense layer takes plain input: the
// convolution feeding it keeps NativeOut off (its plain output is (B, C*H*W) as is).
// An inference dense layer can read the convolution's layout too
// (DenseConfig.InLayout): its weights, converted once per update anyway, are
// rearranged to match, which saves the reorder of the last activation on every call.
//
// # Choices, measured (AMD EPYC Zen 3, 2 vCPUs, AVX2, oneDNN 2.6.3)
//
//   - Space-to-depth for the first layer (ConvConfig.SpaceToDepth): 43-47 ms versus
//     72-80 ms for its forward + backward at batch 256; oneDNN has no fast kernel for
//     an 8x8 stride-4 filter on 4 channels (on AVX-512 its weight gradient falls to
//     slower code plus reorders). The rearrangement of the input (and of the weights
//     and their gradient) is a single oneDNN reorder over a strided view of both
//     tensors (see view.go), which also converts uint8 pixels to float32 with the
//     scale: about 3.4 ms at batch 256 versus 4.1 ms for a hand-written two-goroutine
//     Go loop.
//   - ReLU fused into the forward primitive as a post-op (unless SeparateReLU) is slightly
//     faster than a separate eltwise primitive. Backward masks dy by y > 0 with one
//     eltwise primitive over the flat buffer (which works in any layout).
//   - Dense weights stay in the project's (In, Out) layout, oneDNN's "ba": forward,
//     backward-data and backward-weights all run on "x64:gemm:jit", the same kernels
//     oneDNN picks when free to choose (when free, it also wants another layout for
//     backward data, which would cost a 6.4 MB weight reorder per step). So no dense
//     weight is ever reordered (DenseConfig.WeightsAny switches to oneDNN's choice).
//   - Scratch memory is user-managed: one buffer per layer, so executions do not
//     allocate.
//
// # Threads and environment
//
// oneDNN runs its parallel regions on OpenMP (libgomp) threads, by default one per CPU,
// outside Go's scheduler. OpenMP keeps its thread count and its thread team per OS
// thread: every layer call locks its goroutine to its OS thread and applies
// SetNumThreads's count first, and each distinct OS thread that calls into oneDNN gets
// its own team. Gorgonia's tape machine runs every pass of a graph on a new goroutine,
// so a program soon has several teams, more OpenMP threads than CPUs, and libgomp then
// lets an idle worker poll only briefly before it sleeps: 0 times with
// OMP_WAIT_POLICY=PASSIVE, 100 by default, 1000 with ACTIVE. A sleeping worker costs
// every primitive a futex wake-up, tens of microseconds, and an inference pass at batch
// 16 is seven primitives of 0.06-0.15 ms each on AMX. Load therefore sets
// OMP_WAIT_POLICY=ACTIVE and GOMP_SPINCOUNT=1000 in the C environment unless either is
// already set: workers poll for some tens of microseconds, bridging the gaps between
// one layer's primitive and the next, then sleep, leaving the cores to the env
// workers. Call SetNumThreads before creating layers: oneDNN sizes kernels by the
// thread count at creation.
//
// Environment variables: RLPOOL_DNNL replaces the library name or path (a path that
// does not exist makes Load fail); OMP_WAIT_POLICY, GOMP_SPINCOUNT and OMP_NUM_THREADS
// are read by libgomp when the library is loaded; DNNL_VERBOSE=1 in the process's environment
// (set in the shell; os.Setenv does not reach the C library) makes oneDNN print every
// primitive creation and execution with its implementation and time in ms.
package dnnl
