package mujoco

import (
	"fmt"
	"sync"

	"github.com/rlpool/rlpool/clib"
)

// OSMesaPackage is the Debian package that provides libOSMesa, Mesa's off-screen
// OpenGL, which the renderer draws with; errors about a missing library name it.
const OSMesaPackage = "libosmesa6"

// OSMesaLibraryEnv names an environment variable that, when set, is the path of the
// OSMesa library to load instead of the system's libOSMesa.so.8.
const OSMesaLibraryEnv = "RLPOOL_LIBOSMESA"

// libosmesa is how the package finds OSMesa: OSMesaLibraryEnv's file, else these
// names in turn. It is opened with RTLD_GLOBAL: MuJoCo finds OpenGL's functions at
// run time by looking up OSMesaGetProcAddress (after eglGetProcAddress, before
// glXGetProcAddressARB) among the process's global symbols.
var libosmesa = clib.Library{What: "OSMesa", Env: OSMesaLibraryEnv,
	Names: []string{"libOSMesa.so.8", "libOSMesa.so.6", "libOSMesa.so"}, Package: OSMesaPackage, Global: true}

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
	once sync.Once
	err  error

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
func LoadOSMesa() error {
	gl.once.Do(func() { gl.err = loadOSMesa() })
	return gl.err
}

func loadOSMesa() error {
	if err := Load(); err != nil {
		return err
	}
	osmesa, err := libosmesa.Open()
	if err != nil {
		return fmt.Errorf("mujoco: rendering MuJoCo scenes needs Mesa's off-screen OpenGL: %w", err)
	}
	if err := osmesa.Bind([]clib.Symbol{
		{Name: "OSMesaCreateContextExt", Addr: &gl.createContextExt},
		{Name: "OSMesaMakeCurrent", Addr: &gl.makeCurrent},
		{Name: "OSMesaDestroyContext", Addr: &gl.destroyContext},
		{Name: "OSMesaGetCurrentContext", Addr: &gl.getCurrentContext},
	}); err != nil {
		return fmt.Errorf("mujoco: %w", err)
	}
	if err := lib.handle.Bind([]clib.Symbol{
		{Name: "mjv_defaultScene", Addr: &gl.defaultScene},
		{Name: "mjv_makeScene", Addr: &gl.makeScene},
		{Name: "mjv_freeScene", Addr: &gl.freeScene},
		{Name: "mjv_defaultOption", Addr: &gl.defaultOption},
		{Name: "mjv_defaultPerturb", Addr: &gl.defaultPerturb},
		{Name: "mjv_defaultCamera", Addr: &gl.defaultCamera},
		{Name: "mjv_updateScene", Addr: &gl.updateScene},
		{Name: "mjr_defaultContext", Addr: &gl.defaultContext},
		{Name: "mjr_makeContext", Addr: &gl.makeContext},
		{Name: "mjr_freeContext", Addr: &gl.freeContext},
		{Name: "mjr_setBuffer", Addr: &gl.setBuffer},
		{Name: "mjr_render", Addr: &gl.render},
		{Name: "mjr_readPixels", Addr: &gl.readPixels},
		{Name: "mj_copyModel", Addr: &gl.copyModel},
	}); err != nil {
		return fmt.Errorf("mujoco: %w", err)
	}
	return nil
}
