package mujoco

//go:generate go run ./internal/offsetgen -o zoffsets.go

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/rlpool/rlpool/clib"
)

// LibraryPackage is the Debian package that provides the MuJoCo library this binding
// was written against; errors about a missing library name it.
const LibraryPackage = "libmujoco2.2.2"

// LibraryEnv names an environment variable that, when set, is the path of the MuJoCo
// shared library to load instead of the system's libmujoco.so.2.2.2.
const LibraryEnv = "RLPOOL_LIBMUJOCO"

// wantVersion is the only mj_version() this binding accepts: the headers zoffsets.go
// was generated from (2.2.2), since every struct offset there is specific to them.
const wantVersion = mjVersionHeader

// libmujoco is how the package finds MuJoCo: LibraryEnv's file, else these names in
// turn.
var libmujoco = clib.Library{What: "MuJoCo", Env: LibraryEnv, Names: []string{"libmujoco.so.2.2.2", "libmujoco.so"}, Package: LibraryPackage}

// lib holds the loaded library's entry points. They are called with purego.SyscallN,
// which (unlike RegisterLibFunc's reflect-built wrappers) does not allocate per call.
var lib struct {
	once    sync.Once
	err     error
	handle  *clib.Handle
	version int

	version_, defaultVFS, makeEmptyFileVFS, findFileVFS, deleteVFS uintptr
	loadXML, makeData, deleteData, deleteModel, resetData          uintptr
	step, forward, rnePostConstraint, name2id                      uintptr
	step1, step2, copyModel                                        uintptr
	jacSite                                                        uintptr
	userError, userWarning                                         uintptr // the hooks' addresses (mju_user_error, mju_user_warning)
}

// warnings counts MuJoCo warnings (mju_warning calls) in this process; lastWarning
// holds the most recent message. MuJoCo's warning callback carries no mjData, so these
// are process-wide diagnostics; per-env instability is read from mjData's counters.
var (
	warnings    atomic.Int64
	lastWarning atomic.Pointer[string]
)

// Error is a MuJoCo error (mju_error) raised inside a MuJoCo call, turned into a Go
// error instead of MuJoCo's default of printing, writing MUJOCO_LOG.TXT and exiting.
type Error struct {
	Msg string
}

// Error returns MuJoCo's message, prefixed with the package name.
func (e *Error) Error() string { return "mujoco: " + e.Msg }

// Load loads libmujoco and installs the error and warning handlers. It is safe to call
// many times; every env constructor calls it. The error names the Debian package to
// install when the library is missing, and refuses any MuJoCo other than 2.2.2.
func Load() error {
	lib.once.Do(func() { lib.err = load() })
	return lib.err
}

func load() error {
	h, err := libmujoco.Open()
	if err != nil {
		return fmt.Errorf("mujoco: %w", err)
	}
	lib.handle = h
	if err := h.Bind([]clib.Symbol{
		{Name: "mj_version", Addr: &lib.version_},
		{Name: "mj_defaultVFS", Addr: &lib.defaultVFS},
		{Name: "mj_makeEmptyFileVFS", Addr: &lib.makeEmptyFileVFS},
		{Name: "mj_findFileVFS", Addr: &lib.findFileVFS},
		{Name: "mj_deleteVFS", Addr: &lib.deleteVFS},
		{Name: "mj_loadXML", Addr: &lib.loadXML},
		{Name: "mj_makeData", Addr: &lib.makeData},
		{Name: "mj_deleteData", Addr: &lib.deleteData},
		{Name: "mj_deleteModel", Addr: &lib.deleteModel},
		{Name: "mj_resetData", Addr: &lib.resetData},
		{Name: "mj_step", Addr: &lib.step},
		{Name: "mj_forward", Addr: &lib.forward},
		{Name: "mj_rnePostConstraint", Addr: &lib.rnePostConstraint},
		{Name: "mj_name2id", Addr: &lib.name2id},
		{Name: "mj_step1", Addr: &lib.step1},
		{Name: "mj_step2", Addr: &lib.step2},
		{Name: "mj_copyModel", Addr: &lib.copyModel},
		{Name: "mj_jacSite", Addr: &lib.jacSite},
		{Name: "mju_user_error", Addr: &lib.userError},
		{Name: "mju_user_warning", Addr: &lib.userWarning},
	}); err != nil {
		return fmt.Errorf("mujoco: %w", err)
	}
	v, _, _ := purego.SyscallN(lib.version_)
	lib.version = int(int32(v))
	if lib.version != wantVersion {
		return fmt.Errorf("mujoco: the loaded library is MuJoCo %d.%d.%d but this binding's struct layout is for 2.2.2 (mj_version() == %d); install Debian's %s or point %s at libmujoco.so.2.2.2",
			lib.version/100, lib.version/10%10, lib.version%10, wantVersion, LibraryPackage, LibraryEnv)
	}
	installHandlers()
	return nil
}

// installHandlers points MuJoCo's mju_user_error and mju_user_warning hooks at Go.
//
// The default error handler prints, appends to MUJOCO_LOG.TXT, waits for a key on stdin
// and exits the process. A user handler must not return either: mju_error's callers
// carry on with a corrupt state after it (a returning handler crashed mj_step in
// probes). So the Go handler panics with an *Error; the panic unwinds through the C
// frames to the recover in guard, which turns it into a Go error, and the env's next
// reset clears the mjData (including the stack pointer the aborted call left behind).
func installHandlers() {
	onError := purego.NewCallback(func(msg uintptr) {
		panic(&Error{Msg: clib.GoString(msg)})
	})
	onWarning := purego.NewCallback(func(msg uintptr) {
		s := clib.GoString(msg)
		warnings.Add(1)
		lastWarning.Store(&s)
	})
	*(*uintptr)(ptrAt(lib.userError)) = onError
	*(*uintptr)(ptrAt(lib.userWarning)) = onWarning
}

// Warnings returns how many MuJoCo warnings this process has seen and the last message.
func Warnings() (int64, string) {
	s := ""
	if p := lastWarning.Load(); p != nil {
		s = *p
	}
	return warnings.Load(), s
}

// guard runs f and turns a MuJoCo error raised inside it (the handler's panic) into an
// error. Other panics are not MuJoCo's and keep unwinding.
func guard(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			me, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			err = me
		}
	}()
	f()
	return nil
}

// ptrAt turns an address returned by the C side into a pointer without go vet's
// uintptr-to-pointer warning: the memory is C's, never moved or collected by Go.
func ptrAt(addr uintptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&addr))
}

// cString returns a NUL-terminated copy of s; keep it alive across the call.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}
