package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// applyOverride sets one "key=value" override in the raw table. The value is parsed by
// the type the schema gives the key: run.name=abc needs no quotes, ppo.learning_rate=3e-4
// is a number, net.hidden=64,64 (or [64, 64]) a list. Keys under env.options are
// family options: their values are read as TOML values, or as strings when they are
// not valid TOML.
func applyOverride(raw map[string]any, o string) error {
	key, text, ok := strings.Cut(o, "=")
	key, text = strings.TrimSpace(key), strings.TrimSpace(text)
	if !ok || key == "" {
		return fmt.Errorf("-set %q: write key=value, e.g. -set ppo.learning_rate=3e-4", o)
	}
	parts := strings.Split(key, ".")
	t := schemaType()
	table := raw
	for i, p := range parts {
		prefix := strings.Join(parts[:i], ".")
		if prefix != "" {
			prefix += "."
		}
		f, ok := fieldByKey(t, p)
		if !ok {
			return unknownKey(key, prefix, t)
		}
		last := i == len(parts)-1
		ft := f.Type
		if ft.Kind() == reflect.Pointer { // a learner's section
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.Struct:
			if last {
				return fmt.Errorf("-set %s: %s is a section; set one of its keys (%s)", key, key, strings.Join(keysOf(ft), ", "))
			}
			table = subTable(table, p)
			t = ft
		case f.Type.Kind() == reflect.Map:
			if last {
				return fmt.Errorf("-set %s: set one option at a time, e.g. -set %s.frame_skip=4", key, key)
			}
			table = subTable(table, p)
			for _, q := range parts[i+1 : len(parts)-1] {
				table = subTable(table, q)
			}
			table[parts[len(parts)-1]] = parseLoose(text)
			return nil
		default:
			if !last {
				return fmt.Errorf("-set %s: %s%s is a single value, not a table", key, prefix, p)
			}
			v, err := parseTyped(f.Type, text, key)
			if err != nil {
				return err
			}
			table[p] = v
			return nil
		}
	}
	return nil
}

// subTable returns table[k] as a table, creating (or replacing a non-table with) an
// empty one.
func subTable(table map[string]any, k string) map[string]any {
	if m, ok := table[k].(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	table[k] = m
	return m
}

// parseLoose reads text as a TOML value, falling back to the string itself.
func parseLoose(text string) any {
	var m map[string]any
	if _, err := toml.Decode("v = "+text, &m); err == nil {
		return m["v"]
	}
	return text
}

// parseTyped reads an override value for a field of type t, returning the Go value
// TOML would have decoded (int64, float64, bool, string, []any).
func parseTyped(t reflect.Type, text, key string) (any, error) {
	switch t.Kind() {
	case reflect.String:
		if s, err := strconv.Unquote(text); err == nil {
			return s, nil
		}
		return text, nil
	case reflect.Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, fmt.Errorf("-set %s=%s: want true or false", key, text)
		}
		return b, nil
	case reflect.Int, reflect.Int64:
		s := strings.ReplaceAll(text, "_", "")
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
		// 1e6 and 1_000_000 are both fine for step counts; setValue rejects fractions.
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, nil
		}
		return nil, fmt.Errorf("-set %s=%s: want an integer", key, text)
	case reflect.Float64:
		f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
		if err != nil {
			return nil, fmt.Errorf("-set %s=%s: want a number", key, text)
		}
		return f, nil
	case reflect.Slice:
		s := strings.TrimSuffix(strings.TrimPrefix(text, "["), "]")
		var out []any
		for _, e := range strings.Split(s, ",") {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			v, err := parseTyped(t.Elem(), e, key)
			if err != nil {
				return nil, fmt.Errorf("-set %s=%s: want a list of integers, e.g. 64,64", key, text)
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("-set %s: cannot set a value of kind %v", key, t.Kind())
}
