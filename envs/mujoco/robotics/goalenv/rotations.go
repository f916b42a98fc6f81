package goalenv

import (
	"math"
	"sync"
)

// Rotations as Gymnasium-Robotics' rotations module works with them: quaternions are
// (w, x, y, z); Euler angles are its static-x-then-y-then-z convention (the
// "rxyz" axes of its mat2euler and euler2quat), which is also how the Fetch tasks
// observe the object's rotation.

// Quat is a quaternion (w, x, y, z).
type Quat = [4]float64

// QuatMul returns the Hamilton product a b.
func QuatMul(a, b Quat) Quat {
	return Quat{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] + a[2]*b[0] + a[3]*b[1] - a[1]*b[3],
		a[0]*b[3] + a[3]*b[0] + a[1]*b[2] - a[2]*b[1],
	}
}

// QuatConj returns the conjugate of q (its inverse when q is a unit quaternion).
func QuatConj(q Quat) Quat { return Quat{q[0], -q[1], -q[2], -q[3]} }

// QuatFromAngleAxis returns the rotation by angle (radians) about axis, which need not
// be a unit vector; a zero axis gives the identity.
func QuatFromAngleAxis(angle float64, axis [3]float64) Quat {
	n := math.Sqrt(axis[0]*axis[0] + axis[1]*axis[1] + axis[2]*axis[2])
	if n == 0 {
		return Quat{1, 0, 0, 0}
	}
	s := math.Sin(angle/2) / n
	return Quat{math.Cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s}
}

// Normalize returns q scaled to unit length (the identity for a zero q).
func Normalize(q Quat) Quat {
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if n == 0 {
		return Quat{1, 0, 0, 0}
	}
	return Quat{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
}

// QuatToMat returns q's rotation matrix, row-major; a (near) zero q gives the identity.
func QuatToMat(q Quat) [9]float64 {
	w, x, y, z := q[0], q[1], q[2], q[3]
	nq := w*w + x*x + y*y + z*z
	if nq < 1e-15 {
		return [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	s := 2 / nq
	X, Y, Z := x*s, y*s, z*s
	wX, wY, wZ := w*X, w*Y, w*Z
	xX, xY, xZ := x*X, x*Y, x*Z
	yY, yZ, zZ := y*Y, y*Z, z*Z
	return [9]float64{
		1 - (yY + zZ), xY - wZ, xZ + wY,
		xY + wZ, 1 - (xX + zZ), yZ - wX,
		xZ - wY, yZ + wX, 1 - (xX + yY),
	}
}

// MatToEuler returns the Euler angles (x, y, z) of a rotation matrix (row-major).
func MatToEuler(m [9]float64) [3]float64 {
	cy := math.Hypot(m[8], m[5])
	if cy > 4*2.220446049250313e-16 {
		return [3]float64{-math.Atan2(m[5], m[8]), -math.Atan2(-m[2], cy), -math.Atan2(m[1], m[0])}
	}
	return [3]float64{0, -math.Atan2(-m[2], cy), -math.Atan2(-m[3], m[4])}
}

// QuatToEuler returns q's Euler angles.
func QuatToEuler(q Quat) [3]float64 { return MatToEuler(QuatToMat(q)) }

// EulerToQuat returns the quaternion of Euler angles (x, y, z).
func EulerToQuat(e [3]float64) Quat {
	ai, aj, ak := e[2]/2, -e[1]/2, e[0]/2
	si, sj, sk := math.Sin(ai), math.Sin(aj), math.Sin(ak)
	ci, cj, ck := math.Cos(ai), math.Cos(aj), math.Cos(ak)
	cc, cs, sc, ss := ci*ck, ci*sk, si*ck, si*sk
	return Quat{cj*cc + sj*ss, cj*cs - sj*sc, -(cj*ss + sj*cc), cj*sc - sj*cs}
}

// EulerToMat returns the rotation matrix of Euler angles (x, y, z), row-major.
func EulerToMat(e [3]float64) [9]float64 {
	ai, aj, ak := -e[2], -e[1], -e[0]
	si, sj, sk := math.Sin(ai), math.Sin(aj), math.Sin(ak)
	ci, cj, ck := math.Cos(ai), math.Cos(aj), math.Cos(ak)
	cc, cs, sc, ss := ci*ck, ci*sk, si*ck, si*sk
	return [9]float64{
		cj * ci, cj * si, -sj,
		sj*cs - sc, sj*ss + cc, cj * sk,
		sj*cc + ss, sj*sc - cs, cj * ck,
	}
}

// RotationAngle returns the angle of the rotation between a and b (unit quaternions):
// 2 acos of the first value of a conj(b), as the hand tasks measure how far the
// object's orientation is from the goal's.
func RotationAngle(a, b Quat) float64 {
	d := QuatMul(a, QuatConj(b))
	return 2 * math.Acos(max(-1, min(1, d[0])))
}

var parallel struct {
	once  sync.Once
	quats []Quat
}

// ParallelQuats returns the 24 rotations that map the axes onto the axes (the cube's
// symmetries) as quaternions of Gymnasium-Robotics' get_parallel_rotations (its
// canonical Euler angles, converted by euler2quat, signs as that gives them), from
// which the hand's "parallel" goals draw.
func ParallelQuats() []Quat {
	parallel.once.Do(func() {
		mult90 := []float64{0, math.Pi / 2, -math.Pi / 2, math.Pi}
		var eulers [][3]float64
		for _, x := range mult90 {
			for _, y := range mult90 {
				for _, z := range mult90 {
					e := MatToEuler(EulerToMat([3]float64{x, y, z}))
					for i := range e {
						r := math.Round(e[i] / (math.Pi / 2))
						if (i == 0 || i == 2) && r == -2 {
							r = 2
						}
						e[i] = r * math.Pi / 2
					}
					seen := false
					for _, o := range eulers {
						seen = seen || o == e
					}
					if !seen {
						eulers = append(eulers, e)
					}
				}
			}
		}
		for _, e := range eulers {
			parallel.quats = append(parallel.quats, EulerToQuat(e))
		}
	})
	return parallel.quats
}
