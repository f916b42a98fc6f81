package dnnl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebitengine/purego"
)

// TestOpenMissingLibrary checks the error for a library that does not exist: it names
// the file and says how to install oneDNN. Load runs once per process, so the test
// calls open, Load's testable core, with the path RLPOOL_DNNL would give.
func TestOpenMissingLibrary(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-libdnnl.so.2")
	t.Setenv(EnvLib, missing)
	if got := libPath(); got != missing {
		t.Fatalf("libPath() = %q with %s set, want %q", got, EnvLib, missing)
	}
	_, err := open(libPath())
	if err == nil {
		t.Fatal("open of a missing library succeeded")
	}
	for _, want := range []string{missing, "libdnnl2", "make deps"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// TestOpenNotOneDNN checks that a library without oneDNN's symbols is refused with a
// clear message rather than crashing.
func TestOpenNotOneDNN(t *testing.T) {
	_, err := open("libc.so.6")
	if err == nil {
		t.Fatal("open(libc.so.6) succeeded")
	}
	if !strings.Contains(err.Error(), "libdnnl2") {
		t.Errorf("error %q does not say how to install oneDNN", err)
	}
}

// TestLoad checks the loaded library's version and that the OpenMP wait settings are
// in the environment.
func TestLoad(t *testing.T) {
	requireLib(t)
	if !Available() {
		t.Fatal("Available() = false after Load succeeded")
	}
	v := Version()
	if !strings.HasPrefix(v, "2.") {
		t.Errorf("Version() = %q, want 2.x", v)
	}
	if os.Getenv("OMP_WAIT_POLICY") == "" && os.Getenv("GOMP_SPINCOUNT") == "" {
		t.Error("neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT set after Load")
	}
	if ompSetNumThreads == 0 {
		t.Error("omp_set_num_threads not found")
	}
	t.Logf("oneDNN %s, OpenMP default threads %d, OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s", v, ompDefaultThreads,
		os.Getenv("OMP_WAIT_POLICY"), os.Getenv("GOMP_SPINCOUNT"))
}

// TestOMPEnv checks which OpenMP variables Load sets: both when the user set neither,
// none when the user set either (they decide together how long workers poll).
func TestOMPEnv(t *testing.T) {
	for _, c := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{}, "[[OMP_WAIT_POLICY ACTIVE] [GOMP_SPINCOUNT 1000]]"},
		{map[string]string{"OMP_NUM_THREADS": "2"}, "[[OMP_WAIT_POLICY ACTIVE] [GOMP_SPINCOUNT 1000]]"},
		{map[string]string{"OMP_WAIT_POLICY": "PASSIVE"}, "[]"},
		{map[string]string{"GOMP_SPINCOUNT": "300000"}, "[]"},
		{map[string]string{"OMP_WAIT_POLICY": ""}, "[]"}, // set, even if empty
	} {
		got := fmt.Sprint(ompEnv(func(k string) (string, bool) { v, ok := c.set[k]; return v, ok }))
		if got != c.want {
			t.Errorf("ompEnv with %v = %s, want %s", c.set, got, c.want)
		}
	}
}

// TestSetNumThreads checks that results do not depend on the thread count.
func TestSetNumThreads(t *testing.T) {
	requireLib(t)
	defer SetNumThreads(0)
	cfg := ConvConfig{Batch: 4, Cin: 8, H: 12, W: 12, Cout: 16, K: 3, Stride: 1, ReLU: true, NeedDX: true}
	SetNumThreads(1)
	one := runConv(t, cfg, false, 21)
	SetNumThreads(0)
	def := runConv(t, cfg, false, 21)
	if e := relL2(one.y, f64(def.y)); e > 1e-6 {
		t.Errorf("output with 1 thread differs by %.3g", e)
	}
	one.check(t, 1e-4)
}

// TestLayerThreads checks that a layer's own team size (ConvConfig.Threads) is the
// one applied around its calls, that 0 falls back to SetNumThreads's, and that the
// results do not depend on it.
func TestLayerThreads(t *testing.T) {
	requireLib(t)
	if ompGetMaxThreads == 0 {
		t.Skip("omp_get_max_threads not found")
	}
	defer SetNumThreads(0)
	SetNumThreads(3)
	// team is the OpenMP team size in force while a layer holds its thread.
	team := func(lock func() func()) int {
		defer lock()()
		r, _, _ := purego.SyscallN(ompGetMaxThreads)
		return int(int32(r))
	}
	cfg := ConvConfig{Batch: 4, Cin: 8, H: 12, W: 12, Cout: 16, K: 3, Stride: 1, ReLU: true, NeedDX: true}
	def := runConv(t, cfg, false, 21)
	for _, threads := range []int{0, 1} {
		cfg.Threads = threads
		c, err := NewConv(cfg)
		if err != nil {
			t.Fatal(err)
		}
		d, err := NewDense(DenseConfig{Batch: 2, In: 3, Out: 4, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		want := threads
		if threads == 0 {
			want = 3 // SetNumThreads's
		}
		if got, gotD := team(c.lock), team(d.lock); got != want || gotD != want {
			t.Errorf("layers created with Threads %d run teams of %d (conv) and %d (dense), want %d", threads, got, gotD, want)
		}
		c.Close()
		d.Close()
	}
	cfg.Threads = 1
	one := runConv(t, cfg, false, 21)
	if e := relL2(one.y, f64(def.y)); e > 1e-6 {
		t.Errorf("output of a layer with Threads 1 differs by %.3g", e)
	}
	one.check(t, 1e-4)
}

// TestPublicAPIWithoutLibrary checks, in a process where Load failed (run the tests
// with RLPOOL_DNNL=/nonexistent to exercise it), that the public API reports the
// failure instead of panicking.
func TestPublicAPIWithoutLibrary(t *testing.T) {
	if Load() == nil {
		t.Skip("oneDNN loaded; run with RLPOOL_DNNL=/nonexistent to test the failure path")
	}
	if Available() || Version() != "" {
		t.Errorf("Available() = %v, Version() = %q after a failed Load", Available(), Version())
	}
	if p := os.Getenv(EnvLib); p != "" && !strings.Contains(Load().Error(), p) {
		t.Errorf("Load error %q does not name %s", Load(), p)
	}
	if _, err := NewConv(ConvConfig{Batch: 1, Cin: 1, H: 3, W: 3, Cout: 1, K: 3, Stride: 1}); err == nil {
		t.Error("NewConv without the library: no error")
	}
	if _, err := NewDense(DenseConfig{Batch: 1, In: 1, Out: 1}); err == nil {
		t.Error("NewDense without the library: no error")
	}
	SetNumThreads(1) // must not crash
	SetNumThreads(0)
}
