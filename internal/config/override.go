package config

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/rlpool/rlpool/option"
)

// applyOverride sets one "key=value" override in the raw table. The value is a TOML
// value read by option.ParseValue (ppo.learning_rate=3e-4 is a number, net.hidden=64,64
// or [64, 64] a list, a bare word a string); a key that takes a string takes the text
// as written (run.name=123 is the name "123"). Keys under env.options are family
// options, passed on as read.
func applyOverride(raw map[string]any, o string) error {
	key, text, err := option.SplitAssignment(o)
	if err != nil {
		return fmt.Errorf("-set %w, e.g. -set ppo.learning_rate=3e-4", err)
	}
	f, rest, err := decoder.Lookup(schemaType(), key)
	if err != nil {
		return err
	}
	ft := f.Type
	if ft.Kind() == reflect.Pointer { // a learner's section
		ft = ft.Elem()
	}
	switch {
	case ft.Kind() == reflect.Struct:
		return fmt.Errorf("-set %s: %s is a section; set one of its keys (%s)", key, key, strings.Join(option.Keys(reflect.New(ft).Interface()), ", "))
	case ft.Kind() == reflect.Map && rest == "":
		return fmt.Errorf("-set %s: set one option at a time, e.g. -set %s.frame_skip=4", key, key)
	}
	v := option.ParseValue(text)
	if _, isString := v.(string); ft.Kind() == reflect.String && !isString {
		v = text
	}
	option.Set(raw, key, v)
	return nil
}
