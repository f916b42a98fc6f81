package envs

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"sort"

	"github.com/rlpool/rlpool/option"
)

// optionDecoder names a family's options in errors: "unknown option frame_skp: this
// task takes: frame_skip, ... (did you mean frame_skip?)", "option frame_skip = 0 is
// out of range: allowed >= 1 and <= 1000".
var optionDecoder = option.Decoder{Noun: "option", Root: "this task"}

// DecodeOptions reads a family option table (a config's env.options, train's -env-opt,
// the Python package's keyword arguments) into dst, a pointer to the family's options
// struct: its toml, range, oneof and help tags declare the options (see package
// option) and its values on entry are the defaults. Unknown options, values of the
// wrong type and values out of range are errors naming the option and what it allows.
// More structs share the table's keys out (see option.Decoder.Decode).
func DecodeOptions(table map[string]any, dst any, more ...any) error {
	return optionDecoder.Decode(table, dst, more...)
}

// FamilyOptions reads a family's option table one option at a time, for a family
// whose tasks' options follow from code shared among them rather than from one struct
// per task (mujoco's): each read decodes one option as DecodeOptions would, and Err
// reports the keys no read asked for as unknown options. A family with an options
// struct per task uses DecodeOptions instead.
type FamilyOptions struct {
	m      map[string]any
	used   map[string]bool
	values map[string]any // every option read, with the value it took (its default when absent)
	errs   []error
}

// NewFamilyOptions wraps an option table (nil is fine).
func NewFamilyOptions(m map[string]any) *FamilyOptions {
	return &FamilyOptions{m: m, used: map[string]bool{}, values: map[string]any{}}
}

// Values returns every option read so far with the value it took, the default for
// one that was absent: the task's options as a program reports them (envpool.Spec's
// Options).
func (o *FamilyOptions) Values() map[string]any { return maps.Clone(o.values) }

// Decode reads option key into dst (a pointer; it keeps its value, the default, when
// the option is absent or wrong) and reports whether the option was given.
func (o *FamilyOptions) Decode(key string, dst any) bool {
	o.used[key] = true
	defer func() { o.values[key] = reflect.ValueOf(dst).Elem().Interface() }()
	v, ok := o.m[key]
	if !ok {
		return false
	}
	if err := optionDecoder.DecodeValue(key, v, dst); err != nil {
		o.errs = append(o.errs, err)
	}
	return true
}

// DecodeStruct reads the keys of dst, a pointer to a tagged options struct (as
// DecodeOptions takes), from the table: options that several tasks share as a group
// (mujoco's pixel options) are declared once with their ranges and help.
func (o *FamilyOptions) DecodeStruct(dst any) {
	sub := map[string]any{}
	for _, k := range option.Keys(dst) {
		o.used[k] = true
		if v, ok := o.m[k]; ok {
			sub[k] = v
		}
	}
	if err := optionDecoder.Decode(sub, dst); err != nil {
		o.errs = append(o.errs, err)
	}
	maps.Copy(o.values, option.Values(dst))
}

// Float reads a number option, or def when absent.
func (o *FamilyOptions) Float(key string, def float64) float64 { return read(o, key, def) }

// Int reads an integer option, or def when absent.
func (o *FamilyOptions) Int(key string, def int) int { return read(o, key, def) }

// Bool reads a boolean option, or def when absent.
func (o *FamilyOptions) Bool(key string, def bool) bool { return read(o, key, def) }

// String reads a string option, or def when absent.
func (o *FamilyOptions) String(key string, def string) string { return read(o, key, def) }

func read[T any](o *FamilyOptions, key string, def T) T {
	x := def
	o.Decode(key, &x)
	return x
}

// Check adds a range error for key when ok is false.
func (o *FamilyOptions) Check(ok bool, key string, format string, args ...any) {
	if !ok {
		o.errs = append(o.errs, fmt.Errorf("option %s: "+format, append([]any{key}, args...)...))
	}
}

// Report adds an error found by the family's own reading of an option.
func (o *FamilyOptions) Report(err error) { o.errs = append(o.errs, err) }

// Err reports type and range errors and every option no read asked for.
func (o *FamilyOptions) Err() error {
	var unknown, known []string
	for k := range o.m {
		if !o.used[k] {
			unknown = append(unknown, k)
		}
	}
	for k := range o.used {
		known = append(known, k)
	}
	sort.Strings(unknown)
	sort.Strings(known)
	errs := o.errs
	for _, k := range unknown {
		errs = append(errs, optionDecoder.UnknownKey(k, known))
	}
	return errors.Join(errs...)
}
