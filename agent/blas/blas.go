// Package blas loads OpenBLAS (libopenblas.so.0) at run time with purego, without cgo,
// and hands it to Gorgonia, falling back to gonum's pure-Go BLAS when the library is
// missing.
//
// Why: Gorgonia's matrix products go through gonum's blas.Float32 interface, whose pure-Go
// implementation is several times slower than OpenBLAS; the project builds with
// CGO_ENABLED=0, so the library is opened with dlopen through purego.
//
// Threading: OpenBLAS is put in single-threaded mode (openblas_set_num_threads(1)) and
// work is spread over goroutines in Go instead. Once OpenBLAS has run multi-threaded its
// idle threads busy-wait for about 2^28 cycles and steal the cores from the Go workers
// (docs/design/custom-ops.md). Impl.Sgemm, the entry point Gorgonia's stock ops use, splits
// large products over GOMAXPROCS goroutines; the package-level Sgemm helper, meant for
// custom ops that already run one call per goroutine, is single-threaded.
//
// Library choice: the environment variable RLPOOL_OPENBLAS overrides the library name
// or path (set it to a path that does not exist to force the gonum fallback). On CPUs
// with AVX-512 the package sets OPENBLAS_CORETYPE=SkylakeX before the library is opened
// unless the variable is already set: OpenBLAS 0.3.21 picks its AVX2 (Haswell) kernels
// on AMD Zen 4/5, and the AVX-512 kernels are about twice as fast there.
package blas

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/ebitengine/purego"
	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"

	"github.com/rlpool/rlpool/clib"
)

// LibName is the shared library Load opens by default: the Debian package
// libopenblas0-pthread installs it (through the alternatives system).
const LibName = "libopenblas.so.0"

// EnvLib names the environment variable that, when set, replaces LibName as the library
// Load and Use open. Tests use it to simulate a missing library.
const EnvLib = "RLPOOL_OPENBLAS"

// FallbackWarning is the single line Use prints on stderr when OpenBLAS cannot be loaded.
const FallbackWarning = "rlpool: OpenBLAS (libopenblas.so.0, Debian package libopenblas0-pthread) not found; using gonum's pure-Go BLAS (slower)"

// Impl is gonum's pure-Go BLAS with the hot level-2/3 routines replaced by OpenBLAS.
// It satisfies gorgonia.BLAS (blas.Float32, Float64, Complex64, Complex128), so it can
// be passed to gorgonia.Use. Methods are safe for concurrent use.
type Impl struct {
	gonum.Implementation

	sgemm  uintptr // Fortran sgemm_
	dgemm  uintptr // Fortran dgemm_
	sgemv  uintptr // Fortran sgemv_
	setNT  uintptr // openblas_set_num_threads
	config string  // openblas_get_config
	core   string  // openblas_get_corename

	// parallel is the most goroutines Sgemm/Dgemm split one product over; 0 means
	// GOMAXPROCS at call time.
	parallel atomic.Int64
}

var (
	loadOnce sync.Once
	loaded   *Impl
	loadErr  error
)

// Load opens OpenBLAS (LibName, or the path in $RLPOOL_OPENBLAS), sets it to one thread
// and returns the implementation. The library is opened once per process; later calls
// return the same result.
func Load() (*Impl, error) {
	loadOnce.Do(func() {
		loaded, loadErr = LoadFrom(libPath())
	})
	return loaded, loadErr
}

// openblas is how the package finds OpenBLAS. It is opened with RTLD_GLOBAL, so
// that the symbols serve libraries opened afterwards as well.
var openblas = clib.Library{What: "OpenBLAS", Env: EnvLib, Names: []string{LibName}, Package: "libopenblas0-pthread", Global: true}

// libPath is the library Load opens: $RLPOOL_OPENBLAS or LibName.
func libPath() string { return openblas.Candidates()[0] }

