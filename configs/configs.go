// Package configs bundles rlpool's run configs (*.toml) and sweep specs
// (sweeps/*.toml) into the train binary, so that `train -config pong` works from any
// folder.
package configs

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// DefaultTask is the task of the built-in defaults (internal/config's Default) and of
// `train bench` without -task: the defaults hold CleanRL's PPO settings for it, and
// cartpole.toml trains it.
const DefaultTask = "CartPole-v1"

//go:embed *.toml sweeps/*.toml
var files embed.FS

// FS returns the bundled files: NAME.toml at the root, sweeps/NAME.toml below.
func FS() fs.FS { return files }

// Names lists every bundled file by its path relative to configs/ (e.g. "pong.toml",
// "sweeps/cartpole-lr-clip.toml"), sorted, run configs before sweeps.
func Names() []string {
	var names []string
	fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".toml") {
			names = append(names, p)
		}
		return nil
	})
	sort.SliceStable(names, func(i, j int) bool {
		di, dj := strings.Contains(names[i], "/"), strings.Contains(names[j], "/")
		if di != dj {
			return !di
		}
		return names[i] < names[j]
	})
	return names
}

// Read returns the bundled file name ("pong.toml", "sweeps/x.toml").
func Read(name string) ([]byte, error) { return files.ReadFile(name) }

// Lookup resolves a bare name ("pong", "pong.toml", "sweeps/cartpole-lr-clip") to a
// bundled file's name; ok is false when none has that name.
func Lookup(name string) (string, bool) {
	n := path.Clean(strings.TrimPrefix(name, "configs/"))
	if !strings.HasSuffix(n, ".toml") {
		n += ".toml"
	}
	if _, err := fs.Stat(files, n); err != nil || strings.HasPrefix(n, "..") {
		return "", false
	}
	return n, true
}

// Purpose returns the first sentence of a bundled file's leading comment (what the
// file is for), its lines joined and without the "# " marks. The sentence may run
// over several comment lines; it ends at a period followed by a space, or at the
// comment paragraph's end.
func Purpose(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		return ""
	}
	var words []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "#") {
			if len(words) > 0 {
				break
			}
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		if text == "" {
			if len(words) > 0 {
				break // the end of the first paragraph
			}
			continue
		}
		words = append(words, strings.Fields(text)...)
	}
	out := strings.Join(words, " ")
	if i := strings.Index(out, ". "); i >= 0 {
		out = out[:i+1]
	}
	return out
}
