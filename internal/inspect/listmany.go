package inspect

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ListMany lists the runs named by several arguments, newest first. Each argument is a
// folder of runs (read as List reads it), a run directory, or a glob of either
// (runs/pong-*), expanded here when the shell left it quoted (a path that exists is
// taken as it is, whatever its characters); a glob that matches
// nothing is an error. With one argument that is a folder of runs the result is
// List's, names relative to that folder; otherwise each run's name is its path, so
// runs of different folders stay apart. A run reached twice is listed once.
func ListMany(args []string) ([]*Run, []Skipped, error) {
	type target struct {
		path  string
		glob  bool // came from a glob's expansion
		alone bool // the only argument
	}
	var targets []target
	for _, a := range args {
		if _, err := os.Stat(a); err == nil || !hasGlobMeta(a) {
			targets = append(targets, target{path: a})
			continue
		}
		matches, err := filepath.Glob(a)
		if err != nil {
			return nil, nil, fmt.Errorf("runs: bad pattern %q: %w", a, err)
		}
		if len(matches) == 0 {
			return nil, nil, fmt.Errorf("runs: no run or folder matches %q", a)
		}
		for _, m := range matches {
			targets = append(targets, target{path: m, glob: true})
		}
	}
	if len(targets) == 1 && !targets[0].glob && !IsRunDir(targets[0].path) {
		return List(targets[0].path)
	}
	var all []*Run
	var skipped []Skipped
	seen := map[string]bool{}
	add := func(r *Run) {
		key := r.Path
		if abs, err := filepath.Abs(r.Path); err == nil {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			all = append(all, r)
		}
	}
	for _, t := range targets {
		st, err := os.Stat(t.path)
		switch {
		case err != nil:
			return nil, nil, fmt.Errorf("runs: cannot list %s: %w", t.path, err)
		case !st.IsDir():
			// A glob's match may be a file beside the run folders; a named file is a mistake.
			if !t.glob {
				return nil, nil, fmt.Errorf("runs: %s is a file, not a run directory or a folder of runs", t.path)
			}
			skipped = append(skipped, Skipped{t.path, "a file, not a run directory"})
		case IsRunDir(t.path):
			r, err := Load(t.path)
			if err != nil {
				skipped = append(skipped, Skipped{t.path, err.Error()})
				continue
			}
			r.Name = filepath.ToSlash(filepath.Clean(t.path))
			add(r)
		default:
			rs, sk, err := List(t.path)
			if err != nil {
				return nil, nil, err
			}
			for _, r := range rs {
				r.Name = filepath.ToSlash(filepath.Join(t.path, r.Name))
				add(r)
			}
			skipped = append(skipped, sk...)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if !all[i].Start.Equal(all[j].Start) {
			return all[i].Start.After(all[j].Start)
		}
		return all[i].Name < all[j].Name
	})
	return all, skipped, nil
}

// hasGlobMeta reports whether s holds a character filepath.Match treats specially.
func hasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[") }
