// Package option is rlpool's one decoder of settings: it copies a table of values (as
// BurntSushi/toml decodes a TOML table, or encoding/json a JSON object) into a tagged
// Go struct, checks the values against the tags, parses "key=value" assignments from
// a command line, describes a struct's keys for help text, and suggests the nearest
// name for a mistyped one.
//
// A struct declares its keys with tags:
//
//	type Options struct {
//		FrameSkip int     `toml:"frame_skip" range:"[1,1000]" help:"emulator frames per step"`
//		Mode      string  `toml:"mode" oneof:"fast|exact" help:"which integrator"`
//		Scale     float64 `toml:"scale" range:"(0,inf)" help:"a positive factor"`
//	}
//
// toml names the key (a field without one, or with toml:"-", is not a key); range
// bounds a number, or each element of a list of numbers, by an interval written
// "[lo,hi]", "(lo,hi]", ... with inf for no bound; oneof lists the strings a string
// key allows; help says what the key does. A field that is a struct, or a pointer to
// one, is a section: a table of its own keys. A map[string]any field takes any table
// as it is (a family's own options, checked later by the family). The values the
// struct holds before decoding are the defaults: keys absent from the table keep them.
//
// The package imports nothing of rlpool, so the engine's users, the environment
// families and the application can all use it.
package option

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Decoder says how a table's keys are named in error messages. The zero value names
// them as config keys ("unknown key ppo.lr: [ppo] takes: ...").
type Decoder struct {
	// Noun is what a key is called: "option" gives "unknown option frame_skp" and
	// "option frame_skip = 0 is out of range"; empty is "key", with bare key names in
	// messages about values.
	Noun string
	// Root is what the top table is called in "... takes: ..." lists, e.g. "a config"
	// or "this task"; empty is "the table". A section is called by its dotted key in
	// brackets, [ppo].
	Root string
	// Prefix is prepended to every key in messages, e.g. "sweep." when the table
	// decoded is a file's [sweep] section.
	Prefix string
}

// Decode copies table into the struct dst points to, as the zero Decoder does.
func Decode(table map[string]any, dst any, more ...any) error {
	return Decoder{}.Decode(table, dst, more...)
}

// Decode copies table into the struct dst points to: each key into the field its toml
// tag names, sections into their structs. Keys the table lacks keep the struct's
// values. Then every field is checked against its range and oneof tags. Unknown keys
// (with the nearest known one), values of the wrong type and values out of range are
// all reported, each naming its key and what is allowed, joined into one error.
//
// With more structs, the table's keys are shared out among them: each key goes to the
// first struct that has it (options every task of a family takes in one struct, a
// task's own in another, say).
func (d Decoder) Decode(table map[string]any, dst any, more ...any) error {
	var vs []reflect.Value
	for _, p := range append([]any{dst}, more...) {
		v := reflect.ValueOf(p)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return fmt.Errorf("option: Decode needs pointers to structs, got %T", p)
		}
		vs = append(vs, v.Elem())
	}
	var errs []error
	d.assign(vs, table, d.Prefix, &errs)
	for _, v := range vs {
		d.check(v, d.Prefix, &errs)
	}
	return errors.Join(errs...)
}

// DecodeValue decodes one value into dst, a pointer to a value of a type Decode
// handles, with Decode's conversions and messages; key names it in errors. Range and
// oneof tags do not apply: there is no field to carry them.
func (d Decoder) DecodeValue(key string, v any, dst any) error {
	p := reflect.ValueOf(dst)
	if p.Kind() != reflect.Pointer || p.IsNil() {
		return fmt.Errorf("option: DecodeValue needs a pointer, got %T", dst)
	}
	return d.set(p.Elem(), v, d.Prefix+key)
}

// UnknownKey is the error Decode gives for a key not among known: it lists them and
// suggests the nearest.
func (d Decoder) UnknownKey(key string, known []string) error {
	return d.unknownKey(d.Prefix+key, d.Prefix, known)
}

// Keys returns the keys of the struct dst (or a pointer to it), in field order.
func Keys(dst any) []string {
	t := reflect.TypeOf(dst)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return keysOf(t)
}

