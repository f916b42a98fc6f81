package mujoco

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"
)

// JacSite is mj_jacSite: it fills jacp and jacr (3 x nv each, row-major; either may be
// nil) with the Jacobians of site's position and orientation with respect to the
// degrees of freedom, from the kinematics of the last forward pass. Multiplying them
// by qvel gives the site's linear and angular velocity in the world frame, as
// Gymnasium-Robotics' get_site_xvelp and get_site_xvelr compute them.
func (d *Data) JacSite(jacp, jacr []float64, site int) error {
	nv := d.m.NV
	if site < 0 || site >= d.m.NSite {
		return fmt.Errorf("mujoco: site %d of %d in %s", site, d.m.NSite, d.m.name)
	}
	if (jacp != nil && len(jacp) < 3*nv) || (jacr != nil && len(jacr) < 3*nv) {
		return fmt.Errorf("mujoco: site Jacobians need 3 x nv = %d values", 3*nv)
	}
	var p, r unsafe.Pointer
	if len(jacp) > 0 {
		p = unsafe.Pointer(&jacp[0])
	}
	if len(jacr) > 0 {
		r = unsafe.Pointer(&jacr[0])
	}
	err := guard(func() {
		purego.SyscallN(lib.jacSite, uintptr(d.m.p), uintptr(d.p), uintptr(p), uintptr(r), uintptr(site))
	})
	runtime.KeepAlive(jacp)
	runtime.KeepAlive(jacr)
	return err
}
