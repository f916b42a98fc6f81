package minigrid

import (
	"fmt"
	"math/bits"
	"slices"
)

// MiniGrid-WFC: a maze grown by wave function collapse (the overlapping model) from a
// small example picture, as minigrid's WFCEnv grows it: every n x n patch of the
// example under its eight rotations and reflections is a pattern; a cell of the
// output takes one pattern, neighbouring patterns must agree where they overlap;
// the cell with the fewest patterns left (random tie breaks) is collapsed to one of
// them, drawn by weight, and the constraint propagated, until every cell has one
// pattern or one has none (and the attempt starts over). A pattern's top left tile
// is the cell's: a wall for a black tile, free otherwise. The largest connected free
// region is kept, the rest walled, and the agent and the goal put on two random
// squares of it.

// wfcPreset is one of minigrid's registered WFC configurations: its example picture
// (minigrid's patterns/*.png, one character a pixel: # black, . white, o any other
// colour), its pattern width and whether the output wraps around its edges.
type wfcPreset struct {
	picture  []string
	n        int
	periodic bool
}

// wfcPresets are the presets of EnvPool's six MiniGrid-WFC ids.
var wfcPresets = map[string]wfcPreset{
	"MazeSimple":         {[]string{"....", ".###", ".#.#", ".###"}, 2, false},
	"DungeonMazeScaled":  {[]string{"........", "........", "..######", "..######", "..##..##", "..##..##", "..######", "..######"}, 2, true},
	"RoomsFabric":        {[]string{"..#..", "..o..", "#####", "..o..", "..#.."}, 3, false},
	"ObstaclesBlackdots": {[]string{"...", ".#.", "..."}, 2, false},
	"ObstaclesAngular": {[]string{
		"...........", ".....#####.", ".....#####.", ".....#####.", ".....#####.", ".#########.",
		".#########.", ".#########.", ".#########.", ".#########.", "..........."}, 3, true},
	"ObstaclesHogs3": {[]string{
		".................", ".......#....#....", "..#...###..###...", ".###...#....#....", "..#..............",
		".........#.......", "....#...###...#..", "...###...#...###.", "....#.........#..", ".................",
		".......#....#....", "..#...###..###...", ".###...#....#....", "..#..#...#....#..", "....###.###..###.",
		".....#...#....#..", "................."}, 3, true},
}

// wfcMaxPatterns bounds a model's patterns: a cell's set of patterns is a patternSet.
const wfcMaxPatterns = 128

// patternSet is a set of pattern indices.
type patternSet [wfcMaxPatterns / 64]uint64

func (s *patternSet) add(p int)     { s[p/64] |= 1 << (p % 64) }
func (s *patternSet) remove(p int)  { s[p/64] &^= 1 << (p % 64) }
func (s patternSet) has(p int) bool { return s[p/64]&(1<<(p%64)) != 0 }
func (s patternSet) meets(t patternSet) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}

func (s patternSet) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// each calls f with each pattern of the set, in increasing order.
func (s patternSet) each(f func(p int)) {
	for i, w := range s {
		for ; w != 0; w &= w - 1 {
			f(i*64 + bits.TrailingZeros64(w))
		}
	}
}

// wfcModel is what a preset's picture teaches: the patterns, their weights (in how
// many of the picture's eight orientations each occurs, as minigrid counts them)
// and which may stand next to which.
type wfcModel struct {
	n        int
	periodic bool
	patterns [][]byte
	weights  []float64
	// allowed[d][p] are the patterns that may stand at offset wfcDirs[d] of p.
	allowed [4][]patternSet
	all     patternSet
}

