package metaworld

import "math"

// vec3 is a point or a displacement in the world frame.
type vec3 [3]float64

func (a vec3) add(b vec3) vec3 { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3 { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// mul scales each axis by its own factor (the sources' distances with weighted axes).
func (a vec3) mul(s vec3) vec3 { return vec3{a[0] * s[0], a[1] * s[1], a[2] * s[2]} }

func (a vec3) norm() float64 { return math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2]) }

// withZ returns a with its height replaced.
func (a vec3) withZ(z float64) vec3 { return vec3{a[0], a[1], z} }

// dist is the Euclidean distance between a and b.
func dist(a, b vec3) float64 { return a.sub(b).norm() }

// distXY is the distance between a and b in the table's plane (x and y only).
func distXY(a, b vec3) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// distScaled is the distance between a and b with each axis weighted by s.
func distScaled(a, b, s vec3) float64 { return a.sub(b).mul(s).norm() }

// xz drops the y coordinate, for the grippers' caging in the x-z plane.
func xz(a vec3) vec3 { return vec3{a[0], 0, a[2]} }

// clamp limits x to [lo, hi].
func clamp(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

// b2f is 1 for true and 0 for false, for info flags and the sources' float(bool) terms.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
