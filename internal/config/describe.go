package config

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/rlpool/rlpool/option"
)

// Entry describes one config key for `train config`: its dotted key, type, default,
// allowed values (from the range and oneof tags) and help.
type Entry = option.Field

// Entries walks the schema (learner sections included) and returns every key in
// section order, with the defaults of Default().
func Entries() []Entry {
	c := Default()
	return option.Describe(c.schema().Interface())
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
	f, rest, err := decoder.Lookup(schemaType(), key)
	if err != nil {
		return nil, err
	}
	if rest != "" && f.Type.Kind() == reflect.Map {
		return nil, fmt.Errorf("%s: keys under %s are the env family's own options, not in the schema", key, strings.TrimSuffix(key, "."+rest))
	}
	return nil, fmt.Errorf("unknown key %s", key)
}
