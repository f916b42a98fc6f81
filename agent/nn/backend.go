package nn

import "fmt"

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
)

// newConvKernels returns the convolution kernels of backend b: y = act(conv(scale*x, w)
// + b) with x []T or []uint8 in NCHW order, w (Cout, Cin, K, K), y (B, Cout, OH, OW).
func newConvKernels[T Float](b Backend, g convGeom, relu bool, scale T, needDX bool) (kernels[T], error) {
	switch b {
	case BackendGo, BackendAuto, "":
		return newConvKernel(g, relu, scale, needDX), nil
	}
	return nil, fmt.Errorf("nn: no backend %q: use go or onednn", b)
}

// newDenseKernels returns the dense kernels of backend b: y = act(x w + b) for x
// (B, In), w (In, Out), b (Out).
func newDenseKernels[T Float](b Backend, batch, in, out int, act Activation, needDX bool) (kernels[T], error) {
	switch b {
	case BackendGo, BackendAuto, "":
		return newDenseKernel[T](batch, in, out, act, needDX), nil
	}
	return nil, fmt.Errorf("nn: no backend %q: use go or onednn", b)
}

// ResolveBackend turns a config's net.backend ("auto", "go", "onednn"; "" means auto)
// into the backend to use and one line that says which and why, for the start of a
// run.
func ResolveBackend(name string) (Backend, string, error) {
	switch Backend(name) {
	case BackendAuto, "", BackendGo:
		return BackendGo, "network backend: go (the pure-Go fused ops)", nil
	}
	return "", "", fmt.Errorf("backend %q: use auto, onednn or go", name)
}
