// Package clib opens C libraries at run time with purego, for the packages that
// bind one without cgo (agent/blas, agent/dnnl, envs/mujoco): it finds the library
// (the file an environment variable names, else the usual sonames in turn), says
// which Debian package to install when it is missing, resolves a table of symbols
// into addresses or Go functions, and sets C environment variables that a library
// reads when it is opened.
//
// It imports no other rlpool package, so that learners and environment families,
// which must not know each other, can both use it.
package clib

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Library says how to find a C library and what to tell a user who lacks it.
type Library struct {
	// What names the library in messages: "OpenBLAS", "oneDNN", "MuJoCo".
	What string
	// Env is the environment variable that, when set, names the library to open
	// instead (a file name the dynamic loader searches for, or a path).
	Env string
	// Names are the files tried in order when Env is unset, the versioned soname
	// first.
	Names []string
	// Package is the Debian package that installs the library (`make deps`
	// installs it too).
	Package string
	// Global opens the library with RTLD_GLOBAL, so that libraries opened later
	// (or the library's own run-time lookups) find its symbols.
	Global bool
}

// Candidates are the files Open tries: the one Env names when it is set, else Names.
func (l Library) Candidates() []string {
	if p := os.Getenv(l.Env); p != "" {
		return []string{p}
	}
	return l.Names
}

// Handle is an opened library.
type Handle struct {
	lib  Library
	path string
	h    uintptr
}

// Open opens the library: the first of Candidates that the dynamic loader can
// open. The error names every file tried, the Debian package to install and the
// variable that points at another file.
func (l Library) Open() (*Handle, error) { return l.open(l.Candidates()) }

// OpenPath opens the library from the file path (a name the dynamic loader
// searches for, or a path), whatever Env and Names say; errors read as Open's.
func (l Library) OpenPath(path string) (*Handle, error) { return l.open([]string{path}) }

func (l Library) open(files []string) (*Handle, error) {
	if runtime.GOOS != "linux" {
		return nil, fmt.Errorf("loading %s is only supported on linux, not %s", l.What, runtime.GOOS)
	}
	mode := purego.RTLD_NOW | purego.RTLD_LOCAL
	if l.Global {
		mode = purego.RTLD_NOW | purego.RTLD_GLOBAL
	}
	var tried []string
	var lastErr error
	for _, name := range files {
		h, err := purego.Dlopen(name, mode)
		if err == nil {
			return &Handle{lib: l, path: name, h: h}, nil
		}
		tried = append(tried, name)
		lastErr = err
	}
	return nil, errors.New(l.withHint(fmt.Sprintf("cannot open the %s library (tried %s: %v)", l.What, strings.Join(tried, ", "), lastErr)))
}

// Hint says what to do about a missing or unusable library: install its Debian
// package, or point Env at another file ("" when the Library names neither).
func (l Library) Hint() string {
	var do []string
	if l.Package != "" {
		do = append(do, fmt.Sprintf("install Debian's %s package (apt-get install %s, or make deps)", l.Package, l.Package))
	}
	if l.Env != "" {
		do = append(do, fmt.Sprintf("set %s to the library's path", l.Env))
	}
	return strings.Join(do, ", or ")
}

// withHint appends the library's hint to a message, when it has one.
func (l Library) withHint(msg string) string {
	if h := l.Hint(); h != "" {
		return msg + "; " + h
	}
	return msg
}

// Process is the libraries the process has loaded so far, searched in load order
// (RTLD_DEFAULT): for symbols that a library pulls in with it, such as OpenMP's
// with oneDNN.
func Process() *Handle {
	return &Handle{lib: Library{What: "wanted"}, path: "the process's libraries", h: purego.RTLD_DEFAULT}
}

// Path is the file the handle was opened from, as given to the dynamic loader.
func (h *Handle) Path() string { return h.path }

// Lookup returns the address of a symbol, or false when the library lacks it: for
// symbols a library may or may not have.
func (h *Handle) Lookup(name string) (uintptr, bool) {
	p, err := purego.Dlsym(h.h, name)
	return p, err == nil && p != 0
}

// Symbol is one entry of a symbol table: a C function's name and where Bind puts
// it. Addr receives the raw address, for purego.SyscallN on hot paths (it does not
// allocate); Func, a pointer to a Go func variable, becomes a typed wrapper built by
// purego.RegisterFunc (floats go in the right registers, pointer arguments stay
// alive for the call). Either or both may be set.
type Symbol struct {
	Name string
	Addr *uintptr
	Func any
}

// Bind resolves every symbol of table. A library that lacks any is refused with an
// error naming the missing symbols and what to install; nothing is registered then.
func (h *Handle) Bind(table []Symbol) error {
	addrs := make([]uintptr, len(table))
	var missing []string
	for i, s := range table {
		p, ok := h.Lookup(s.Name)
		if !ok {
			missing = append(missing, s.Name)
		}
		addrs[i] = p
	}
	if len(missing) > 0 {
		return errors.New(h.lib.withHint(fmt.Sprintf("%s lacks the %s symbols %s", h.path, h.lib.What, strings.Join(missing, ", "))))
	}
	for i, s := range table {
		if s.Addr != nil {
			*s.Addr = addrs[i]
		}
		if s.Func != nil {
			purego.RegisterFunc(s.Func, addrs[i])
		}
	}
	return nil
}

// GoString copies the NUL-terminated C string at p ("" for a null pointer).
func GoString(p uintptr) string {
	if p == 0 {
		return ""
	}
	// Converting through a pointer to the uintptr keeps go vet quiet: this is C
	// memory, which the Go collector neither moves nor frees.
	base := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	n := 0
	for *(*byte)(unsafe.Add(base, n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(base), n))
}

// SetEnvDefault sets name=value in the C environment, where the C libraries opened
// afterwards read it, unless name is already set. Go's os.Setenv does not reach the C
// environment without cgo, so libc's setenv is called through purego; Go's view of the
// environment is kept in step. It does nothing when libc cannot be opened.
func SetEnvDefault(name, value string) {
	if _, ok := os.LookupEnv(name); ok {
		return
	}
	libc, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return
	}
	setenv, err := purego.Dlsym(libc, "setenv")
	if err != nil || setenv == 0 {
		return
	}
	n := append([]byte(name), 0)
	v := append([]byte(value), 0)
	purego.SyscallN(setenv, uintptr(unsafe.Pointer(&n[0])), uintptr(unsafe.Pointer(&v[0])), 0)
	runtime.KeepAlive(n)
	runtime.KeepAlive(v)
	os.Setenv(name, value)
}
