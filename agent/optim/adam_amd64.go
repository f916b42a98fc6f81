package optim

import "golang.org/x/sys/cpu"

// hasAVX reports whether adamAVX may run: it needs AVX (and the OS saving the YMM
// registers, which cpu.X86.HasAVX includes).
var hasAVX = cpu.X86.HasAVX

//go:noescape
func adamAVX(w, g, m, v []float32, c *[8]float32)

// adamSpan32 is adamSpan for float32 spans: eight lanes at a time in assembly where the
// CPU has AVX, the same arithmetic in the same order (so the same bits), and the
// remainder in Go. Adam streams four arrays per parameter, once per minibatch: for the
// small CNN's 680k weights the Go loop took 5 ms of CPU per step, a tenth of the step.
func adamSpan32(w, g, m, v []float32, h adamHyper) {
	n := 0
	if hasAVX {
		n = len(w) &^ 7
		if n > 0 {
			c := [8]float32{float32(h.lr), float32(h.b1), 1 - float32(h.b1), float32(h.b2), 1 - float32(h.b2),
				float32(h.eps), float32(h.invSqrtBC2), float32(h.scale)}
			adamAVX(w[:n], g[:n], m[:n], v[:n], &c)
		}
	}
	adamSpan(w[n:], g[n:len(w)], m[n:len(w)], v[n:len(w)], h)
}
