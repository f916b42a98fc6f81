package blas

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"
)

// naive computes C = alpha*op(A)*op(B) + beta*C row-major with a triple loop in float64.
func naive(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) []float32 {
	out := append([]float32(nil), c...)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				ia, ib := i*lda+p, p*ldb+j
				if tA {
					ia = p*lda + i
				}
				if tB {
					ib = j*ldb + p
				}
				av, bv := a[ia], b[ib]
				s += float64(av) * float64(bv)
			}
			out[i*ldc+j] = float32(float64(alpha)*s + float64(beta)*float64(c[i*ldc+j]))
		}
	}
	return out
}

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

type gemmCase struct {
	name        string
	tA, tB      bool
	m, n, k     int
	pad         int // extra elements on each leading dimension
	alpha, beta float32
}

var gemmCases = []gemmCase{
	{"NN small", false, false, 3, 4, 5, 0, 1, 0},
	{"NN square", false, false, 64, 64, 64, 0, 1, 0},
	{"TN", true, false, 37, 29, 41, 0, 1.5, 0},
	{"NT", false, true, 50, 70, 33, 0, 1, 0.5},
	{"TT padded", true, true, 45, 21, 67, 3, -0.7, 1},
	{"NN padded beta", false, false, 100, 90, 80, 5, 1, 2},
	{"thin conv-like", false, true, 400, 32, 256, 0, 1, 0},
	{"wide split by columns", true, false, 20, 600, 90, 2, 1, 1},
	{"tall split by rows", false, false, 700, 40, 60, 1, 2, 0.25},
	{"k zero", false, false, 5, 6, 0, 0, 1, 0.5},
	{"alpha zero", false, false, 30, 30, 30, 0, 0, 3},
}

// operands builds random row-major operands for c with padded leading dimensions.
func operands(r *rand.Rand, c gemmCase) (a []float32, lda int, b []float32, ldb int, cc []float32, ldc int) {
	rowsA, colsA := c.m, c.k
	if c.tA {
		rowsA, colsA = c.k, c.m
	}
	rowsB, colsB := c.k, c.n
	if c.tB {
		rowsB, colsB = c.n, c.k
	}
	lda, ldb, ldc = max(1, colsA+c.pad), max(1, colsB+c.pad), c.n+c.pad
	a = randSlice(r, max(1, rowsA*lda))
	b = randSlice(r, max(1, rowsB*ldb))
	cc = randSlice(r, c.m*ldc)
	return
}

func closeTo(t *testing.T, got, want []float32, k int) {
	t.Helper()
	tol := 1e-5 * float64(k+1) * 4
	for i := range want {
		d := math.Abs(float64(got[i] - want[i]))
		if d > tol*(1+math.Abs(float64(want[i]))) {
			t.Fatalf("element %d: got %v want %v (diff %g)", i, got[i], want[i], d)
		}
	}
}

func needOpenBLAS(t testing.TB) *Impl {
	t.Helper()
	im, err := Load()
	if err != nil {
		t.Skipf("OpenBLAS not available: %v", err)
	}
	return im
}

func TestSgemmHelperMatchesNaive(t *testing.T) {
	needOpenBLAS(t)
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range gemmCases {
		t.Run(c.name, func(t *testing.T) {
			a, lda, b, ldb, cc, ldc := operands(r, c)
			want := naive(c.tA, c.tB, c.m, c.n, c.k, c.alpha, a, lda, b, ldb, c.beta, cc, ldc)
			Sgemm(c.tA, c.tB, c.m, c.n, c.k, c.alpha, a, lda, b, ldb, c.beta, cc, ldc)
			closeTo(t, cc, want, c.k)
		})
	}
}

