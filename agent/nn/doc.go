// Package nn holds the neural-network layers rlpool's learners share, chiefly a Nature
// CNN that trains near BLAS speed in Gorgonia, and the one seam where a layer's kernels
// are chosen (backend.go).
//
// Stock Gorgonia spends most of a CNN training step on im2col copies, transposes and
// re-allocating every intermediate tensor each step. The custom ops here (Conv, Dense)
// fuse convolution or matrix product, bias and activation into one op whose backward op
// computes all gradients at once, into buffers the layer owns and reuses, so a training
// step allocates almost nothing. What computes them is a backend's kernels:
//
//   - BackendGo: the batch split into chunks over GOMAXPROCS goroutines, one
//     single-threaded OpenBLAS sgemm per chunk (agent/blas); float32 and float64.
//   - BackendOneDNN: Intel's oneDNN through agent/dnnl, float32, with its own layouts
//     between the Nature CNN's convolutions.
//
// The first layer reads uint8 pixels directly, scales them by 1/255 inside the op and
// skips the gradient of its input. ResolveBackend turns a config's net.backend into a
// backend and a line saying why. docs/design/custom-ops.md records the rules the ops
// follow and the measurements behind the design.
//
// Call blas.Use() before running graphs so that the GEMMs use OpenBLAS.
package nn
