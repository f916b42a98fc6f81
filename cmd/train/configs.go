package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/BurntSushi/toml"

	"github.com/rlpool/rlpool/configs"
	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/sweep"
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

// bundledSweepDir, in a sweep folder, holds the bundled sweep file a sweep was
// started from and its base config: the trials, a resumed sweep and Slurm's nodes
// read them there. The leading dot keeps it out of train runs list.
const bundledSweepDir = ".bundled"

// loadSweep resolves -config NAME of train sweep as loadConfig does a run config's:
// an existing file wins; otherwise NAME is a bundled sweep ("sweeps/cartpole-lr-clip",
// "cartpole-lr-clip", with or without configs/ and .toml). A bundled sweep is written
// out with its base config, into the sweep folder's .bundled/ when keep is true (the
// sweep is to run), else into a temporary folder removed once the file is read.
func loadSweep(name string, keep bool) (*sweep.Spec, error) {
	if st, err := os.Stat(name); err == nil && !st.IsDir() {
		return sweep.Load(name)
	}
	b, ok := configs.Lookup(name)
	if !ok || !strings.Contains(b, "/") {
		b, ok = configs.Lookup("sweeps/" + strings.TrimPrefix(name, "configs/"))
	}
	if !ok {
		return nil, fmt.Errorf("-config %s: no such file, and no bundled sweep of that name; bundled: %s (train configs lists them)",
			name, strings.Join(bundledSweeps(), ", "))
	}
	tmp, err := os.MkdirTemp("", "rlpool-sweep-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	spec, err := writeBundledSweep(b, tmp)
	if err != nil || !keep {
		return spec, err
	}
	return writeBundledSweep(b, filepath.Join(spec.Folder(), bundledSweepDir))
}

// writeBundledSweep writes the bundled sweep file b (a name under configs/) and its
// base config, if that is bundled too, below root in configs/' layout, so that the
// base's relative path holds, and loads the sweep from there.
func writeBundledSweep(b, root string) (*sweep.Spec, error) {
	data, err := configs.Read(b)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{b: data}
	var head struct{ Sweep struct{ Base string } }
	if _, err := toml.Decode(string(data), &head); err == nil && head.Sweep.Base != "" && !path.IsAbs(head.Sweep.Base) {
		if base, ok := configs.Lookup(path.Join(path.Dir(b), head.Sweep.Base)); ok {
			if files[base], err = configs.Read(base); err != nil {
				return nil, err
			}
		}
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return nil, err
		}
	}
	return sweep.Load(filepath.Join(root, filepath.FromSlash(b)))
}

// bundledSweeps lists the bundled sweeps' names as train configs shows them.
func bundledSweeps() []string {
	var names []string
	for _, n := range configs.Names() {
		if strings.Contains(n, "/") {
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
		fmt.Fprintf(tw, "%s\t%s\n", strings.TrimSuffix(n, ".toml"), shorten(configs.Purpose(n), purposeWidth))
	}
	return tw.Flush()
}

// purposeWidth is how many characters of a config's purpose `train configs` shows,
// so that each line of the table fits a terminal beside the longest name.
const purposeWidth = 80

// shorten cuts text to at most width characters at a word boundary, ending it with
// an ellipsis when it cut; a first word longer than width is cut within it.
func shorten(text string, width int) string {
	r := []rune(text)
	if len(r) <= width {
		return text
	}
	// Room for the ellipsis; a cut within a word goes back to the word's start.
	cut := string(r[:width-1])
	if r[width-1] != ' ' {
		if i := strings.LastIndexByte(cut, ' '); i > 0 {
			cut = cut[:i]
		}
	}
	return strings.TrimRight(cut, " ,;:(") + "…"
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
