package option

import (
	"sort"
	"strings"
)

// Distance is the Levenshtein distance between a and b, counted in runes: the fewest
// single-rune insertions, deletions and substitutions that turn a into b.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Suggest returns up to n of candidates that word is a plausible typo of, nearest
// first (ties in the candidates' order): those within max(2, len(word)/3) edits,
// ignoring case. It is the one "did you mean" of the project: config keys, options,
// sweep keys and task ids all use it.
func Suggest(word string, candidates []string, n int) []string {
	return SuggestFunc(word, candidates, n, func(w, c string) int {
		return Distance(strings.ToLower(w), strings.ToLower(c))
	})
}

// SuggestFunc is Suggest with the caller's distance, for names with rules of their
// own (a task id without its version suffix counts as close, say).
func SuggestFunc(word string, candidates []string, n int, dist func(word, candidate string) int) []string {
	limit := max(2, len([]rune(word))/3)
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	for _, c := range candidates {
		if d := dist(word, c); d <= limit {
			cs = append(cs, cand{c, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// Closest returns the one candidate Suggest puts first, or "" when none is close.
func Closest(word string, candidates []string) string {
	if s := Suggest(word, candidates, 1); len(s) > 0 {
		return s[0]
	}
	return ""
}
