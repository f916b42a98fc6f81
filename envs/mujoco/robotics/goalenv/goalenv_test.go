package goalenv

import (
	"math"
	"testing"
)

func nearQuat(a, b Quat, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// TestQuaternions: hand-computed products, angle-axis rotations and angles between
// rotations.
func TestQuaternions(t *testing.T) {
	s := math.Sqrt(0.5)
	zq := QuatFromAngleAxis(math.Pi/2, [3]float64{0, 0, 2}) // a quarter turn about z; the axis need not be unit
	if !nearQuat(zq, Quat{s, 0, 0, s}, 1e-15) {
		t.Errorf("quarter turn about z: %v", zq)
	}
	if q := QuatFromAngleAxis(1, [3]float64{}); q != (Quat{1, 0, 0, 0}) {
		t.Errorf("zero axis: %v", q)
	}
	// Two quarter turns about z are a half turn; i j = k.
	if q := QuatMul(zq, zq); !nearQuat(q, Quat{0, 0, 0, 1}, 1e-15) {
		t.Errorf("half turn: %v", q)
	}
	if q := QuatMul(Quat{0, 1, 0, 0}, Quat{0, 0, 1, 0}); q != (Quat{0, 0, 0, 1}) {
		t.Errorf("i j = %v", q)
	}
	// The quarter turn's matrix takes x to y.
	m := QuatToMat(zq)
	if math.Abs(m[3]-1) > 1e-15 || math.Abs(m[0]) > 1e-15 {
		t.Errorf("matrix %v", m)
	}
	if a := RotationAngle(zq, Quat{1, 0, 0, 0}); math.Abs(a-math.Pi/2) > 1e-12 {
		t.Errorf("angle %v, want pi/2", a)
	}
	if n := Normalize(Quat{2, 0, 0, 0}); n != (Quat{1, 0, 0, 0}) {
		t.Errorf("normalised %v", n)
	}
}

// TestEuler: Euler angles (static x, y, z) of hand-made rotations and round trips.
func TestEuler(t *testing.T) {
	e := QuatToEuler(QuatFromAngleAxis(0.3, [3]float64{1, 0, 0}))
	if math.Abs(e[0]-0.3) > 1e-12 || math.Abs(e[1]) > 1e-12 || math.Abs(e[2]) > 1e-12 {
		t.Errorf("x turn: %v", e)
	}
	e = QuatToEuler(QuatFromAngleAxis(-0.7, [3]float64{0, 0, 1}))
	if math.Abs(e[2]+0.7) > 1e-12 {
		t.Errorf("z turn: %v", e)
	}
	for _, want := range [][3]float64{{0.1, -0.2, 0.3}, {-1, 0.5, 2.5}, {3, -1.2, -3}} {
		got := QuatToEuler(EulerToQuat(want))
		m1, m2 := EulerToMat(want), QuatToMat(EulerToQuat(want))
		for i := range 3 {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("round trip of %v: %v", want, got)
			}
		}
		for i := range m1 {
			if math.Abs(m1[i]-m2[i]) > 1e-12 {
				t.Errorf("%v: matrix %v, via the quaternion %v", want, m1, m2)
			}
		}
	}
}

// TestParallelQuats: 24 distinct rotations, each mapping every axis onto an axis.
func TestParallelQuats(t *testing.T) {
	qs := ParallelQuats()
	if len(qs) != 24 {
		t.Fatalf("%d rotations", len(qs))
	}
	for i, q := range qs {
		for _, v := range QuatToMat(q) {
			if a := math.Abs(v); a > 1e-12 && math.Abs(a-1) > 1e-12 {
				t.Fatalf("rotation %d: matrix %v", i, QuatToMat(q))
			}
		}
		for _, p := range qs[:i] {
			if RotationAngle(q, p) < 1e-6 || RotationAngle(q, p) > 2*math.Pi-1e-6 {
				t.Fatalf("rotations %v and %v are the same", q, p)
			}
		}
	}
}

// TestDistanceRule: sparse and dense rewards and success around the threshold.
func TestDistanceRule(t *testing.T) {
	a := []float64{1, 2, 3}
	near, far := []float64{1, 2, 3.04}, []float64{1, 2.06, 3}
	sparse, dense := DistanceRule{Threshold: 0.05}, DistanceRule{Threshold: 0.05, Dense: true}
	if sparse.Reward(a, near) != 0 || sparse.Reward(a, far) != -1 || !sparse.Success(a, near) || sparse.Success(a, far) {
		t.Errorf("sparse: %v %v", sparse.Reward(a, near), sparse.Reward(a, far))
	}
	if math.Abs(dense.Reward(a, far)+0.06) > 1e-12 || math.Abs(dense.Distance(a, near)-0.04) > 1e-12 {
		t.Errorf("dense: %v, distance %v", dense.Reward(a, far), dense.Distance(a, near))
	}
}

// TestEulerQuat: EulerToQuat and QuatToEuler invert each other and agree with the
// rotation about x alone.
func TestEulerQuat(t *testing.T) {
	q := EulerToQuat([3]float64{0.5, 0, 0})
	if math.Abs(q[0]-math.Cos(0.25)) > 1e-12 || math.Abs(q[1]-math.Sin(0.25)) > 1e-12 || q[2] != 0 || q[3] != 0 {
		t.Errorf("rotation by 0.5 about x: %v", q)
	}
	for _, e := range [][3]float64{{0.3, -0.7, 0}, {-1, 1, 0.2}, {0.1, 0.2, 0.3}} {
		back := QuatToEuler(EulerToQuat(e))
		for k := range 3 {
			if math.Abs(back[k]-e[k]) > 1e-9 {
				t.Errorf("euler %v -> %v", e, back)
			}
		}
	}
}
