package option

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Field describes one key for help text: its dotted key, type, default (the value the
// struct held), what its tags allow and its help.
type Field struct {
	Key, Type, Default, Allowed, Help string
}

// Describe lists the keys of the struct v (or a pointer to it), sections walked into
// with dotted keys, in field order, with v's values as the defaults.
func Describe(v any) []Field {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	var out []Field
	leaves(rv, "", func(key string, f reflect.StructField, fv reflect.Value) {
		out = append(out, Field{Key: key, Type: TypeName(fv.Type()), Default: formatValue(fv),
			Allowed: allowed(f), Help: f.Tag.Get("help")})
	})
	return out
}

// formatValue writes a field's value as TOML text.
func formatValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return formatFloat(v.Float())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Slice, reflect.Array:
		s := make([]string, v.Len())
		for i := range s {
			s[i] = formatValue(v.Index(i))
		}
		return "[" + strings.Join(s, ", ") + "]"
	case reflect.Map:
		return "{}"
	case reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return Literal(v.Interface())
	}
	return fmt.Sprint(v.Interface())
}

// allowed says what a field's range and oneof tags allow.
func allowed(f reflect.StructField) string {
	var a []string
	if r := f.Tag.Get("range"); r != "" {
		a = append(a, parseRange(r).String())
	}
	if o := f.Tag.Get("oneof"); o != "" {
		a = append(a, "one of "+strings.Join(strings.Split(o, "|"), ", "))
	}
	return strings.Join(a, "; ")
}

// Values returns every key of the tagged options structs (or pointers to them) with
// its current value, sections walked into with dotted keys: after a decode, the
// options a task was built with, defaults included, as a program reports them (the
// Python package's spec.config). A key of a later struct replaces an earlier one's.
func Values(structs ...any) map[string]any {
	out := map[string]any{}
	for _, s := range structs {
		v := reflect.ValueOf(s)
		for v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			continue
		}
		leaves(v, "", func(key string, _ reflect.StructField, fv reflect.Value) {
			out[key] = fv.Interface()
		})
	}
	return out
}
