package config

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Entry describes one config key for `train config`: its dotted key, type, default,
// allowed values (from the range and oneof tags) and help.
type Entry struct {
	Key, Type, Default, Allowed, Help string
}

// Entries walks the schema (learner sections included) and returns every key in
// section order, with the defaults of Default().
func Entries() []Entry {
	c := Default()
	return entries(c.schema(), "")
}

func entries(v reflect.Value, prefix string) []Entry {
	var es []Entry
	leaves(v, prefix, func(key string, f reflect.StructField, fv reflect.Value) {
		es = append(es, Entry{Key: key, Type: typeName(fv.Type()), Default: formatDefault(fv),
			Allowed: allowed(f), Help: f.Tag.Get("help")})
	})
	return es
}

// Describe returns the entries of one key, or of every key of a section ("ppo"); an
// unknown key's error suggests the nearest one, as the loader's does.
func Describe(key string) ([]Entry, error) {
	var out []Entry
	for _, e := range Entries() {
		if e.Key == key || strings.HasPrefix(e.Key, key+".") {
			out = append(out, e)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	parts := strings.Split(key, ".")
	t := schemaType()
	for i, p := range parts {
		prefix := strings.Join(parts[:i], ".")
		if prefix != "" {
			prefix += "."
		}
		f, ok := fieldByKey(t, p)
		if !ok {
			return nil, unknownKey(prefix+p, prefix, t)
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() != reflect.Struct {
			if ft.Kind() == reflect.Map {
				return nil, fmt.Errorf("%s: keys under %s%s are the env family's own options, not in the schema", key, prefix, p)
			}
			return nil, fmt.Errorf("%s: %s%s is a single value, not a table", key, prefix, p)
		}
		t = ft
	}
	return nil, fmt.Errorf("unknown key %s", key)
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "string"
	case reflect.Slice:
		return "list of " + typeName(t.Elem()) + "s"
	case reflect.Map:
		return "table"
	}
	return t.Kind().String()
}

func formatDefault(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Int, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Float64:
		if math.IsNaN(v.Float()) {
			return "nan"
		}
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Slice:
		var s []string
		for i := range v.Len() {
			s = append(s, formatDefault(v.Index(i)))
		}
		return "[" + strings.Join(s, ", ") + "]"
	case reflect.Map:
		return "{}"
	}
	return fmt.Sprint(v.Interface())
}

func allowed(f reflect.StructField) string {
	var a []string
	if r := f.Tag.Get("range"); r != "" {
		lo, hi, _ := strings.Cut(r[1:len(r)-1], ",")
		l, _ := strconv.ParseFloat(lo, 64)
		h, err := strconv.ParseFloat(hi, 64)
		if hi == "inf" || hi == "" || err != nil {
			h = math.Inf(1)
		}
		a = append(a, describeRange(r, l, h))
	}
	if o := f.Tag.Get("oneof"); o != "" {
		a = append(a, "one of "+strings.Join(strings.Split(o, "|"), ", "))
	}
	return strings.Join(a, "; ")
}
