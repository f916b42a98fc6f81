package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/rlpool/rlpool/configs"
	"github.com/rlpool/rlpool/internal/config"
)

// loadConfig resolves -config NAME: an existing file wins; otherwise a bare name
// ("pong", "pong.toml", "configs/pong.toml") is the run config of that name bundled in
// the binary. source says which was used, for the run's config.toml header.
func loadConfig(name string, sets []string) (cfg *config.Config, source string, err error) {
	if st, statErr := os.Stat(name); statErr == nil && !st.IsDir() {
		source = name
		if abs, err := filepath.Abs(name); err == nil {
			source = abs
		}
		cfg, err = config.Load(name, sets)
		return cfg, source, err
	}
	b, ok := configs.Lookup(name)
	if !ok || strings.Contains(b, "/") { // sweeps are run with train sweep
		return nil, "", fmt.Errorf("-config %s: no such file, and no bundled config of that name; bundled: %s (train configs lists them)",
			name, strings.Join(bundledRunConfigs(), ", "))
	}
	data, err := configs.Read(b)
	if err != nil {
		return nil, "", err
	}
	source = "bundled configs/" + b
	cfg, err = config.Parse(data, source, sets)
	return cfg, source, err
}

// bundledRunConfigs lists the bundled run configs' names without .toml.
func bundledRunConfigs() []string {
	var names []string
	for _, n := range configs.Names() {
		if !strings.Contains(n, "/") {
			names = append(names, strings.TrimSuffix(n, ".toml"))
		}
	}
	return names
}

// runConfigs is `train configs`: every bundled run config and sweep with its purpose.
func runConfigs(args []string) error { return configsMain(args, os.Stdout) }

// configsMain is runConfigs writing to w.
func configsMain(args []string, w io.Writer) error {
	if len(args) > 0 {
		return errors.New("takes no arguments; train -config NAME runs a bundled config, train sweep -config FILE a sweep")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPURPOSE")
	for _, n := range configs.Names() {
		fmt.Fprintf(tw, "%s\t%s\n", strings.TrimSuffix(n, ".toml"), configs.Purpose(n))
	}
	return tw.Flush()
}

// runConfigHelp is `train config [KEY|SECTION]`: the schema's keys with type,
// default, allowed values and help.
func runConfigHelp(args []string) error { return configMain(args, os.Stdout) }

// configMain is runConfigHelp writing to w.
func configMain(args []string, w io.Writer) error {
	var es []config.Entry
	switch len(args) {
	case 0:
		es = config.Entries()
	case 1:
		var err error
		if es, err = config.Describe(args[0]); err != nil {
			return err
		}
	default:
		return errors.New("usage: train config [KEY|SECTION], e.g. train config ppo.clip_coef")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	section := ""
	for _, e := range es {
		if s, _, _ := strings.Cut(e.Key, "."); s != section {
			if section != "" {
				fmt.Fprintln(tw)
			}
			section = s
			fmt.Fprintf(tw, "[%s]\n", s)
		}
		allowed := e.Allowed
		if allowed == "" {
			allowed = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\tdefault %s\t%s\t%s\n", e.Key, e.Type, e.Default, allowed, e.Help)
	}
	return tw.Flush()
}
