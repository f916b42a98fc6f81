package main

import (
	"fmt"

	"github.com/rlpool/rlpool/option"
)

// envOptHelp is the help of -env-opt, which bench and eval share.
const envOptHelp = "env family option key=value (repeatable); the value is a TOML value: " +
	`-env-opt frame_skip=4, -env-opt full_action_space=true, -env-opt map_name='"8x8"' ` +
	"(a bare word such as 8x8 is a string too, a list 0.2,1 an array)"

// parseEnvOpts reads -env-opt assignments into a family option table, each value by
// option.ParseValue, the one reading of key=value on train's command line.
func parseEnvOpts(kvs []string) (map[string]any, error) {
	m, err := option.ParseAssignments(kvs)
	if err != nil {
		return nil, fmt.Errorf("-env-opt %w", err)
	}
	return m, nil
}