func TestImplSgemmMatchesNaive(t *testing.T) {
	im := needOpenBLAS(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, workers := range []int{1, 2, 3} {
		im.SetParallel(workers)
		for _, c := range gemmCases {
			t.Run(c.name, func(t *testing.T) {
				a, lda, b, ldb, cc, ldc := operands(r, c)
				want := naive(c.tA, c.tB, c.m, c.n, c.k, c.alpha, a, lda, b, ldb, c.beta, cc, ldc)
				im.Sgemm(tr(c.tA), tr(c.tB), c.m, c.n, c.k, c.alpha, a, lda, b, ldb, c.beta, cc, ldc)
				closeTo(t, cc, want, c.k)
			})
		}
	}
	im.SetParallel(0)
}

func TestDgemmMatchesGonum(t *testing.T) {
	im := needOpenBLAS(t)
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range gemmCases {
		t.Run(c.name, func(t *testing.T) {
			a32, lda, b32, ldb, c32, ldc := operands(r, c)
			a, b, cc := to64(a32), to64(b32), to64(c32)
			want := append([]float64(nil), cc...)
			gonum.Implementation{}.Dgemm(tr(c.tA), tr(c.tB), c.m, c.n, c.k, float64(c.alpha), a, lda, b, ldb, float64(c.beta), want, ldc)
			im.Dgemm(tr(c.tA), tr(c.tB), c.m, c.n, c.k, float64(c.alpha), a, lda, b, ldb, float64(c.beta), cc, ldc)
			for i := range want {
				if math.Abs(cc[i]-want[i]) > 1e-10*(1+math.Abs(want[i]))*float64(c.k+1) {
					t.Fatalf("element %d: got %v want %v", i, cc[i], want[i])
				}
			}
		})
	}
}

func to64(s []float32) []float64 {
	o := make([]float64, len(s))
	for i, v := range s {
		o[i] = float64(v)
	}
	return o
}

func TestSgemvMatchesGonum(t *testing.T) {
	im := needOpenBLAS(t)
	r := rand.New(rand.NewPCG(7, 8))
	cases := []struct {
		name       string
		t          gblas.Transpose
		m, n, pad  int
		incX, incY int
	}{
		{"N", gblas.NoTrans, 100, 80, 0, 1, 1},
		{"T", gblas.Trans, 100, 80, 3, 1, 1},
		{"N strided", gblas.NoTrans, 90, 120, 1, 2, 3},
		{"small", gblas.Trans, 4, 5, 0, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lda := c.n + c.pad
			a := randSlice(r, c.m*lda)
			lx, ly := c.n, c.m
			if c.t == gblas.Trans {
				lx, ly = c.m, c.n
			}
			x := randSlice(r, 1+(lx-1)*c.incX)
			y := randSlice(r, 1+(ly-1)*c.incY)
			want := append([]float32(nil), y...)
			gonum.Implementation{}.Sgemv(c.t, c.m, c.n, 1.5, a, lda, x, c.incX, 0.5, want, c.incY)
			im.Sgemv(c.t, c.m, c.n, 1.5, a, lda, x, c.incX, 0.5, y, c.incY)
			closeTo(t, y, want, max(c.m, c.n))
		})
	}
}

func TestSgemmPanicsOnShortOperands(t *testing.T) {
	needOpenBLAS(t)
	cases := []struct {
		name       string
		la, lb, lc int
		lda        int
	}{
		{"short a", 10, 64 * 64, 64 * 64, 64},
		{"short c", 64 * 64, 64 * 64, 100, 64},
		{"bad lda", 64 * 64, 64 * 64, 64 * 64, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			Sgemm(false, false, 64, 64, 64, 1, make([]float32, c.la), c.lda, make([]float32, c.lb), 64, 0, make([]float32, c.lc), 64)
		})
	}
}

func TestLoadReportsCore(t *testing.T) {
	im := needOpenBLAS(t)
	if im.Config() == "" || im.Core() == "" {
		t.Fatalf("empty config %q or core %q", im.Config(), im.Core())
	}
	t.Logf("OpenBLAS %s, core %s", im.Config(), im.Core())
}

func TestFallbackWarnsOnce(t *testing.T) {
	defer gorgonia.Use(gorgonia.WhichBLAS())
	missing := filepath.Join(t.TempDir(), "libopenblas-missing.so.0")
	var w bytes.Buffer
	u := &user{}
	for i := 0; i < 3; i++ {
		if name := u.use(missing, &w); name != "gonum" {
			t.Fatalf("call %d: got %q, want gonum", i, name)
		}
	}
	if got := w.String(); got != FallbackWarning+"\n" {
		t.Fatalf("warning output %q, want exactly one line %q", got, FallbackWarning)
	}
	if _, ok := gorgonia.WhichBLAS().(gonum.Implementation); !ok {
		t.Fatalf("gorgonia BLAS is %T, want gonum.Implementation", gorgonia.WhichBLAS())
	}
}

// TestFallbackThroughEnv runs this test binary again with $RLPOOL_OPENBLAS naming a
// missing library and checks the public path: Use returns "gonum" on every call and
// stderr holds the warning exactly once.
func TestFallbackThroughEnv(t *testing.T) {
	if os.Getenv("RLPOOL_BLAS_TEST_CHILD") == "1" {
		for i := 0; i < 3; i++ {
			fmt.Println(Use())
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestFallbackThroughEnv$")
	cmd.Env = append(os.Environ(), "RLPOOL_BLAS_TEST_CHILD=1", EnvLib+"="+filepath.Join(t.TempDir(), "missing.so"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if got := strings.Count(stdout.String(), "gonum\n"); got != 3 {
		t.Fatalf("child printed %q, want gonum three times", stdout.String())
	}
	if got := stderr.String(); got != FallbackWarning+"\n" {
		t.Fatalf("child stderr %q, want exactly one warning line", got)
	}
}

func TestUseInstallsOpenBLAS(t *testing.T) {
	im := needOpenBLAS(t)
	if name := Use(); name != "openblas" {
		t.Fatalf("Use() = %q, want openblas", name)
	}
	if Use() != "openblas" || Active() != im {
		t.Fatal("Use is not idempotent")
	}
	if got, ok := gorgonia.WhichBLAS().(*Impl); !ok || got != im {
		t.Fatalf("gorgonia BLAS is %T", gorgonia.WhichBLAS())
	}
	if !strings.Contains(strings.ToLower(im.Config()), "openblas") {
		t.Fatalf("config %q does not name OpenBLAS", im.Config())
	}
}
