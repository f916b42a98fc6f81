package archtest

import (
	"slices"
	"strings"
	"testing"
)

// family reports whether rel is an environment family: a package below envs/ (envs
// itself, the task table, is not one).
func family(rel string) bool { return strings.HasPrefix(rel, "envs/") }

// familyBlind are the application packages that handle every env alike, through
// envpool's interfaces and capabilities (docs/design/engine.md, "Env capabilities"):
// they reach no family, not even through another package.
var familyBlind = []string{"internal/play", "internal/render"}

// familyRules forbid the family-blind packages any path to a family.
var familyRules = []rule{
	{"play and render know no env family", anyOf(familyBlind...), family},
}

// librlpool is the C library's package. It links every family in through a blank
// import of envs/all, so it reaches them all; its own source imports none directly.
const librlpool = "cmd/librlpool"

// TestFamilyBlindApplication checks that play and render reach no family and that
// librlpool's source imports no family but envs/all.
func TestFamilyBlindApplication(t *testing.T) {
	var patterns []string
	for _, p := range familyBlind {
		patterns = append(patterns, module+"/"+p)
	}
	// librlpool is all cgo: list it as a cgo build sees it (listing runs no compiler).
	t.Setenv("CGO_ENABLED", "1")
	g, matched := goListDeps(t, append(patterns, module+"/"+librlpool)...)
	for _, p := range append(slices.Clone(familyBlind), librlpool) {
		if !slices.Contains(matched, module+"/"+p) {
			t.Fatalf("go list did not match %s; the check would be empty", p)
		}
	}
	for _, v := range violations(g, familyRules) {
		t.Error(v)
	}
	imports := g[module+"/"+librlpool]
	if !slices.Contains(imports, module+"/envs") {
		t.Fatalf("%s imports %v, not envs: the listing is not of its cgo build", librlpool, imports)
	}
	for _, imp := range imports {
		if rel := relative(imp); family(rel) && rel != "envs/all" {
			t.Errorf("%s imports the family %s directly; it should use the capabilities every env shares", librlpool, rel)
		}
	}
}

// TestFamilyRulesNameTheChain checks the family rule on a made-up graph: a path to a
// family through other packages is found, the task table is not a family.
func TestFamilyRulesNameTheChain(t *testing.T) {
	m := func(rel string) string { return module + "/" + rel }
	g := graph{
		m("internal/play"):   {m("internal/render"), m("envs"), m("envpool")},
		m("internal/render"): {m("envs/atari")},
		m("envs"):            {m("envpool")},
		m("envs/atari"):      {m("envs/atari/vcs")},
		m("envs/atari/vcs"):  nil,
		m("envpool"):         nil,
	}
	got := violations(g, familyRules)
	want := []string{
		"play and render know no env family: " + m("internal/play") + " -> " + m("internal/render") + " -> " + m("envs/atari"),
		"play and render know no env family: " + m("internal/render") + " -> " + m("envs/atari"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
