package nn

import (
	"fmt"
	"strings"

	G "gorgonia.org/gorgonia"

	"github.com/rlpool/rlpool/agent/dnnl"
)

// Backend names the implementation of the layers' forward and backward kernels, as
// spelt in configs (net.backend). The graph ops (Conv, Dense) are the same for every
// backend: only the kernels they call differ, and they are chosen in this file alone,
// so that a backend is one file per layer kind.
type Backend string

// The backends.
const (
	// BackendAuto is resolved by ResolveBackend: oneDNN when its library loads, the Go
	// kernels otherwise.
	BackendAuto Backend = "auto"
	// BackendGo is the pure-Go kernels (im2col and single-threaded OpenBLAS or gonum
	// GEMMs spread over goroutines): always available, float32 and float64.
	BackendGo Backend = "go"
	// BackendOneDNN is Intel's oneDNN (Debian's libdnnl2, loaded by agent/dnnl): its
	// JIT kernels, in float32, with layouts of its own choosing between the
	// convolutions.
	BackendOneDNN Backend = "onednn"
)

// backends lists every backend a config may name, auto first: the one list of their
// names (a new backend adds its constant here and its cases to the kernel switches
// below).
var backends = []Backend{BackendAuto, BackendOneDNN, BackendGo}

// kernelBackends are the backends that have kernels (auto resolves to one of them).
var kernelBackends = backends[1:]

// ParseBackend checks a config's net.backend ("" means auto) against the backends
// this build has, without loading any library.
func ParseBackend(name string) (Backend, error) {
	if name == "" {
		return BackendAuto, nil
	}
	for _, b := range backends {
		if Backend(name) == b {
			return b, nil
		}
	}
	return "", fmt.Errorf("net.backend = %q: use %s", name, names(backends))
}

