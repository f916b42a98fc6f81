// Package mujocotest holds what the tests of every family on the MuJoCo binding need
// first: a skip, naming the package to install, when libmujoco is missing, and an env
// made outside any pool and closed with the test.
package mujocotest

import (
	"io"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// RequireMuJoCo skips a test when libmujoco cannot be loaded, naming the package.
func RequireMuJoCo(t testing.TB) {
	t.Helper()
	if err := mujoco.Load(); err != nil {
		t.Skipf("MuJoCo tasks need Debian's %s (apt-get install %s): %v", mujoco.LibraryPackage, mujoco.LibraryPackage, err)
	}
}

// MakeEnv builds one env of a task outside any pool (skipping without libmujoco); an
// env that holds C memory (io.Closer) is closed when the test ends.
func MakeEnv(t testing.TB, id string, opts map[string]any, seed int64) (envpool.Env, envpool.Spec) {
	t.Helper()
	RequireMuJoCo(t)
	e, spec, err := envs.MakeEnv(id, opts, seed)
	if err != nil {
		t.Fatalf("MakeEnv(%s, %v): %v", id, opts, err)
	}
	if c, ok := e.(io.Closer); ok {
		t.Cleanup(func() { c.Close() })
	}
	return e, spec
}
