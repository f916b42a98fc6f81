package mujoco

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Camera is a task's default view: the fields of MuJoCo's mjvCamera that Gymnasium's
// v5 renderer sets from the default_camera_config argument before it draws. A nil
// field is one the configuration leaves at the renderer's own default. The camera
// changes nothing in the simulation; the package stores it for renderers, which read it
// with Env.DefaultCamera.
type Camera struct {
	// Type is mjvCamera.type: 0 free, 1 tracking (follows TrackBodyID), 2 fixed (the
	// model's camera FixedCamID), 3 user.
	Type *int
	// FixedCamID is the model camera a fixed view uses (-1: none).
	FixedCamID *int
	// TrackBodyID is the body a tracking view follows (-1: none).
	TrackBodyID *int
	// LookAt is the point the camera looks at.
	LookAt *[3]float64
	// Distance is the distance from LookAt (or the tracked body), > 0.
	Distance *float64
	// Azimuth and Elevation are the view angles in degrees.
	Azimuth, Elevation *float64
}

// cameraKeys are the keys default_camera_config takes: mjvCamera's fields in MuJoCo
// 2.2.2.
var cameraKeys = []string{"type", "fixedcamid", "trackbodyid", "lookat", "distance", "azimuth", "elevation"}

// IsZero reports whether the camera sets no field.
func (c Camera) IsZero() bool {
	for _, f := range c.fields() {
		if f.value != nil {
			return false
		}
	}
	return true
}

// String lists the set fields in default_camera_config's terms.
func (c Camera) String() string {
	var parts []string
	for _, f := range c.fields() {
		if f.value != nil {
			parts = append(parts, fmt.Sprintf("%s=%v", f.key, f.value))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// fields lists the camera's fields in cameraKeys' order, each value nil when unset.
func (c Camera) fields() []struct {
	key   string
	value any
} {
	return []struct {
		key   string
		value any
	}{
		{"type", deref(c.Type)}, {"fixedcamid", deref(c.FixedCamID)}, {"trackbodyid", deref(c.TrackBodyID)},
		{"lookat", deref(c.LookAt)}, {"distance", deref(c.Distance)}, {"azimuth", deref(c.Azimuth)},
		{"elevation", deref(c.Elevation)},
	}
}

// deref is *p, or a nil interface when p is nil.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// parseCamera reads a default_camera_config table. Every problem is returned, each
// naming the key and what it takes.
func parseCamera(v any) (Camera, []string) {
	var c Camera
	table, ok := v.(map[string]any)
	if !ok {
		return c, []string{fmt.Sprintf("option default_camera_config = %v: want a table of camera fields (%s)", v, strings.Join(cameraKeys, ", "))}
	}
	var errs []string
	bad := func(k string, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("option default_camera_config.%s = %v: ", k, table[k])+fmt.Sprintf(format, args...))
	}
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := table[k]
		switch k {
		case "type", "fixedcamid", "trackbodyid":
			n, ok := number(x)
			if !ok || n != math.Trunc(n) {
				bad(k, "want an integer")
				continue
			}
			i := int(n)
			switch {
			case k == "type" && (i < 0 || i > 3):
				bad(k, "want 0 (free), 1 (tracking), 2 (fixed) or 3 (user)")
			case k != "type" && i < -1:
				bad(k, "want an id >= -1")
			case k == "type":
				c.Type = &i
			case k == "fixedcamid":
				c.FixedCamID = &i
			default:
				c.TrackBodyID = &i
			}
		case "lookat":
			xs, ok := numbers(x)
			if !ok || len(xs) != 3 || !finite(xs...) {
				bad(k, "want three finite numbers [x, y, z]")
				continue
			}
			c.LookAt = &[3]float64{xs[0], xs[1], xs[2]}
		case "distance", "azimuth", "elevation":
			n, ok := number(x)
			if !ok || !finite(n) || (k == "distance" && n <= 0) {
				if k == "distance" {
					bad(k, "want a finite number > 0")
				} else {
					bad(k, "want a finite number of degrees")
				}
				continue
			}
			switch k {
			case "distance":
				c.Distance = &n
			case "azimuth":
				c.Azimuth = &n
			default:
				c.Elevation = &n
			}
		case "orthographic":
			bad(k, "MuJoCo 2.2.2's mjvCamera has no orthographic field (MuJoCo 3.2 added it); leave it out, the view is a perspective one")
		default:
			bad(k, "unknown camera field; default_camera_config takes %s", strings.Join(cameraKeys, ", "))
		}
	}
	return c, errs
}

// check tests the ids against the compiled model.
func (c Camera) check(m *Model) error {
	if c.TrackBodyID != nil && *c.TrackBodyID >= m.NBody {
		return fmt.Errorf("option default_camera_config.trackbodyid = %d: model %s has bodies 0 to %d", *c.TrackBodyID, m.Name(), m.NBody-1)
	}
	if ncam := m.int(offM_ncam); c.FixedCamID != nil && *c.FixedCamID >= ncam {
		return fmt.Errorf("option default_camera_config.fixedcamid = %d: model %s has %d cameras", *c.FixedCamID, m.Name(), ncam)
	}
	return nil
}

// checkCamera tests a behaviour's default camera against its model (build calls it).
func checkCamera(b taskBehavior, m *Model) error {
	if c, ok := b.(interface{ defaultCamera() Camera }); ok {
		return c.defaultCamera().check(m)
	}
	return nil
}

// DefaultCamera returns the view a renderer should start from: a v5 task's
// default_camera_config (Gymnasium's default for the task unless the options give one),
// or a Camera that sets nothing (every v4 task).
func (e *Env) DefaultCamera() Camera {
	if c, ok := e.t.b.(interface{ defaultCamera() Camera }); ok {
		return c.defaultCamera()
	}
	return Camera{}
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
