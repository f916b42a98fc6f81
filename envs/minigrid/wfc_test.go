package minigrid

import (
	"slices"
	"testing"
)

// TestWFCModel checks a preset's patterns on a picture worked by hand: the 3 x 3
// picture of one black dot has, with wrapping, the 2 x 2 patterns of a dot in each
// corner and the all-white one, each occurring in all eight orientations; and a dot
// pattern agrees to its right only with patterns whose left column matches its right.
func TestWFCModel(t *testing.T) {
	m, err := newWFCModel(wfcPresets["ObstaclesBlackdots"])
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"#...", ".#..", "..#.", "...#", "...."} // sorted
	var got []string
	for i, p := range m.patterns {
		got = append(got, string(p))
		if m.weights[i] != 8 {
			t.Errorf("pattern %q weight %v, want 8", p, m.weights[i])
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("patterns %q, want %q", got, want)
	}
	index := func(s string) int { return slices.IndexFunc(m.patterns, func(p []byte) bool { return string(p) == s }) }
	right := 1 // wfcDirs[1] is (1, 0)
	for _, q := range want {
		// "#..." (dot top left) has a white right column: any pattern with a white
		// left column may follow.
		if ok := m.allowed[right][index("#...")].has(index(q)); ok != (q[0] == '.' && q[2] == '.') {
			t.Errorf("%q right of \"#...\": %v", q, ok)
		}
		// ".#.." (dot top right) needs a dot top left to its right.
		if ok := m.allowed[right][index(".#..")].has(index(q)); ok != (q == "#...") {
			t.Errorf("%q right of \".#..\": %v", q, ok)
		}
	}
}

// TestWFCSolutions grows pictures from every preset and checks that every window of
// pattern size lies in the preset's patterns, and that the tasks' layouts have one
// goal reachable from the agent.
func TestWFCSolutions(t *testing.T) {
	for name, pr := range wfcPresets {
		m, err := newWFCModel(pr)
		if err != nil {
			t.Fatal(err)
		}
		known := map[string]bool{}
		for _, p := range m.patterns {
			known[string(p)] = true
		}
		g := newGen(1)
		const w = 12
		prefs := make([]float64, w*w)
		solved := 0
		for range 20 {
			tiles, ok := m.solve(&g, w, w, prefs)
			if !ok {
				continue
			}
			solved++
			for y := 0; y+pr.n <= w; y++ {
				for x := 0; x+pr.n <= w; x++ {
					win := make([]byte, 0, pr.n*pr.n)
					for j := range pr.n {
						win = append(win, tiles[(y+j)*w+x:(y+j)*w+x+pr.n]...)
					}
					if !known[string(win)] {
						t.Fatalf("%s: window %q at (%d, %d) is no pattern", name, win, x, y)
					}
				}
			}
		}
		if solved == 0 {
			t.Errorf("%s: no picture in 20 tries", name)
		}
		forSeeds(t, "MiniGrid-WFC-"+name+"-v0", 3, func(e *Env) string {
			goals := findAll(e, goal)
			if len(goals) != 1 || !reach(e, e.agent, open)[goals[0]] || e.mission != "traverse the maze to get to the goal" {
				return "goal"
			}
			// ensure_connected: every free square is reachable.
			free := reach(e, e.agent, open)
			for y := range e.h {
				for x := range e.w {
					if e.get(x, y).canOverlap() && !free[point{x, y}] {
						return "a free square outside the agent's region"
					}
				}
			}
			return ""
		})
	}
}
