package dmc

// Vector and frame arithmetic on MuJoCo's row-major arrays, summed in numpy's order
// so that the tasks' observations and rewards match the suite's to the last bit where
// the operations allow it.

import "math"

// vec3 returns row i of an array of 3-vectors (xpos, site_xpos, geom_xpos, body_pos,
// ...), a view into the array.
func vec3(a []float64, i int) []float64 { return a[3*i : 3*i+3] }

// mat3 returns row i of an array of row-major 3x3 matrices (xmat, site_xmat,
// geom_xmat), a view into the array. Entry 3r+c is the world r component of the
// frame's c axis.
func mat3(a []float64, i int) []float64 { return a[9*i : 9*i+9] }

// Entries of an xmat row the suite reads by name ('xz' and 'zz'): the world x and z
// components of the body's z axis. For a body rotated by angle a about the world y
// axis they are sin(a) and cos(a).
const (
	xmatXZ = 2
	xmatZZ = 8
)

// bodyZAxisX returns xmat[body, 'xz'], the world x component of the body's z axis,
// which the pole-like domains observe as the sine of a pole's angle.
func bodyZAxisX(p *Physics, body int) float64 { return mat3(p.Xmat, body)[xmatXZ] }

// bodyZAxisZ returns xmat[body, 'zz'], the world z component of the body's z axis:
// the cosine of its tilt from upright, which many domains observe and reward.
func bodyZAxisZ(p *Physics, body int) float64 { return mat3(p.Xmat, body)[xmatZZ] }

// vecInFrame returns the world vector v expressed in the frame whose orientation
// matrix is mat (a mat3 row): v.dot(mat) in the suite's numpy terms, that is mat^T v.
// The suite observes targets and limbs this way, relative to a body's own axes.
func vecInFrame(v [3]float64, mat []float64) [3]float64 {
	var out [3]float64
	for j := range 3 {
		out[j] = v[0]*mat[j] + v[1]*mat[3+j] + v[2]*mat[6+j]
	}
	return out
}

// vecSub3 returns a - b for two 3-vectors (vec3 rows), the vector from b to a.
func vecSub3(a, b []float64) [3]float64 {
	return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]}
}

// sumSquares returns the sum of the squares of the values of all the slices, in
// order: the squared norm the suite's costs and distances start from.
func sumSquares(vs ...[]float64) float64 {
	s := 0.0
	for _, v := range vs {
		for _, x := range v {
			s += x * x
		}
	}
	return s
}

// norm returns the Euclidean norm of v, summed as numpy's linalg.norm sums it.
func norm(v ...float64) float64 { return math.Sqrt(sumSquares(v)) }

// distance returns the Euclidean distance between two 3D points (vec3 rows), the
// suite's linalg.norm of their difference.
func distance(a, b []float64) float64 {
	d := vecSub3(a, b)
	return norm(d[:]...)
}

// siteDistance is the distance between two sites' current positions.
func siteDistance(p *Physics, s1, s2 int) float64 {
	return distance(vec3(p.SiteXpos, s1), vec3(p.SiteXpos, s2))
}
