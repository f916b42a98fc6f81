package main

import (
	"reflect"
	"strings"
	"testing"
)

// -env-opt values are TOML values, bare words strings, in bench and eval alike.
func TestParseEnvOpts(t *testing.T) {
	got, err := parseEnvOpts([]string{"frame_skip=4", "full_action_space=true", `map_name="8x8"`,
		"size=8x8", "repeat_action_probability=0.25", "healthy_z_range=0.2,1"})
	want := map[string]any{"frame_skip": int64(4), "full_action_space": true, "map_name": "8x8",
		"size": "8x8", "repeat_action_probability": 0.25, "healthy_z_range": []any{0.2, int64(1)}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("parseEnvOpts = %v, %v\nwant %v", got, err, want)
	}
	if _, err := parseEnvOpts([]string{"frame_skip"}); err == nil || !strings.Contains(err.Error(), "-env-opt") || !strings.Contains(err.Error(), "key=value") {
		t.Errorf("an option without a value: %v", err)
	}
}