// wfcDirs are the four neighbours' offsets.
var wfcDirs = [4]point{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

// newWFCModel learns a preset's model.
func newWFCModel(pr wfcPreset) (*wfcModel, error) {
	pic := make([][]byte, len(pr.picture))
	for y, row := range pr.picture {
		pic[y] = []byte(row)
	}
	m := &wfcModel{n: pr.n, periodic: pr.periodic}
	index := map[string]int{}
	// minigrid's orientations, each from the last: identity, then reflect and rotate
	// by turns.
	for k := range 8 {
		switch {
		case k == 0:
		case k%2 == 1:
			pic = reflect(pic)
		default:
			pic = rotate(pic)
		}
		seen := map[int]bool{}
		h, w := len(pic), len(pic[0])
		for y := range h {
			for x := range w {
				p := make([]byte, pr.n*pr.n)
				for j := range pr.n {
					for i := range pr.n {
						p[j*pr.n+i] = pic[(y+j)%h][(x+i)%w]
					}
				}
				id, ok := index[string(p)]
				if !ok {
					id = len(m.patterns)
					index[string(p)] = id
					m.patterns = append(m.patterns, p)
					m.weights = append(m.weights, 0)
				}
				if !seen[id] {
					seen[id] = true
					m.weights[id]++
				}
			}
		}
	}
	if len(m.patterns) > wfcMaxPatterns {
		return nil, fmt.Errorf("minigrid: a WFC picture with %d patterns (at most %d)", len(m.patterns), wfcMaxPatterns)
	}
	for p := range m.patterns {
		m.all.add(p)
	}
	for d, off := range wfcDirs {
		m.allowed[d] = make([]patternSet, len(m.patterns))
		for p, a := range m.patterns {
			for q, b := range m.patterns {
				if m.agree(a, b, off) {
					m.allowed[d][p].add(q)
				}
			}
		}
	}
	return m, nil
}

// agree reports whether pattern b placed at offset off of pattern a matches a where
// they overlap.
func (m *wfcModel) agree(a, b []byte, off point) bool {
	n := m.n
	for y := max(0, off.y); y < min(n, n+off.y); y++ {
		for x := max(0, off.x); x < min(n, n+off.x); x++ {
			if a[y*n+x] != b[(y-off.y)*n+(x-off.x)] {
				return false
			}
		}
	}
	return true
}

// reflect mirrors a picture left to right.
func reflect(pic [][]byte) [][]byte {
	out := make([][]byte, len(pic))
	for y, row := range pic {
		out[y] = slices.Clone(row)
		slices.Reverse(out[y])
	}
	return out
}

// rotate turns a picture a quarter clockwise.
func rotate(pic [][]byte) [][]byte {
	h, w := len(pic), len(pic[0])
	out := make([][]byte, w)
	for x := range w {
		out[x] = make([]byte, h)
		for y := range h {
			out[x][h-1-y] = pic[y][x]
		}
	}
	return out
}

// solve grows a w x h picture of tiles, or reports a contradiction. prefs are the
// cells' random tie breaks in [0, 0.1), minigrid's choice_random_weighting.
func (m *wfcModel) solve(g *gen, w, h int, prefs []float64) ([]byte, bool) {
	wave := make([]patternSet, w*h)
	p := propagation{m: m, wave: wave, w: w, h: h, queued: make([]bool, w*h)}
	for i := range wave {
		wave[i] = m.all
		p.push(i)
	}
	for {
		if !p.run() {
			return nil, false
		}
		best, bestScore := -1, 0.0
		for i, s := range wave {
			if c := s.count(); c > 1 && (best < 0 || float64(c)+prefs[i] < bestScore) {
				best, bestScore = i, float64(c)+prefs[i]
			}
		}
		if best < 0 {
			break
		}
		var choices []int
		total := 0.0
		wave[best].each(func(q int) {
			choices = append(choices, q)
			total += m.weights[q]
		})
		chosen := choices[len(choices)-1]
		u := g.rng.Float64() * total
		for _, q := range choices {
			if u < m.weights[q] {
				chosen = q
				break
			}
			u -= m.weights[q]
		}
		wave[best] = patternSet{}
		wave[best].add(chosen)
		p.pushNeighbours(best)
	}
	out := make([]byte, w*h)
	for i, s := range wave {
		s.each(func(q int) { out[i] = m.patterns[q][0] })
	}
	return out, true
}

// propagation removes from the cells of a wave every pattern that has no agreeing
// pattern in some neighbour, until none is left to remove: the cells to check wait
// in a queue, and a cell that loses a pattern queues its neighbours.
type propagation struct {
	m      *wfcModel
	wave   []patternSet
	w, h   int
	queue  []int
	queued []bool
}

func (p *propagation) push(i int) {
	if !p.queued[i] {
		p.queued[i] = true
		p.queue = append(p.queue, i)
	}
}

// neighbour is the cell at offset d of cell i, or -1 off a non-periodic edge.
func (p *propagation) neighbour(i, d int) int {
	x, y := i%p.w+wfcDirs[d].x, i/p.w+wfcDirs[d].y
	if p.m.periodic {
		x, y = (x+p.w)%p.w, (y+p.h)%p.h
	} else if x < 0 || y < 0 || x >= p.w || y >= p.h {
		return -1
	}
	return y*p.w + x
}

func (p *propagation) pushNeighbours(i int) {
	for d := range wfcDirs {
		if n := p.neighbour(i, d); n >= 0 {
			p.push(n)
		}
	}
}

// run empties the queue; it reports false when a cell loses every pattern.
func (p *propagation) run() bool {
	for len(p.queue) > 0 {
		i := p.queue[0]
		p.queue = p.queue[1:]
		p.queued[i] = false
		before := p.wave[i]
		before.each(func(q int) {
			for d := range wfcDirs {
				if n := p.neighbour(i, d); n >= 0 && !p.m.allowed[d][q].meets(p.wave[n]) {
					p.wave[i].remove(q)
					return
				}
			}
		})
		if p.wave[i] == before {
			continue
		}
		if p.wave[i].count() == 0 {
			p.queue = p.queue[:0]
			clear(p.queued)
			return false
		}
		p.pushNeighbours(i)
	}
	return true
}

// wfcLevel is MiniGrid-WFC-<preset>: a size x size grid, walled around a maze grown
// by wave function collapse; reach the goal.
type wfcLevel struct {
	plainRules
	model     *wfcModel
	size      int
	connected bool // keep only the largest connected free region
}

// wfcAttempts is how many times a layout grows the maze before it starts over.
const wfcAttempts = 1000

func (l wfcLevel) generate(e *Env) {
	inner := l.size - 2
	prefs := make([]float64, inner*inner)
	for i := range prefs {
		prefs[i] = e.rng.Float64() * 0.1
	}
	var free []point
	for range wfcAttempts {
		tiles, ok := l.model.solve(&e.gen, inner, inner, prefs)
		if !ok {
			continue
		}
		free = freeSquares(tiles, inner, l.connected)
		if len(free) >= 2 {
			break
		}
		free = nil
	}
	if free == nil {
		fail("wfc")
	}
	e.walledRoom(l.size, l.size)
	for y := 1; y <= inner; y++ {
		e.horzWall(1, y, inner, wall)
	}
	for _, p := range free {
		e.set(p.x+1, p.y+1, empty)
	}
	order := e.randPerm(len(free))
	start, end := free[order[0]], free[order[1]]
	e.agent = point{start.x + 1, start.y + 1}
	e.target = point{end.x + 1, end.y + 1}
	e.set(e.target.x, e.target.y, goal)
	e.dir = e.randInt(0, 4)
	e.mission = "traverse the maze to get to the goal"
}

// freeSquares lists the free squares of a w x w picture of tiles: all of them, or
// when connected only the largest 4-connected region of more than one square.
func freeSquares(tiles []byte, w int, connected bool) []point {
	var all []point
	for i, t := range tiles {
		if t != '#' {
			all = append(all, point{i % w, i / w})
		}
	}
	if !connected {
		return all
	}
	seen := make([]bool, len(tiles))
	var best []point
	for _, s := range all {
		if seen[s.y*w+s.x] {
			continue
		}
		seen[s.y*w+s.x] = true
		region := []point{s}
		for k := 0; k < len(region); k++ {
			for _, d := range dirVecs {
				q := region[k].add(d)
				if q.x >= 0 && q.y >= 0 && q.x < w && q.y < w && tiles[q.y*w+q.x] != '#' && !seen[q.y*w+q.x] {
					seen[q.y*w+q.x] = true
					region = append(region, q)
				}
			}
		}
		if len(region) > len(best) && len(region) > 1 {
			best = region
		}
	}
	return best
}
