package mujoco

import (
	"fmt"
	"os"
	"sync"

	"github.com/ebitengine/purego"
)

// OSMesaPackage is the Debian package that provides libOSMesa, Mesa's off-screen
// OpenGL, which the renderer draws with; errors about a missing library name it.
const OSMesaPackage = "libosmesa6"

// OSMesaLibraryEnv names an environment variable that, when set, is the path of the
// OSMesa library to load instead of the system's libOSMesa.so.8.
const OSMesaLibraryEnv = "RLPOOL_LIBOSMESA"

// osmesaNames are tried in order when OSMesaLibraryEnv is unset.
var osmesaNames = []string{"libOSMesa.so.8", "libOSMesa.so.6", "libOSMesa.so"}

// OpenGL and OSMesa enum values (GL/gl.h, GL/osmesa.h): fixed by the OpenGL ABI, not a
// struct layout, so they are written here rather than generated.
const (
	glRGBA         = 0x1908 // GL_RGBA, also OSMESA_RGBA
	glUnsignedByte = 0x1401 // GL_UNSIGNED_BYTE
)

// gl holds the entry points of libOSMesa and of MuJoCo's visualizer (mjv_*) and
// OpenGL renderer (mjr_*), loaded on first use by LoadOSMesa; like lib they are called
// with purego.SyscallN.
var gl struct {
	once   sync.Once
	err    error
	handle uintptr

	createContextExt, makeCurrent, destroyContext, getCurrentContext uintptr

	defaultScene, makeScene, freeScene, defaultOption, defaultPerturb, defaultCamera uintptr
	updateScene                                                                      uintptr
	defaultContext, makeContext, freeContext, setBuffer, render, readPixels          uintptr
	copyModel                                                                        uintptr
}

// LoadOSMesa loads libMuJoCo (Load) and libOSMesa, and finds the rendering functions of
// both. Every Renderer calls it; it is safe to call many times. The error names the
// Debian package to install, or the variable that points at another library, when
// libOSMesa is missing.
//
// libOSMesa is opened with RTLD_GLOBAL: MuJoCo finds OpenGL's functions at run time by
// looking up OSMesaGetProcAddress (after eglGetProcAddress, before
// glXGetProcAddressARB) among the process's global symbols.
func LoadOSMesa() error {
	gl.once.Do(func() { gl.err = loadOSMesa() })
	return gl.err
}

func loadOSMesa() error {
	if err := Load(); err != nil {
		return err
	}
	names := osmesaNames
	if p := os.Getenv(OSMesaLibraryEnv); p != "" {
		names = []string{p}
	}
	var tried []string
	var lastErr error
	for _, name := range names {
		h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			gl.handle = h
			break
		}
		tried = append(tried, name)
		lastErr = err
	}
	if gl.handle == 0 {
		return fmt.Errorf("mujoco: cannot load Mesa's off-screen OpenGL library (tried %v: %v); rendering MuJoCo scenes needs it: install Debian's %s package (apt-get install %s) or set %s to the path of libOSMesa.so.8",
			tried, lastErr, OSMesaPackage, OSMesaPackage, OSMesaLibraryEnv)
	}
	syms := []struct {
		handle uintptr
		name   string
		dst    *uintptr
	}{
		{gl.handle, "OSMesaCreateContextExt", &gl.createContextExt},
		{gl.handle, "OSMesaMakeCurrent", &gl.makeCurrent},
		{gl.handle, "OSMesaDestroyContext", &gl.destroyContext},
		{gl.handle, "OSMesaGetCurrentContext", &gl.getCurrentContext},
		{lib.handle, "mjv_defaultScene", &gl.defaultScene},
		{lib.handle, "mjv_makeScene", &gl.makeScene},
		{lib.handle, "mjv_freeScene", &gl.freeScene},
		{lib.handle, "mjv_defaultOption", &gl.defaultOption},
		{lib.handle, "mjv_defaultPerturb", &gl.defaultPerturb},
		{lib.handle, "mjv_defaultCamera", &gl.defaultCamera},
		{lib.handle, "mjv_updateScene", &gl.updateScene},
		{lib.handle, "mjr_defaultContext", &gl.defaultContext},
		{lib.handle, "mjr_makeContext", &gl.makeContext},
		{lib.handle, "mjr_freeContext", &gl.freeContext},
		{lib.handle, "mjr_setBuffer", &gl.setBuffer},
		{lib.handle, "mjr_render", &gl.render},
		{lib.handle, "mjr_readPixels", &gl.readPixels},
		{lib.handle, "mj_copyModel", &gl.copyModel},
	}
	for _, s := range syms {
		p, err := purego.Dlsym(s.handle, s.name)
		if err != nil {
			if s.handle == gl.handle {
				return fmt.Errorf("mujoco: the OSMesa library lacks %s (%v); install Debian's %s or point %s at libOSMesa.so.8", s.name, err, OSMesaPackage, OSMesaLibraryEnv)
			}
			return fmt.Errorf("mujoco: the loaded library lacks %s (%v); install Debian's %s", s.name, err, LibraryPackage)
		}
		*s.dst = p
	}
	return nil
}
