package archtest

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is the project's import path; the rules below name packages relative to it.
const module = "github.com/rlpool/rlpool"

// libraries are the folders (relative to the module) of the libraries, which must
// not know the application built on them.
var libraries = []string{"agent", "envs", "envpool", "option"}

// checked are the folders whose packages the rules constrain: the libraries and clib,
// the C-library loader below them.
var checked = append(slices.Clone(libraries), "clib")

// rule forbids packages matched by from to depend, directly or through other
// packages, on packages matched by to.
type rule struct {
	name     string
	from, to func(rel string) bool // rel: import path relative to the module ("" outside it)
}

// under reports whether rel is dir or a package below it.
func under(dir string) func(rel string) bool {
	return func(rel string) bool { return rel == dir || strings.HasPrefix(rel, dir+"/") }
}

// rules are the layering of DESIGN.md: dependencies point down, and envpool is the
// only thing a learner and an environment family have in common.
var rules = []rule{
	{"agent, envs and envpool never depend on internal/", anyOf(libraries...), under("internal")},
	{"agent, envs and envpool never depend on cmd/", anyOf(libraries...), under("cmd")},
	{"envpool depends on no other rlpool package", under("envpool"), func(rel string) bool {
		return rel != "" && !under("envpool")(rel)
	}},
	{"agent never depends on envs or a family under it", under("agent"), under("envs")},
	{"clib depends on no other rlpool package", under("clib"), func(rel string) bool {
		return rel != "" && !under("clib")(rel)
	}},
	{"option depends on no other rlpool package", under("option"), func(rel string) bool {
		return rel != "" && !under("option")(rel)
	}},
}

// anyOf reports whether rel is in or below any of dirs.
func anyOf(dirs ...string) func(rel string) bool {
	return func(rel string) bool {
		return slices.ContainsFunc(dirs, func(d string) bool { return under(d)(rel) })
	}
}

// relative returns path relative to the module, "." for the module's root package,
// or "" for a package outside the module.
func relative(path string) string {
	if path == module {
		return "."
	}
	if rel, ok := strings.CutPrefix(path, module+"/"); ok {
		return rel
	}
	return ""
}

// graph maps each package to its direct (non-test) imports.
type graph map[string][]string

// violations returns one line per package matched by a rule's from that reaches a
// package matched by its to, with the shortest import chain that gets there.
func violations(g graph, rules []rule) []string {
	var out []string
	pkgs := slices.Sorted(maps.Keys(g))
	for _, r := range rules {
		for _, p := range pkgs {
			if rel := relative(p); rel == "" || !r.from(rel) {
				continue
			}
			if chain := shortestChain(g, p, func(q string) bool { return r.to(relative(q)) }); chain != nil {
				out = append(out, fmt.Sprintf("%s: %s", r.name, strings.Join(chain, " -> ")))
			}
		}
	}
	return out
}

// shortestChain returns the shortest import chain from start to a package for which
// bad holds (start itself excluded), or nil if there is none.
func shortestChain(g graph, start string, bad func(string) bool) []string {
	parent := map[string]string{start: ""}
	queue := []string{start}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range g[p] {
			if _, seen := parent[q]; seen {
				continue
			}
			parent[q] = p
			if bad(q) {
				chain := []string{q}
				for at := p; at != ""; at = parent[at] {
					chain = append(chain, at)
				}
				slices.Reverse(chain)
				return chain
			}
			queue = append(queue, q)
		}
	}
	return nil
}

// goListDeps runs `go list -deps` on patterns and returns the import graph of every
// package it lists and the packages the patterns matched themselves.
func goListDeps(t *testing.T, patterns ...string) (graph, []string) {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the layering check runs the go command, and there is no go on PATH: %v", err)
	}
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}}\t{{.DepOnly}}\t{{join .Imports \" \"}}"}, patterns...)
	cmd := exec.Command(gocmd, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	g := graph{}
	var matched []string
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		path, rest, _ := strings.Cut(sc.Text(), "\t")
		depOnly, imports, _ := strings.Cut(rest, "\t")
		g[path] = strings.Fields(imports)
		if depOnly == "false" {
			matched = append(matched, path)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return g, matched
}

// TestLayering checks the rules on the real import graph of agent/..., envs/... and
// envpool/... .
func TestLayering(t *testing.T) {
	var patterns []string
	for _, d := range checked {
		patterns = append(patterns, module+"/"+d+"/...")
	}
	g, matched := goListDeps(t, patterns...)
	// A pattern that matches nothing would make every rule hold vacuously.
	for _, d := range checked {
		if !slices.ContainsFunc(matched, func(p string) bool { return under(d)(relative(p)) }) {
			t.Fatalf("go list matched no package under %s/; the check would be empty", d)
		}
	}
	for _, v := range violations(g, rules) {
		t.Error(v)
	}
}

// TestViolationsNamesTheChain checks the checker itself on a small made-up graph, so
// that a checker that could never fail is caught even while the real graph is clean.
func TestViolationsNamesTheChain(t *testing.T) {
	m := func(rel string) string { return module + "/" + rel }
	g := graph{
		m("envpool"):                  {"fmt", m("envs/atari/vcs")},
		m("envs/atari/vcs"):           {"fmt"},
		m("envs/classic"):             {m("envpool"), "math"},
		m("envs/mujoco"):              {m("envs/mujoco/internal/gen")},
		m("envs/mujoco/internal/gen"): nil,
		m("agent"):                    {m("agent/nn"), m("envpool")},
		m("agent/nn"):                 {m("internal/config")},
		m("agent/ppo"):                {m("agent"), m("envs/classic")},
		m("internal/config"):          {m("cmd/train")},
		m("cmd/train"):                nil,
		m("clib"):                     {m("envpool"), "fmt"},
		"fmt":                         nil,
		"math":                        nil,
	}
	got := violations(g, rules)
	want := []string{
		"agent, envs and envpool never depend on internal/: " + m("agent") + " -> " + m("agent/nn") + " -> " + m("internal/config"),
		"agent, envs and envpool never depend on internal/: " + m("agent/nn") + " -> " + m("internal/config"),
		"agent, envs and envpool never depend on internal/: " + m("agent/ppo") + " -> " + m("agent") + " -> " + m("agent/nn") + " -> " + m("internal/config"),
		"agent, envs and envpool never depend on cmd/: " + m("agent") + " -> " + m("agent/nn") + " -> " + m("internal/config") + " -> " + m("cmd/train"),
		"agent, envs and envpool never depend on cmd/: " + m("agent/nn") + " -> " + m("internal/config") + " -> " + m("cmd/train"),
		"agent, envs and envpool never depend on cmd/: " + m("agent/ppo") + " -> " + m("agent") + " -> " + m("agent/nn") + " -> " + m("internal/config") + " -> " + m("cmd/train"),
		"envpool depends on no other rlpool package: " + m("envpool") + " -> " + m("envs/atari/vcs"),
		"agent never depends on envs or a family under it: " + m("agent") + " -> " + m("envpool") + " -> " + m("envs/atari/vcs"),
		"agent never depends on envs or a family under it: " + m("agent/ppo") + " -> " + m("envs/classic"),
		"clib depends on no other rlpool package: " + m("clib") + " -> " + m("envpool"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// envs/mujoco's own internal/ package is not the application's internal/.
	for _, v := range got {
		if strings.Contains(v, "envs/mujoco/internal") {
			t.Errorf("envs/mujoco/internal/... reported as the application's internal/: %s", v)
		}
	}
}
