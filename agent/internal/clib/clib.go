// Package clib holds what the packages that load C libraries with purego (agent/blas,
// agent/dnnl) share: finding the library's path and setting C environment variables
// that a library reads when it is opened.
package clib

import (
	"os"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"
)

// LibPath is the library to open: the value of the environment variable envVar when it
// is set (a file name the dynamic loader searches for, or a path), else def.
func LibPath(envVar, def string) string {
	if p := os.Getenv(envVar); p != "" {
		return p
	}
	return def
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
