package envs

import (
	"fmt"
	"sort"
	"strings"
)

// FamilyOptions reads a family's option table with typed getters and reports keys it
// never read, so a misspelt option is an error rather than silently ignored.
type FamilyOptions struct {
	m    map[string]any
	used map[string]bool
	errs []string
}

// NewFamilyOptions wraps an option table (nil is fine).
func NewFamilyOptions(m map[string]any) *FamilyOptions {
	return &FamilyOptions{m: m, used: map[string]bool{}}
}

// Float reads a number option, or def when absent.
func (o *FamilyOptions) Float(key string, def float64) float64 {
	v, ok := o.m[key]
	o.used[key] = true
	if !ok {
		return def
	}
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case int:
		return float64(x)
	case int64:
		return float64(x)
	}
	o.errs = append(o.errs, fmt.Sprintf("option %s = %v: want a number", key, v))
	return def
}

// Int reads an integer option, or def when absent.
func (o *FamilyOptions) Int(key string, def int) int {
	v, ok := o.m[key]
	o.used[key] = true
	if !ok {
		return def
	}
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		if x == float64(int(x)) {
			return int(x)
		}
	}
	o.errs = append(o.errs, fmt.Sprintf("option %s = %v: want an integer", key, v))
	return def
}

// Bool reads a boolean option, or def when absent.
func (o *FamilyOptions) Bool(key string, def bool) bool {
	v, ok := o.m[key]
	o.used[key] = true
	if !ok {
		return def
	}
	if b, ok := v.(bool); ok {
		return b
	}
	o.errs = append(o.errs, fmt.Sprintf("option %s = %v: want true or false", key, v))
	return def
}

// String reads a string option, or def when absent.
func (o *FamilyOptions) String(key string, def string) string {
	v, ok := o.m[key]
	o.used[key] = true
	if !ok {
		return def
	}
	if s, ok := v.(string); ok {
		return s
	}
	o.errs = append(o.errs, fmt.Sprintf("option %s = %v: want a string", key, v))
	return def
}

// Check adds a range error for key when ok is false.
func (o *FamilyOptions) Check(ok bool, key string, format string, args ...any) {
	if !ok {
		o.errs = append(o.errs, fmt.Sprintf("option %s: "+format, append([]any{key}, args...)...))
	}
}

// Err reports type and range errors and any option that was never read.
func (o *FamilyOptions) Err() error {
	var unknown []string
	for k := range o.m {
		if !o.used[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	errs := o.errs
	if len(unknown) > 0 {
		known := make([]string, 0, len(o.used))
		for k := range o.used {
			known = append(known, k)
		}
		sort.Strings(known)
		errs = append(errs, fmt.Sprintf("unknown option(s) %s; this task takes: %s",
			strings.Join(unknown, ", "), strings.Join(known, ", ")))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(errs, "; "))
}