// Lookup resolves a dotted key in the struct type t, walking into sections. It
// returns the field the key names; when the key goes below a table field (a map),
// it returns that field and the keys below it in rest. An unknown name is an error
// with the nearest known one, as Decode reports it.
func (d Decoder) Lookup(t reflect.Type, key string) (f reflect.StructField, rest string, err error) {
	parts := strings.Split(key, ".")
	for i, p := range parts {
		prefix := d.Prefix + strings.Join(parts[:i], ".")
		if i > 0 {
			prefix += "."
		}
		var ok bool
		if f, ok = fieldByKey(t, p); !ok {
			return f, "", d.unknownKey(prefix+p, prefix, keysOf(t))
		}
		last := i == len(parts)-1
		ft := section(f.Type)
		switch {
		case last:
			return f, "", nil
		case ft.Kind() == reflect.Struct:
			t = ft
		case ft.Kind() == reflect.Map:
			return f, strings.Join(parts[i+1:], "."), nil
		default:
			return f, "", fmt.Errorf("%s%s: %s%s is a single value, not a table", d.Prefix, key, prefix, p)
		}
	}
	return f, "", nil
}

// section returns the struct type a section field holds (through a pointer), or t.
func section(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		return t.Elem()
	}
	return t
}

// fields lists a struct's keys as fields: its own and those of embedded structs,
// without unexported fields and fields that have no toml tag or toml:"-".
func fields(t reflect.Type) []reflect.StructField {
	var fs []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		if n := tagName(f); n == "" || n == "-" {
			continue
		}
		fs = append(fs, f)
	}
	return fs
}

func tagName(f reflect.StructField) string {
	n, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return n
}

func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for _, f := range fields(t) {
		if tagName(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func keysOf(t reflect.Type) []string {
	var ks []string
	for _, f := range fields(t) {
		ks = append(ks, tagName(f))
	}
	return ks
}

// key writes a key for a message about its value: "option frame_skip" or "ppo.gamma".
func (d Decoder) key(k string) string {
	if d.Noun == "" || d.Noun == "key" {
		return k
	}
	return d.Noun + " " + k
}

func (d Decoder) unknownKey(full, prefix string, keys []string) error {
	noun := d.Noun
	if noun == "" {
		noun = "key"
	}
	where := "[" + strings.TrimSuffix(prefix, ".") + "]"
	if prefix == d.Prefix {
		where = d.Root
		if where == "" {
			where = "the table"
		}
	}
	msg := fmt.Sprintf("unknown %s %s: %s takes: %s", noun, full, where, strings.Join(keys, ", "))
	if len(keys) == 0 {
		msg = fmt.Sprintf("unknown %s %s: %s takes no %ss", noun, full, where, noun)
	}
	if s := Closest(full[len(prefix):], keys); s != "" {
		msg += fmt.Sprintf(" (did you mean %s%s?)", prefix, s)
	}
	return errors.New(msg)
}

// assign copies table into the structs vs (each key into the first that has it),
// appending a problem per bad key to errs.
func (d Decoder) assign(vs []reflect.Value, table map[string]any, prefix string, errs *[]error) {
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		full := prefix + k
		var v reflect.Value
		var f reflect.StructField
		for _, c := range vs {
			var ok bool
			if f, ok = fieldByKey(c.Type(), k); ok {
				v = c
				break
			}
		}
		if !v.IsValid() {
			var known []string
			for _, c := range vs {
				known = append(known, keysOf(c.Type())...)
			}
			*errs = append(*errs, d.unknownKey(full, prefix, known))
			continue
		}
		fv := v.FieldByIndex(f.Index)
		if fv.Kind() == reflect.Pointer && fv.Type().Elem().Kind() == reflect.Struct {
			if fv.IsNil() {
				fv.Set(reflect.New(fv.Type().Elem()))
			}
			fv = fv.Elem()
		}
		if fv.Kind() == reflect.Struct {
			sub, ok := table[k].(map[string]any)
			if !ok {
				*errs = append(*errs, fmt.Errorf("%s: want a table [%s] of keys (%s), got %s",
					d.key(full), full, strings.Join(keysOf(fv.Type()), ", "), Kind(table[k])))
				continue
			}
			d.assign([]reflect.Value{fv}, sub, full+".", errs)
			continue
		}
		if err := d.set(fv, table[k], full); err != nil {
			*errs = append(*errs, err)
		}
	}
}

// Kind names the kind of a decoded value for messages: "a string", "an integer", ...
func Kind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int, int64, int32:
		return "an integer"
	case float64, float32:
		return "a number"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("a %T", v)
}

