package clib

import (
	"os"
	"testing"
)

func TestLibPath(t *testing.T) {
	t.Setenv("RLPOOL_CLIB_TEST", "")
	if got := LibPath("RLPOOL_CLIB_TEST", "libx.so.1"); got != "libx.so.1" {
		t.Errorf("unset: %q", got)
	}
	t.Setenv("RLPOOL_CLIB_TEST", "/opt/libx.so")
	if got := LibPath("RLPOOL_CLIB_TEST", "libx.so.1"); got != "/opt/libx.so" {
		t.Errorf("set: %q", got)
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
