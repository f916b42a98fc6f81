package mujoco

import (
	"errors"
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
	var v any
	if !o.fo.Decode("default_camera_config", &v) {
		return def
	}
	c, errs := parseCamera(v)
	for _, e := range errs {
		o.fo.Report(errors.New(e))
	}
	return c
}

// mainBody reads main_body: a body name, or a body id.
func (o *options) mainBody(def bodyRef) bodyRef {
	var v any
	if !o.fo.Decode("main_body", &v) {
		return def
	}
	if s, ok := v.(string); ok && s != "" {
		return bodyRef{name: s}
	}
	if n, ok := number(v); ok && n == math.Trunc(n) && n >= 0 {
		return bodyRef{id: int(n)}
	}
	o.fo.Check(false, "main_body", "%v: want a body name or a body id >= 0", v)
	return def
}

// removed makes a boolean option the v5 task no longer takes an error that says what
// replaced it.
func (o *options) removed(key, instead string) {
	var v any
	if o.fo.Decode(key, &v) { // reported here, not again as unknown
		o.fo.Check(false, key, "Gymnasium v5 removed it; %s", instead)
	}
}
