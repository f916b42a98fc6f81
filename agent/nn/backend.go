package nn

import (
	"fmt"

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

// Precision is the arithmetic of the oneDNN backend's convolutions in inference graphs
// (net.precision). Training always computes in float32.
type Precision string

// The precisions.
const (
	// PrecisionFP32 computes in float32 throughout (the default).
	PrecisionFP32 Precision = "fp32"
	// PrecisionBF16 runs inference convolutions on bfloat16 inputs and weights,
	// accumulating in float32; weights stay float32 and are converted as they are
	// reordered. On CPUs with fast bf16 dot products (AMD Zen 4; AMX) the convolutions
	// themselves run up to 1.6x faster, which the conversions may take back; on others
	// it is slower, or refused (docs/design/custom-ops.md).
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
// (inference) and its precision.
type kernelMode struct {
	inference bool
	precision Precision
}

// check refuses a precision the backend or the graph cannot give.
func (m kernelMode) check(b Backend) error {
	p, err := ParsePrecision(string(m.precision))
	if err != nil || p == PrecisionFP32 {
		return err
	}
	if b != BackendOneDNN {
		return fmt.Errorf("nn: precision bf16 runs on the onednn backend only, not %q", b)
	}
	if !m.inference {
		return fmt.Errorf("nn: precision bf16 is for inference graphs only; training computes in float32")
	}
	return nil
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
	return nil, fmt.Errorf("nn: no backend %q: use go or onednn", b)
}

var errFloat32Only = fmt.Errorf("nn: the onednn backend computes in float32; use the go backend for float64")

// newDenseKernels returns the dense kernels of backend b: y = act(x w + b) for x
// (B, In), w (In, Out), b (Out).
func newDenseKernels[T Float](b Backend, batch, in, out int, act Activation, needDX, inference bool) (kernels[T], error) {
	switch b {
	case BackendGo, BackendAuto, "":
		return newDenseKernel[T](batch, in, out, act, needDX), nil
	case BackendOneDNN:
		var zero T
		if _, ok := any(zero).(float32); !ok {
			return nil, errFloat32Only
		}
		k, err := newOneDNNDense(batch, in, out, act, needDX, inference)
		if err != nil {
			return nil, err
		}
		return any(k).(kernels[T]), nil
	}
	return nil, fmt.Errorf("nn: no backend %q: use go or onednn", b)
}

// ResolveBackend turns a config's net.backend ("auto", "go", "onednn"; "" means auto)
// into the backend to use and one line that says which and why, for the start of a
// run.
func ResolveBackend(name string) (Backend, string, error) {
	switch Backend(name) {
	case BackendGo:
		return BackendGo, "network backend: go (the pure-Go fused ops; net.backend = go)", nil
	case BackendOneDNN:
		if err := dnnl.Load(); err != nil {
			return "", "", fmt.Errorf("net.backend = onednn: %w (or set net.backend = auto or go)", err)
		}
		return BackendOneDNN, fmt.Sprintf("network backend: onednn (oneDNN %s, %s; net.backend = onednn)", dnnl.Version(), dnnl.LibName), nil
	case BackendAuto, "":
		if err := dnnl.Load(); err != nil {
			return BackendGo, fmt.Sprintf("network backend: go (the pure-Go fused ops), because oneDNN is not available: %v", err), nil
		}
		return BackendOneDNN, fmt.Sprintf("network backend: onednn (oneDNN %s, %s loaded; net.backend = auto)", dnnl.Version(), dnnl.LibName), nil
	}
	return "", "", fmt.Errorf("net.backend = %q: use auto, onednn or go", name)
}
