package mujoco

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// The option readers the v5 tasks add to options (register.go has the configure
// functions that use them).

// v5Common reads the options every v5 task takes besides its own: xml_file (a model
// file, the task's own by default), frame_skip (left in o for build) and
// default_camera_config (Gymnasium's view for the task by default).
func (o *options) v5Common(file string, camera Camera) (v5Switch, string) {
	file = o.modelFile(file)
	o.frameSkip = o.frameSkipOption()
	return v5Switch{v5: true, camera: o.camera(camera)}, file
}

// modelFile reads xml_file. A bare name is an embedded model when one has that name
// (Gymnasium looks bare names up among its own assets); "~/" starts the home folder.
func (o *options) modelFile(def string) string {
	f := o.fo.String("xml_file", def)
	if rest, ok := strings.CutPrefix(f, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			f = filepath.Join(home, rest)
		}
	}
	o.fo.Check(f != "", "xml_file", "want a model file name or path")
	return f
}

// frameSkipOption reads frame_skip: mj_step calls per env step, an integer >= 1. It
// returns 0 when the option is absent, so that build keeps the task's own.
func (o *options) frameSkipOption() int {
	n := o.fo.Int("frame_skip", 0)
	if _, given := o.given["frame_skip"]; given {
		o.fo.Check(n >= 1, "frame_skip", "%d: want an integer >= 1", n)
	}
	return max(n, 0)
}

// camera reads default_camera_config: a table of mjvCamera fields that replaces the
// task's default view as a whole, as Gymnasium's argument does.
func (o *options) camera(def Camera) Camera {
	o.fo.Float("default_camera_config", 0) // marks the key as one this task takes
	v, ok := o.pairs["default_camera_config"]
	if !ok {
		return def
	}
	c, errs := parseCamera(v)
	o.pairErr = append(o.pairErr, errs...)
	return c
}

// mainBody reads main_body: a body name, or a body id.
func (o *options) mainBody(def bodyRef) bodyRef {
	o.fo.Float("main_body", 0) // marks the key as one this task takes
	v, ok := o.pairs["main_body"]
	if !ok {
		return def
	}
	if s, ok := v.(string); ok && s != "" {
		return bodyRef{name: s}
	}
	if n, ok := number(v); ok && n == math.Trunc(n) && n >= 0 {
		return bodyRef{id: int(n)}
	}
	o.pairErr = append(o.pairErr, fmt.Sprintf("option main_body = %v: want a body name or a body id >= 0", v))
	return def
}

// removed makes a boolean option the v5 task no longer takes an error that says what
// replaced it.
func (o *options) removed(key, instead string) {
	if _, given := o.given[key]; given {
		o.fo.Bool(key, false) // reported here, not again as unknown
		o.pairErr = append(o.pairErr, fmt.Sprintf("option %s: Gymnasium v5 removed it; %s", key, instead))
	}
}
