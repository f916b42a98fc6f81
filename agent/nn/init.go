package nn

import (
	"math/rand/v2"

	lapack "gonum.org/v1/gonum/lapack/gonum"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Orthogonal returns a rows x cols row-major matrix with orthonormal rows (rows <= cols)
// or orthonormal columns (rows > cols), times gain: the initialiser of Saxe et al. that
// PyTorch's nn.init.orthogonal_ implements and CleanRL's PPO uses (gain sqrt(2) for
// hidden layers). It takes the Q factor of the QR decomposition of a Gaussian matrix,
// with signs fixed by R's diagonal so that the result is uniformly distributed.
func Orthogonal(rows, cols int, gain float64, rng *rand.Rand) []float64 {
	// Work with a tall n x m matrix (n >= m) and transpose back when rows < cols.
	n, m := rows, cols
	if rows < cols {
		n, m = cols, rows
	}
	// Draw the m vectors of length n one after the other (column by column of a), so
	// that the result is what Gram-Schmidt on the same draws gives.
	a := make([]float64, n*m)
	for j := 0; j < m; j++ {
		for i := 0; i < n; i++ {
			a[i*m+j] = rng.NormFloat64()
		}
	}
	// Thin QR with LAPACK's geqrf/orgqr: forming only the n x m Q matters for a
	// 3136 x 512 dense layer (the full Q would be 3136 x 3136).
	var impl lapack.Implementation
	tau := make([]float64, m)
	work := make([]float64, 1)
	impl.Dgeqrf(n, m, a, m, tau, work, -1)
	impl.Dorgqr(n, m, m, a, m, tau, work[:1], -1)
	work = make([]float64, max(int(work[0]), m, 1))
	impl.Dgeqrf(n, m, a, m, tau, work, len(work))
	signs := make([]float64, m)
	for j := range signs {
		signs[j] = 1
		if a[j*m+j] < 0 {
			signs[j] = -1
		}
	}
	work2 := make([]float64, 1)
	impl.Dorgqr(n, m, m, a, m, tau, work2, -1)
	work = make([]float64, max(int(work2[0]), len(work)))
	impl.Dorgqr(n, m, m, a, m, tau, work, len(work))
	out := make([]float64, rows*cols)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			v := gain * signs[j] * a[i*m+j]
			if rows >= cols {
				out[i*cols+j] = v
			} else {
				out[j*cols+i] = v
			}
		}
	}
	return out
}

// OrthogonalInit returns a Gorgonia initialiser filling a tensor with Orthogonal values:
// the first dimension is the rows (output channels of a (Cout, Cin, K, K) convolution
// kernel, as in PyTorch), the product of the others the columns. Gorgonia stores a
// dense layer's weights (In, Out), the transpose of PyTorch's; an orthogonal matrix's
// transpose is orthogonal too, so the distribution is the same.
func OrthogonalInit(gain float64, rng *rand.Rand) G.InitWFn {
	return func(dt tensor.Dtype, s ...int) interface{} {
		rows, cols := 1, 1
		if len(s) > 0 {
			rows = s[0]
		}
		for _, d := range s[1:] {
			cols *= d
		}
		v := Orthogonal(rows, cols, gain, rng)
		switch dt {
		case tensor.Float32:
			f := make([]float32, len(v))
			for i, x := range v {
				f[i] = float32(x)
			}
			return f
		case tensor.Float64:
			return v
		}
		panic("nn: OrthogonalInit supports float32 and float64, not " + dt.String())
	}
}