// LoadFrom opens the OpenBLAS library at path (a file name searched by the dynamic
// loader, or a path) and resolves the routines Impl uses. Opening the same library
// twice returns handles to the same library, so calling it more than once is harmless.
func LoadFrom(path string) (*Impl, error) {
	setCoreType()
	lib, err := openblas.OpenPath(path)
	if err != nil {
		return nil, fmt.Errorf("blas: %w", err)
	}
	im := &Impl{}
	if err := lib.Bind([]clib.Symbol{
		{Name: "sgemm_", Addr: &im.sgemm},
		{Name: "dgemm_", Addr: &im.dgemm},
		{Name: "sgemv_", Addr: &im.sgemv},
		{Name: "openblas_set_num_threads", Addr: &im.setNT},
	}); err != nil {
		return nil, fmt.Errorf("blas: %w", err)
	}
	im.config = callString(lib, "openblas_get_config")
	im.core = callString(lib, "openblas_get_corename")
	im.SetThreads(1)
	return im, nil
}

// callString calls a C function of no arguments returning a NUL-terminated string, or
// returns "" when lib lacks the symbol.
func callString(lib *clib.Handle, name string) string {
	p, ok := lib.Lookup(name)
	if !ok {
		return ""
	}
	r, _, _ := purego.SyscallN(p)
	return clib.GoString(r)
}

// setCoreType sets OPENBLAS_CORETYPE=SkylakeX in the C environment (read by OpenBLAS
// when it is opened) on CPUs with the AVX-512 subsets OpenBLAS's SkylakeX kernels use,
// unless the variable is already set.
func setCoreType() {
	if _, ok := os.LookupEnv("OPENBLAS_CORETYPE"); ok {
		return
	}
	if !(cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512CD) {
		return
	}
	clib.SetEnvDefault("OPENBLAS_CORETYPE", "SkylakeX")
}

// SetThreads sets OpenBLAS's own thread count (openblas_set_num_threads). The package
// sets 1 at load, and the design relies on it: see the package comment before raising it.
func (im *Impl) SetThreads(n int) {
	if n < 1 {
		n = 1
	}
	purego.SyscallN(im.setNT, uintptr(n))
}

// SetParallel sets the most goroutines one Sgemm or Dgemm call through Impl is split
// over; n <= 0 means GOMAXPROCS (the default), 1 makes the calls single-threaded.
func (im *Impl) SetParallel(n int) { im.parallel.Store(int64(n)) }

// Config returns OpenBLAS's build description (openblas_get_config), for logs.
func (im *Impl) Config() string { return im.config }

// Core returns the name of the CPU kernels OpenBLAS chose (openblas_get_corename).
func (im *Impl) Core() string { return im.core }

// user installs a BLAS in Gorgonia at most once and remembers what it installed.
type user struct {
	once sync.Once
	name string
	impl *Impl
}

// use installs OpenBLAS from path, or gonum with FallbackWarning written to w, on the
// first call, and returns "openblas" or "gonum" on every call.
func (u *user) use(path string, w io.Writer) string {
	u.once.Do(func() {
		var err error
		if path == libPath() {
			u.impl, err = Load()
		} else {
			u.impl, err = LoadFrom(path)
		}
		if err != nil {
			u.impl = nil
			fmt.Fprintln(w, FallbackWarning)
			gorgonia.Use(gonum.Implementation{})
			u.name = "gonum"
			return
		}
		gorgonia.Use(u.impl)
		// gonum's own matrix and LAPACK code (QR in orthogonal initialisation, for
		// example) then also runs its products on OpenBLAS.
		blas32.Use(u.impl)
		blas64.Use(u.impl)
		u.name = "openblas"
	})
	return u.name
}

var defaultUser user

// Use makes Gorgonia (and gonum's blas32/blas64, which gonum's mat and lapack packages
// use) run on OpenBLAS and returns "openblas", or, when the library cannot
// be loaded, leaves gonum's pure-Go BLAS in place, prints FallbackWarning once on
// stderr and returns "gonum". Only the first call does anything; later calls return
// the first answer. Learners call it before building graphs.
func Use() (name string) { return defaultUser.use(libPath(), os.Stderr) }

// Active calls Use and returns the OpenBLAS implementation it installed, or nil when it
// fell back to gonum.
func Active() *Impl {
	if Use() != "openblas" {
		return nil
	}
	return defaultUser.impl
}

// Interface checks: Impl is a complete gonum BLAS and is accepted by gorgonia.Use.
var (
	_ blas.Float32    = (*Impl)(nil)
	_ blas.Float64    = (*Impl)(nil)
	_ gorgonia.BLAS   = (*Impl)(nil)
	_ blas.Complex64  = (*Impl)(nil)
	_ blas.Complex128 = (*Impl)(nil)
)
