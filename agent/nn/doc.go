// Package nn holds the neural-network building blocks rlpool's learners share, chiefly a
// Nature CNN that trains near BLAS speed in Gorgonia.
//
// Stock Gorgonia spends most of a CNN training step on im2col copies, transposes and
// re-allocating every intermediate tensor each step. The custom ops here (Conv, Dense)
// fuse convolution or matrix product, bias and ReLU into one op whose backward op
// computes all gradients at once; they split the batch into chunks over GOMAXPROCS
// goroutines, run one single-threaded OpenBLAS sgemm per chunk (agent/blas), and
// write into buffers they own and reuse, so a training step allocates almost nothing.
// The first layer reads uint8 pixels directly, folds the 1/255 scale into its GEMMs and
// skips the gradient of its input. docs/design/custom-ops.md records the measurements
// behind this design.
//
// Call blas.Use() before running graphs so that the GEMMs use OpenBLAS.
package nn
