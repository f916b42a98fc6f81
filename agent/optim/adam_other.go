//go:build !amd64

package optim

// hasAVX is false: no assembly here.
const hasAVX = false

// adamSpan32 is adamSpan for float32 spans (adam_amd64.go has a vector version).
func adamSpan32(w, g, m, v []float32, h adamHyper) { adamSpan(w, g, m, v, h) }