// Literal writes a decoded value as TOML text, for messages and for -set overrides:
// strings quoted, numbers in their shortest form, arrays in brackets.
func Literal(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return formatFloat(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Literal(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func formatFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// numeric reads a decoded number: TOML's int64 and float64, JSON's float64, a Go
// caller's int or float32. Integers come exactly in n as well as in x.
func numeric(v any) (x float64, n int64, isInt, ok bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), v, true, true
	case int:
		return float64(v), int64(v), true, true
	case int32:
		return float64(v), int64(v), true, true
	case float64:
		return v, 0, false, true
	case float32:
		return float64(v), 0, false, true
	}
	return 0, 0, false, false
}

// asInt reads an integer: an integer, or a whole float (JSON has no integers).
func asInt(v any) (int64, bool) {
	x, n, isInt, ok := numeric(v)
	if isInt {
		return n, true
	}
	if !ok || x != math.Trunc(x) || math.Abs(x) > 1<<62 {
		return 0, false
	}
	return int64(x), true
}

// asFloat reads a number: a float, or an integer converted.
func asFloat(v any) (float64, bool) {
	x, _, _, ok := numeric(v)
	return x, ok
}

// set stores a value into a field, or says what the key wants.
func (d Decoder) set(fv reflect.Value, val any, key string) error {
	wrong := func(want string) error {
		k := d.key(key)
		switch val.(type) {
		case map[string]any, []any, nil:
		default:
			k += " = " + Literal(val)
		}
		return fmt.Errorf("%s: want %s, got %s", k, want, Kind(val))
	}
	switch fv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := asInt(val)
		if !ok || fv.OverflowInt(n) {
			return wrong("an integer")
		}
		fv.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := asInt(val)
		if !ok || n < 0 || fv.OverflowUint(uint64(n)) {
			return wrong("a non-negative integer")
		}
		fv.SetUint(uint64(n))
	case reflect.Float32, reflect.Float64:
		x, ok := asFloat(val)
		if !ok {
			return wrong("a number")
		}
		fv.SetFloat(x)
	case reflect.Bool:
		b, ok := val.(bool)
		if !ok {
			return wrong("true or false")
		}
		fv.SetBool(b)
	case reflect.String:
		s, ok := val.(string)
		if !ok {
			return wrong("a string")
		}
		fv.SetString(s)
	case reflect.Interface:
		if val != nil && !reflect.TypeOf(val).AssignableTo(fv.Type()) {
			return wrong("a value of type " + fv.Type().String())
		}
		fv.Set(reflect.ValueOf(&val).Elem())
	case reflect.Slice, reflect.Array:
		return d.setList(fv, val, key, wrong)
	case reflect.Map:
		m, ok := val.(map[string]any)
		if !ok || fv.Type() != reflect.TypeOf(m) {
			return wrong("a table")
		}
		fv.Set(reflect.ValueOf(m))
	default:
		return fmt.Errorf("%s: unsupported field kind %v (a bug in the struct's declaration)", key, fv.Kind())
	}
	return nil
}

// setList stores an array into a slice field, or into an array field of the same
// length (a pair [low, high], say).
func (d Decoder) setList(fv reflect.Value, val any, key string, wrong func(string) error) error {
	arr, ok := val.([]any)
	if !ok {
		if rv := reflect.ValueOf(val); rv.Kind() == reflect.Slice { // []float64 from a Go caller
			arr = make([]any, rv.Len())
			for i := range arr {
				arr[i] = rv.Index(i).Interface()
			}
		} else {
			return wrong(listWant(fv.Type()))
		}
	}
	out := fv
	if fv.Kind() == reflect.Slice {
		out = reflect.MakeSlice(fv.Type(), len(arr), len(arr))
	} else if len(arr) != fv.Len() {
		return wrong(listWant(fv.Type()))
	} else {
		out = reflect.New(fv.Type()).Elem()
	}
	for i, e := range arr {
		if err := d.set(out.Index(i), e, fmt.Sprintf("%s[%d]", key, i)); err != nil {
			return err
		}
	}
	fv.Set(out)
	return nil
}

// listWant says what a list field takes: "an array of integers, e.g. [64, 64]",
// "an array of 2 numbers".
func listWant(t reflect.Type) string {
	elem := TypeName(t.Elem()) + "s"
	if t.Kind() == reflect.Array {
		return fmt.Sprintf("an array of %d %s", t.Len(), elem)
	}
	switch t.Elem().Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an array of integers, e.g. [64, 64]"
	case reflect.Interface:
		return "an array"
	}
	return "an array of " + elem
}

// TypeName names a field's type for help text: integer, number, boolean, string,
// list of integers, table.
func TypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Interface {
			return "list"
		}
		return "list of " + TypeName(t.Elem()) + "s"
	case reflect.Map:
		return "table"
	case reflect.Interface:
		return "value"
	}
	return t.Kind().String()
}
