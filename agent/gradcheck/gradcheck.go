// Package gradcheck computes central finite differences: the reference that the
// learners' tests (nn, dnnl, ppo, impala) check their analytic gradients against. It
// holds only that one computation, so that every test perturbs, evaluates and
// restores a value the same way.
package gradcheck

// Central returns the central difference (f(x+h) - f(x-h)) / 2h of f with respect to
// x[i], where f reads x: x[i] is moved by +h and -h (in x's own precision) and then
// restored to its value.
func Central[E float32 | float64](x []E, i int, h float64, f func() float64) float64 {
	old := x[i]
	x[i] = old + E(h)
	up := f()
	x[i] = old - E(h)
	down := f()
	x[i] = old
	return (up - down) / (2 * h)
}
