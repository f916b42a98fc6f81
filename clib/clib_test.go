package clib

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// libc is a library every linux test machine has, standing in for the optional ones.
var libc = Library{What: "C", Env: "RLPOOL_CLIB_TEST", Names: []string{"libc.so.6"}, Package: "libc6"}

func TestCandidates(t *testing.T) {
	t.Setenv(libc.Env, "")
	if got := libc.Candidates(); !slices.Equal(got, []string{"libc.so.6"}) {
		t.Errorf("unset: %q", got)
	}
	t.Setenv(libc.Env, "/opt/libx.so")
	if got := libc.Candidates(); !slices.Equal(got, []string{"/opt/libx.so"}) {
		t.Errorf("set: %q", got)
	}
}

// A missing library's error names the files tried, the package and the variable.
func TestOpenMissing(t *testing.T) {
	lib := Library{What: "Example", Env: "RLPOOL_CLIB_TEST", Names: []string{"libnope.so.1", "libnope.so"}, Package: "libnope1"}
	t.Setenv(lib.Env, "")
	_, err := lib.Open()
	if err == nil {
		t.Fatal("opening a library that does not exist succeeded")
	}
	for _, want := range []string{"Example", "libnope.so.1, libnope.so", "apt-get install libnope1", "RLPOOL_CLIB_TEST"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	missing := filepath.Join(t.TempDir(), "libnope.so")
	t.Setenv(lib.Env, missing)
	if _, err := lib.Open(); err == nil || !strings.Contains(err.Error(), missing) || strings.Contains(err.Error(), "libnope.so.1") {
		t.Errorf("with %s set: %v, want only %s tried", lib.Env, err, missing)
	}
}

// Bind fills both kinds of entry, and a table with a missing symbol is refused
// naming it, with nothing filled.
func TestBind(t *testing.T) {
	t.Setenv(libc.Env, "")
	h, err := libc.Open()
	if err != nil {
		t.Skipf("no libc to test with: %v", err)
	}
	var strlenAddr uintptr
	var strlen func(s *byte) uintptr
	if err := h.Bind([]Symbol{{Name: "strlen", Addr: &strlenAddr, Func: &strlen}}); err != nil {
		t.Fatal(err)
	}
	s := []byte("seven c\x00")
	if strlenAddr == 0 || strlen == nil || strlen(&s[0]) != 7 {
		t.Errorf("strlen bound to %#x; strlen(%q) = %d, want 7", strlenAddr, s, strlen(&s[0]))
	}
	if GoString(uintptr(unsafe.Pointer(&s[0]))) != "seven c" || GoString(0) != "" {
		t.Error("GoString does not copy up to the NUL")
	}

	var a, b uintptr
	err = h.Bind([]Symbol{{Name: "strlen", Addr: &a}, {Name: "rlpool_no_such_symbol", Addr: &b}})
	if err == nil || !strings.Contains(err.Error(), "rlpool_no_such_symbol") || !strings.Contains(err.Error(), "libc6") {
		t.Errorf("Bind with a missing symbol: %v, want an error naming it and the package", err)
	}
	if a != 0 || b != 0 {
		t.Error("a refused table was partly filled")
	}
	if _, ok := h.Lookup("rlpool_no_such_symbol"); ok {
		t.Error("Lookup found a symbol libc does not have")
	}
}

// SetEnvDefault sets an unset variable and leaves a set one alone.
func TestSetEnvDefault(t *testing.T) {
	const name = "RLPOOL_CLIB_TEST_SET"
	os.Unsetenv(name)
	defer os.Unsetenv(name)
	SetEnvDefault(name, "one")
	if got := os.Getenv(name); got != "one" {
		t.Fatalf("after SetEnvDefault: %q, want one", got)
	}
	SetEnvDefault(name, "two")
	if got := os.Getenv(name); got != "one" {
		t.Fatalf("a set variable changed to %q", got)
	}
}

// Process finds the symbols of a library opened with RTLD_GLOBAL, and names itself
// in a refusal.
func TestProcess(t *testing.T) {
	lib := libc
	lib.Global = true
	t.Setenv(lib.Env, "")
	if _, err := lib.Open(); err != nil {
		t.Skipf("no libc to test with: %v", err)
	}
	if _, ok := Process().Lookup("strlen"); !ok {
		t.Error("Process() does not find strlen once libc is open with RTLD_GLOBAL")
	}
	var p uintptr
	if err := Process().Bind([]Symbol{{Name: "rlpool_no_such_symbol", Addr: &p}}); err == nil || !strings.Contains(err.Error(), "rlpool_no_such_symbol") {
		t.Errorf("Process().Bind of a missing symbol: %v", err)
	}
}

// A hint says only what the Library names.
func TestHint(t *testing.T) {
	for _, c := range []struct {
		lib  Library
		want string
	}{
		{Library{Package: "libx1", Env: "RLPOOL_X"}, "install Debian's libx1 package (apt-get install libx1, or make deps), or set RLPOOL_X to the library's path"},
		{Library{Package: "libx1"}, "install Debian's libx1 package (apt-get install libx1, or make deps)"},
		{Library{Env: "RLPOOL_X"}, "set RLPOOL_X to the library's path"},
		{Library{}, ""},
	} {
		if got := c.lib.Hint(); got != c.want {
			t.Errorf("Hint of %+v = %q, want %q", c.lib, got, c.want)
		}
	}
}