// names lists backends for an error message: "a, b or c".
func names(bs []Backend) string {
	s := make([]string, len(bs))
	for i, b := range bs {
		s[i] = string(b)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// Precision is the arithmetic of the oneDNN backend's fused layers (net.precision).
// The weights, the master copy the optimiser updates, are float32 in every precision.
type Precision string

// The precisions.
const (
	// PrecisionFP32 computes in float32 throughout (the default).
	PrecisionFP32 Precision = "fp32"
	// PrecisionBF16 runs the convolutions and dense layers, forward and backward, on
	// bfloat16 operands (inputs, weights, output gradients), accumulating in float32;
	// activations, gradients and the weights themselves stay float32, the operands
	// being converted as they are reordered into oneDNN's layouts. With Intel's AMX
	// the convolutions run about 5x faster than in float32; with AVX-512 bf16 dot
	// products alone (AMD Zen 4) about 1.6x; elsewhere it is refused
	// (docs/design/custom-ops.md).
	PrecisionBF16 Precision = "bf16"
)

// ParsePrecision checks a config's net.precision ("" means fp32).
func ParsePrecision(s string) (Precision, error) {
	switch Precision(s) {
	case "", PrecisionFP32:
		return PrecisionFP32, nil
	case PrecisionBF16:
		return PrecisionBF16, nil
	}
	return "", fmt.Errorf("net.precision = %q: use fp32 or bf16", s)
}

// kernelMode is what a layer's kernels are for: a graph never differentiated
// (inference), its precision, and the OpenMP team size of its oneDNN primitives (0:
// one thread per core).
type kernelMode struct {
	inference bool
	precision Precision
	threads   int
}

// check refuses a precision the backend or the graph cannot give.
func (m kernelMode) check(b Backend) error {
	p, err := ParsePrecision(string(m.precision))
	if err != nil {
		return err
	}
	return CheckPrecision(b, p)
}

// CheckPrecision reports whether backend b computes in precision p: every backend
// computes in fp32, only onednn in bf16. The error says what to do.
func CheckPrecision(b Backend, p Precision) error {
	if p == PrecisionFP32 || p == "" || b == BackendOneDNN {
		return nil
	}
	return fmt.Errorf("net.precision = %s runs on the onednn backend, and this run's is %s (install libdnnl2 with make deps, or use fp32)", p, b)
}

// newConvKernels returns the convolution kernels of backend b: y = act(conv(scale*x, w)
// + b) with x []T or []uint8 in NCHW order, w (Cout, Cin, K, K), y (B, Cout, OH, OW).
func newConvKernels[T Float](b Backend, g convGeom, relu bool, scale T, needDX, uint8In bool, link convLink, mode kernelMode) (kernels[T], error) {
	if err := mode.check(b); err != nil {
		return nil, err
	}
	switch b {
	case BackendGo, BackendAuto, "":
		return newConvKernel(g, relu, scale, needDX), nil
	case BackendOneDNN:
		if _, ok := any(scale).(float32); !ok {
			return nil, errFloat32Only
		}
		k, err := newOneDNNConv(g, relu, float32(scale), needDX, uint8In, link, mode)
		if err != nil {
			return nil, err
		}
		return any(k).(kernels[T]), nil
	}
	return nil, fmt.Errorf("nn: no backend %q: use %s", b, names(kernelBackends))
}

var errFloat32Only = fmt.Errorf("nn: the onednn backend computes in float32; use the go backend for float64")

// newDenseKernels returns the dense kernels of backend b: y = act(x w + b) for x
// (B, In), w (In, Out), b (Out). inLayout, when not nil, is x's oneDNN layout (onednn
// only).
func newDenseKernels[T Float](b Backend, batch, in, out int, act Activation, needDX bool, mode kernelMode, inLayout *dnnl.Layout) (kernels[T], error) {
	if err := mode.check(b); err != nil {
		return nil, err
	}
	if inLayout != nil && b != BackendOneDNN {
		return nil, fmt.Errorf("nn: a dense input in oneDNN's layout needs the onednn backend, not %q", b)
	}
	switch b {
	case BackendGo, BackendAuto, "":
		return newDenseKernel[T](batch, in, out, act, needDX), nil
	case BackendOneDNN:
		var zero T
		if _, ok := any(zero).(float32); !ok {
			return nil, errFloat32Only
		}
		k, err := newOneDNNDense(batch, in, out, act, needDX, mode, inLayout)
		if err != nil {
			return nil, err
		}
		return any(k).(kernels[T]), nil
	}
	return nil, fmt.Errorf("nn: no backend %q: use %s", b, names(kernelBackends))
}

// ResolveBackend turns a config's net.backend ("auto", "go", "onednn"; "" means auto)
// into the backend to use and one line that says which and why, for the start of a
// run.
func ResolveBackend(name string) (Backend, string, error) {
	b, err := ParseBackend(name)
	if err != nil {
		return "", "", err
	}
	switch b {
	case BackendGo:
		return BackendGo, "network backend: go (the pure-Go fused ops; net.backend = go)", nil
	case BackendOneDNN:
		if err := dnnl.Load(); err != nil {
			return "", "", fmt.Errorf("net.backend = onednn: %w (or set net.backend = auto or go)", err)
		}
		return BackendOneDNN, fmt.Sprintf("network backend: onednn (oneDNN %s, %s; net.backend = onednn)", dnnl.Version(), dnnl.LibName), nil
	case BackendAuto:
		if err := dnnl.Load(); err != nil {
			return BackendGo, fmt.Sprintf("network backend: go (the pure-Go fused ops), because oneDNN is not available: %v", err), nil
		}
		return BackendOneDNN, fmt.Sprintf("network backend: onednn (oneDNN %s, %s loaded; net.backend = auto)", dnnl.Version(), dnnl.LibName), nil
	}
	return "", "", fmt.Errorf("nn: backend %q has no resolution (a bug in ResolveBackend)", b)
}

// weightFixer is a kernel that can hold a converted copy of its weights (the oneDNN
// kernels; see WeightsFixed).
type weightFixer interface{ fixWeights() }

func (k *oneDNNConv) fixWeights()  { k.c.FixWeights() }
func (k *oneDNNDense) fixWeights() { k.d.FixWeights() }

// WeightsFixed declares that the weights of inference graph g's fused layers keep
// their values until the next call: each oneDNN layer then converts its weights into
// its own layout and precision on its next run only, and reuses that copy, instead of
// converting them on every run (6.4 MB read per run for the Nature CNN's dense layer
// in bf16). Call it before a phase of runs with unchanging weights and again after
// every change to them (an optimiser step, a copy, a checkpoint load): PPO calls it
// at the start of each rollout, an IMPALA actor whenever it takes new weights. A
// graph never passed to it converts on every run, which is always correct. Layers of
// training graphs and Go kernels are unaffected (they are skipped).
func WeightsFixed(g *G.ExprGraph) {
	for _, n := range g.AllNodes() {
		op, ok := n.Op().(forwardOp)
		if !ok || !op.l.infer {
			continue
		}
		if k, ok := op.l.k32.(weightFixer); ok {
			k.fixWeights()
		}
	}
}
