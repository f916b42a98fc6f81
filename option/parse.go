package option

import (
	"fmt"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// ParseValue reads the value of a command-line assignment (train -set, -env-opt) as
// a TOML value: 4 is an integer, 0.25 and 1e6 numbers, true a boolean, "8x8" a
// string, [64, 64] an array. Text that TOML reads as a date or time is kept as text,
// since no key takes a date (a run named 2026-01-01 stays that string). Text that is not a TOML value is taken as written: a
// comma-separated list (64,64) as an array of its TOML values, anything else (8x8,
// runs/x) as a string, so bare words need no quotes.
func ParseValue(text string) any {
	text = strings.TrimSpace(text)
	if v, ok := tomlValue(text); ok {
		switch v.(type) {
		case time.Time:
			return text
		}
		return v
	}
	if strings.Contains(text, ",") {
		if v, ok := tomlValue("[" + text + "]"); ok {
			return v
		}
	}
	return text
}

func tomlValue(text string) (any, bool) {
	var m map[string]any
	if _, err := toml.Decode("v = "+text, &m); err != nil {
		return nil, false
	}
	v, ok := m["v"]
	return v, ok
}

// SplitAssignment splits "key=value" into its trimmed key and value text.
func SplitAssignment(s string) (key, text string, err error) {
	key, text, ok := strings.Cut(s, "=")
	key, text = strings.TrimSpace(key), strings.TrimSpace(text)
	if !ok || key == "" {
		return "", "", fmt.Errorf("%q: write key=value", s)
	}
	return key, text, nil
}

// Set stores v at a dotted key of table, making (or replacing non-tables with) the
// tables on the way: Set(t, "ppo.gamma", 0.9) sets t["ppo"]["gamma"].
func Set(table map[string]any, key string, v any) {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		sub, ok := table[p].(map[string]any)
		if !ok {
			sub = map[string]any{}
			table[p] = sub
		}
		table = sub
	}
	table[parts[len(parts)-1]] = v
}

// ParseAssignments reads "key=value" assignments into a table, each value by
// ParseValue and dotted keys into sub-tables; later assignments win.
func ParseAssignments(assignments []string) (map[string]any, error) {
	m := map[string]any{}
	for _, a := range assignments {
		key, text, err := SplitAssignment(a)
		if err != nil {
			return nil, err
		}
		Set(m, key, ParseValue(text))
	}
	return m, nil
}
